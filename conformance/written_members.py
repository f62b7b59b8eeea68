"""The closed list of every member of every document an engine writes, with the requirements
that check its value.

A document the docs define partly by a JSON example in a code block (the mastery report of
docs/registers.md § Seal scheme, the manifest and the boot event of docs/state.md) has
members a sentence-level reading misses; a port that fills one from the wrong source (the
pack's ``schema_version`` where its ``version`` belongs, a count off by one, a digest of the
wrong bytes) passes every check that reads only what a loader needs. Each row names the
document, the member (a dotted path; ``[]`` is any element of a list), its definition in the
docs' words, and the requirement ids whose checks compare its value with that definition.
A row with no id says why (``unchecked``). lanes/docs/test_written_members.py fails when the
docs' code blocks and tables name a member this list lacks, or this list names one they lack.

Plain data: no behaviour, no imports from the suite.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Member:
    """One written member: where it is written, what the docs say it holds, who checks it."""

    document: str
    name: str
    definition: str
    checked_by: tuple[str, ...]
    unchecked: str = ""


REPORT = "report"
"""``<stem>.mastery_report.json`` and the result of ``register.ratify`` (docs/registers.md
§ Seal scheme, § The ratification gate steps 4 and 5)."""
PACK = "pack"
"""``<stem>.json`` rewritten by ratify in normal form (docs/registers.md § Pack format,
§ Normal form)."""
MANIFEST = "manifest"
"""``gen-*/manifest.json`` (docs/state.md § The manifest)."""
BOOT = "boot"
"""One line of ``lineage.journal`` (docs/state.md § Identity and lineage)."""
FRAME = "journal line"
"""The framing of every journal line (docs/state.md § Journals)."""
POINTER = "CURRENT"
LOCK = "LOCK"

_R = ("LOAD-RATIFY-002", "LOAD-REPORT-201")
_P = ("LOAD-REPORT-201",)
_F = ("STATE-FORMAT-001",)
_ORDER = ("STATE-ORDER-001", "STATE-ORDER-003")
_PUT = ("candidate", "recognizer")
"""The kinds written from the records a ``state.apply`` puts (the others, from turns)."""

WRITTEN: tuple[Member, ...] = (
    Member(REPORT, "register_id", "the pack's register_id", _R),
    Member(REPORT, "pack_version", "<the pack's version>", _R),
    Member(
        REPORT,
        "pack_source_sha256",
        "digest of the pack dict without mastery_report_sha256",
        _R,
    ),
    Member(REPORT, "schema_version", '"1.0.0"', _R),
    Member(REPORT, "verdict", '"ratified"', _R),
    Member(
        REPORT,
        "methods",
        "sorted labels: a null pack gets byte_identity_null_lift; otherwise non-empty "
        "overrides add known_key_overrides_invariant_grounding and non-empty openings or "
        "closings add seeded_variation_replay_equivalence",
        _R,
    ),
    Member(REPORT, "evidence", "the evidence object of step 5", _R),
    Member(
        REPORT,
        "evidence.marker_bucket_sizes",
        "openings, transitions, closings counts",
        _R,
    ),
    Member(REPORT, "evidence.per_intent_keys", "(sorted)", _R),
    Member(REPORT, "evidence.transitions_reserved", "transitions non-empty", _R),
    Member(REPORT, "evidence.realizer_overrides_keys", "sorted top-level keys", _R),
    Member(REPORT, "evidence.null_register", "the pack is null (step 3)", _R),
    Member(
        REPORT,
        "evidence.probe",
        "with a probe, its result",
        (),
        unchecked="the protocol's register.ratify passes no probe: only the library call "
        "ratify_pack_file(path, evidence_probe=...) writes it, and no op reaches it",
    ),
    Member(REPORT, "seal", "digest of the report without seal (a self-seal)", _R),
    Member(PACK, "register_id", "a valid id, equal to the file stem", _P),
    Member(PACK, "version", "the pack's own version", _P),
    Member(PACK, "description", "free text", _P),
    Member(PACK, "schema_version", "one of SUPPORTED_SCHEMA_VERSIONS", _P),
    Member(PACK, "display_name", "free text", _P),
    Member(PACK, "depth_preference", '"terse", "standard" or "pedagogical"', _P),
    Member(PACK, "realizer_overrides", "known keys only", _P),
    Member(
        PACK,
        "discourse_markers",
        "buckets openings, transitions, closings; a missing bucket is empty; the normal form "
        "always carries all three marker buckets",
        _P,
    ),
    Member(PACK, "mastery_report_sha256", "the report's seal", ("LOAD-RATIFY-002", *_P)),
    Member(
        MANIFEST,
        "checksum",
        "the SHA-256 of the canonical JSON of the manifest without checksum",
        _F,
    ),
    Member(MANIFEST, "files", '{"core.jsonl": "<sha256 of core.jsonl>"}', _F),
    Member(
        MANIFEST,
        "generation",
        "the number its directory's name holds",
        (*_F, "STATE-COMMIT-001"),
    ),
    Member(
        MANIFEST,
        "identity",
        'sha256_hex(b"core-state/" + ascii(schema_version) + b"\\n" + bytes of core.jsonl)',
        (*_F, "STATE-LINEAGE-001"),
    ),
    Member(MANIFEST, "schema_version", "the current schema version (4, or 3)", _F),
    Member(MANIFEST, "turn_count", "the turn mutations committed", _F),
    Member(
        BOOT,
        "boot",
        "1 for the first event of a directory and one more than the highest recorded otherwise",
        (*_F, "STATE-LINEAGE-001"),
    ),
    Member(
        BOOT,
        "from_version",
        "the schema version of the state loaded at boot (null when fresh)",
        (*_F, "STATE-FORMAT-003"),
    ),
    Member(
        BOOT,
        "identity",
        "the identity the boot starts from, at the engine's current schema version",
        (*_F, "STATE-LINEAGE-001"),
    ),
    Member(
        BOOT,
        "parent",
        "the identity of the state loaded at boot (null when fresh)",
        (*_F, "STATE-FORMAT-003"),
    ),
    Member(BOOT, "reason", "fresh, resume or schema_migration", (*_F, "STATE-FORMAT-003")),
    Member(
        BOOT,
        "recovered",
        "why the loader fell back, or null",
        (*_F, "STATE-RECOVER-001"),
    ),
    Member(
        BOOT,
        "to_version",
        "the engine's current schema version",
        (*_F, "STATE-FORMAT-003"),
    ),
    Member(FRAME, "length", "payload length, 8 lowercase hex digits (bytes, not characters)", _F),
    Member(FRAME, "crc", "CRC-32 of the payload, 8 lowercase hex digits", _F),
    Member(FRAME, "payload", "canonical JSON", _F),
    Member(POINTER, "CURRENT", 'the name of the live generation and "\\n"', _F),
    Member(LOCK, "LOCK", "the writer's pid, cleared on close", (*_F, "STATE-LOCK-002")),
    *(
        Member(f"record:{kind}", name, definition, _ORDER if kind in _PUT else _F)
        for kind, fields in (
            (
                "candidate",
                (
                    ("kind", '"candidate"'),
                    ("key", "non-empty string of at most 128 characters"),
                    ("lemma", "str"),
                    ("score", "int"),
                    ("status", "speculative, coherent or rejected"),
                    ("evidence", "int, omitted when 0"),
                ),
            ),
            (
                "recognizer",
                (
                    ("kind", '"recognizer"'),
                    ("key", "non-empty string of at most 128 characters"),
                    ("pattern", "str"),
                    ("weight", "int"),
                    ("label", 'str, omitted when ""'),
                ),
            ),
            (
                "session",
                (
                    ("kind", '"session"'),
                    ("key", 'always "session"'),
                    ("register_id", "str or null"),
                ),
            ),
            (
                "life",
                (
                    ("kind", '"life"'),
                    ("key", 'always "life"'),
                    ("turns", "int >= 0"),
                    ("context", "str or null"),
                    ("rotor", "32 bit patterns"),
                ),
            ),
            (
                "vault",
                (
                    ("kind", '"vault"'),
                    ("key", "the address: 64 lowercase hex digits"),
                    ("lemma", "str"),
                    ("count", "int >= 0"),
                    ("first_turn", "int >= 0"),
                    ("last_turn", "int >= 0"),
                    ("latest_claim", "str or null"),
                    ("said", "a list of at most 3 objects"),
                    ("said[].claim", "str or null"),
                    ("said[].text", "str"),
                    ("said[].turn_idx", "int >= 0"),
                ),
            ),
        )
        for name, definition in fields
    ),
)
"""Every written member, in document order."""


def unchecked() -> tuple[Member, ...]:
    """The members no requirement checks the value of."""
    return tuple(member for member in WRITTEN if not member.checked_by)
