"""The closed-list table: every reserved, sentinel or closed-list value docs/ names.

Plain data. Each entry is one value (or one closed list of values) with the sentence of
docs/ that makes it special (``doc`` and ``quote``, a verbatim substring of that document
once its lines are joined; ``also``: more such sentences, each ``(doc, quote)``) and
every place it can arrive: an op and the argument (or
the member of a pack or a persisted file) it arrives through, and the documented
outcome there.

An outcome is ``{"ok": True}`` (accepted, with ``means`` saying what it stands for), or
``{"code": CODE, "field": FIELD}`` (refused; ``{value}`` in FIELD is the value itself).
``member`` is the outcome of the value (each member of a closed list) and ``near_miss``
the outcome of a spelling that differs from every member by case, whitespace, a prefix
or suffix, a Unicode look-alike or a combining mark (:func:`near_misses`; for ``null``,
the strings of :data:`NULL_SPELLINGS`). A
``near_miss`` of ``"id rule"`` means: as any other register id, accepted when it matches
the id pattern (and a ratified file is given), else ``REGISTER_INVALID_ID`` naming
``register_id``.

``checked`` names the requirement that sends every (value x op x argument) of the entry
and its near misses (an arrival's own ``checked`` names another); ``None`` is an entry no
requirement sends yet.

``lanes/docs/test_reserved_table.py`` fails on a sentence of docs/ naming a reserved,
sentinel or closed value that no entry (or its list of sentences that name no such
value) quotes, and on a quote docs/ no longer holds.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from conformance.oracle import BUCKET_NAMES, INTENT_NAMES, OVERRIDE_KEYS, SCHEMA_VERSION

UNREGISTERED_ID = "unregistered"
"""The sentinel pack's own id (docs/registers.md § No register): never loadable."""

DEPTH_PREFERENCES = ("terse", "standard", "pedagogical")
MUTATION_OPS = ("put", "delete", "turn")
RECORD_KINDS = ("candidate", "recognizer", "session", "life", "vault")
KINDS_OF_EVERY_VERSION = ("candidate", "recognizer", "session")
"""The kinds schema version 1 introduced: known to every engine claiming ``state``."""

REG_ID = "REG-RESERVED-001"
CLOSED_ID = "PROTO-RESERVED-001"
STATE_ID = "STATE-RESERVED-001"
REG_FILE_ID = "REG-RESERVED-002"

_OK: dict[str, Any] = {"ok": True}


def _refused(code: str, field: str | None) -> dict[str, Any]:
    return {"code": code, "field": field}


ENTRIES: tuple[dict[str, Any], ...] = (
    {
        "name": "unregistered",
        "values": (UNREGISTERED_ID,),
        "doc": "registers.md",
        "quote": '`"unregistered"` never crosses the wire',
        "also": (
            ("registers.md", '`UNREGISTERED` is the sentinel for "no register"'),
            ("registers.md", "and an UNREGISTERED sentinel pack"),
            ("registers.md", "the sentinel pack itself (`UNREGISTERED.register_id`"),
            ("registers.md", "The sentinel's id does reach `decorate`"),
            ("protocol.md", "A value that merely looks like a reserved one is not it"),
        ),
        "arrivals": (
            {
                "op": "register.load",
                "arg": "register_id",
                "member": _refused("REGISTER_NOT_FOUND", "register_id"),
                "near_miss": "id rule",
            },
            {
                "op": "register.load",
                "arg": "register_id (files hold a ratified <id>.json)",
                "member": _refused("REGISTER_NOT_FOUND", "register_id"),
                "near_miss": "id rule",
            },
            {
                "op": "session.open",
                "arg": "register_id",
                "member": _refused("REGISTER_NOT_FOUND", "register_id"),
                "near_miss": "id rule",
            },
            {
                "op": "session.open",
                "arg": "register_id (files hold a ratified <id>.json)",
                "member": _refused("REGISTER_NOT_FOUND", "register_id"),
                "near_miss": "id rule",
            },
            {
                "op": "register.validate",
                "arg": "pack.register_id",
                "member": {**_OK, "means": "a pack's own field, structurally valid"},
                "near_miss": "id rule",
            },
            {
                "op": "register.ratify",
                "arg": "pack.register_id",
                "member": {**_OK, "means": "a pack's own field, structurally valid"},
                "near_miss": "id rule",
            },
            {
                "op": "register.validate",
                "arg": "expected_id (the pack's register_id is the value)",
                "member": {**_OK, "means": "the id expected, compared exactly"},
                "near_miss": _refused("REGISTER_ID_MISMATCH", "register_id"),
            },
            {
                "op": "register.ratify_file",
                "arg": "path (its stem)",
                "member": {**_OK, "means": "a pack file's stem, a valid id"},
                "near_miss": "id rule",
                "checked": REG_FILE_ID,
            },
            {
                "op": "variation.select",
                "arg": "register_id",
                "member": {**_OK, "means": "seed text"},
                "near_miss": {**_OK, "means": "seed text"},
            },
            {
                "op": "session.chat",
                "arg": "result.register_id (of the session the id opened)",
                "member": _refused("REGISTER_NOT_FOUND", "register_id"),
                "near_miss": {**_OK, "means": "the id itself, never null"},
            },
        ),
        "checked": REG_ID,
    },
    {
        "name": "null register",
        "values": (None,),
        "doc": "protocol.md",
        "quote": "Only `null` means the sentinel",
        "also": (
            ("protocol.md", "(`null`: the UNREGISTERED sentinel)"),
            ("registers.md", 'Only the JSON `null` is "no register"'),
        ),
        "arrivals": (
            {
                "op": "session.open",
                "arg": "register_id",
                "member": {**_OK, "means": "UNREGISTERED: register_id null in session.chat"},
                "near_miss": "id rule",
            },
            {
                "op": "register.load",
                "arg": "register_id",
                "member": _refused("PROTOCOL_BAD_ARGS", "register_id"),
                "near_miss": None,
            },
            {
                "op": "register.validate",
                "arg": "expected_id",
                "member": {**_OK, "means": "no id expected (step 7 skipped)"},
                "near_miss": None,
            },
            {
                "op": "register.validate",
                "arg": "pack.register_id",
                "member": _refused("REGISTER_INVALID_ID", "register_id"),
                "near_miss": None,
            },
            {
                "op": "variation.select",
                "arg": "register_id",
                "member": _refused("PROTOCOL_BAD_ARGS", "register_id"),
                "near_miss": None,
            },
        ),
        "checked": REG_ID,
    },
    {
        "name": "empty register id",
        "values": ("",),
        "doc": "protocol.md",
        "quote": "an empty or otherwise invalid id string is refused with `REGISTER_INVALID_ID`",
        "arrivals": (
            {
                "op": "session.open",
                "arg": "register_id",
                "member": _refused("REGISTER_INVALID_ID", "register_id"),
                "near_miss": None,
            },
            {
                "op": "register.load",
                "arg": "register_id",
                "member": _refused("REGISTER_INVALID_ID", "register_id"),
                "near_miss": None,
            },
            {
                "op": "register.validate",
                "arg": "expected_id",
                "member": _refused("REGISTER_ID_MISMATCH", "register_id"),
                "near_miss": None,
            },
            {
                "op": "register.validate",
                "arg": "pack.register_id",
                "member": _refused("REGISTER_INVALID_ID", "register_id"),
                "near_miss": None,
            },
            {
                "op": "variation.select",
                "arg": "register_id",
                "member": {**_OK, "means": "seed text"},
                "near_miss": None,
            },
        ),
        "checked": REG_ID,
    },
    {
        "name": "intent names",
        "values": INTENT_NAMES,
        "doc": "registers.md",
        "quote": "matched exactly: `definition` or `DEFINITION ` is not a name",
        "arrivals": (
            {
                "op": "overrides.resolve",
                "arg": "intent",
                "member": _OK,
                "near_miss": _refused("PROTOCOL_BAD_ARGS", "intent"),
            },
            {
                "op": "register.validate",
                "arg": "pack.realizer_overrides.per_intent key",
                "member": _OK,
                "near_miss": _refused(
                    "REGISTER_UNKNOWN_INTENT", "realizer_overrides.per_intent.{value}"
                ),
            },
        ),
        "checked": CLOSED_ID,
    },
    {
        "name": "marker buckets",
        "values": BUCKET_NAMES,
        "doc": "registers.md",
        "quote": "`discourse_markers` has a key other than `openings`, `transitions`, `closings`",
        "arrivals": (
            {
                "op": "register.validate",
                "arg": "pack.discourse_markers key",
                "member": _OK,
                "near_miss": _refused("REGISTER_UNKNOWN_BUCKET", "discourse_markers.{value}"),
            },
            {
                "op": "variation.decorate",
                "arg": "discourse_markers key",
                "member": _OK,
                "near_miss": _refused("PROTOCOL_BAD_ARGS", "discourse_markers"),
            },
        ),
        "checked": CLOSED_ID,
    },
    {
        "name": "override keys",
        "values": OVERRIDE_KEYS,
        "doc": "registers.md",
        "quote": "A `realizer_overrides` key, top-level or inside a `per_intent` value, is not "
        "on the allow-list",
        "arrivals": (
            {
                "op": "register.validate",
                "arg": "pack.realizer_overrides key",
                "member": _OK,
                "near_miss": _refused("REGISTER_UNKNOWN_OVERRIDE", "realizer_overrides.{value}"),
            },
        ),
        "checked": CLOSED_ID,
    },
    {
        "name": "depth preferences",
        "values": DEPTH_PREFERENCES,
        "doc": "registers.md",
        "quote": "`depth_preference` is not `terse`, `standard` or `pedagogical`",
        "arrivals": (
            {
                "op": "register.validate",
                "arg": "pack.depth_preference",
                "member": _OK,
                "near_miss": _refused("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"),
            },
        ),
        "checked": CLOSED_ID,
    },
    {
        "name": "schema versions",
        "values": (SCHEMA_VERSION,),
        "doc": "registers.md",
        "quote": 'one of `SUPPORTED_SCHEMA_VERSIONS` = `("1.0.0",)`',
        "arrivals": (
            {
                "op": "register.validate",
                "arg": "pack.schema_version",
                "member": _OK,
                "near_miss": _refused("REGISTER_SCHEMA_VERSION", "schema_version"),
            },
        ),
        "checked": CLOSED_ID,
    },
    {
        "name": "op names",
        "values": "every args.<op>.json schema of conformance/protocol/schemas",
        "doc": "protocol.md",
        "quote": "no such op (including every `state.*` op)",
        "arrivals": (
            {
                "op": "<any>",
                "arg": "op (the envelope)",
                "member": _OK,
                "near_miss": _refused("PROTOCOL_UNKNOWN_OP", "op"),
            },
        ),
        "checked": CLOSED_ID,
    },
    {
        "name": "mutation ops",
        "values": MUTATION_OPS,
        "doc": "state.md",
        "quote": "a mutation names an unknown op",
        "arrivals": (
            {
                "op": "state.apply",
                "arg": "mutations[i].op",
                "member": _OK,
                "near_miss": _refused("STATE_BAD_MUTATION", "mutations[0].op"),
            },
        ),
        "checked": STATE_ID,
    },
    {
        "name": "record kinds",
        "values": RECORD_KINDS,
        "doc": "state.md",
        "quote": "A delete's `kind` is one of the kinds of the current version",
        "arrivals": (
            {
                "op": "state.apply",
                "arg": "mutations[i].record.kind (a put)",
                "member": _OK,
                "near_miss": _refused("STATE_BAD_MUTATION", "mutations[0].record.kind"),
            },
            {
                "op": "state.apply",
                "arg": "mutations[i].kind (a delete)",
                "member": _OK,
                "near_miss": _refused("STATE_BAD_MUTATION", "mutations[0].kind"),
            },
        ),
        "checked": STATE_ID,
    },
    {
        "name": "grounding sources",
        "values": ("vault", "pack", "teaching", "partial", "oov", "none"),
        "doc": "trace-hash.md",
        "quote": "one of `vault`, `pack`, `teaching`, `partial`, `oov`, `none`",
        "arrivals": (
            {
                "op": "session.chat",
                "arg": "result.grounding_source (output only: it arrives through no op)",
                "member": _OK,
                "near_miss": None,
            },
        ),
        "checked": None,
    },
)
"""Every reserved, sentinel and closed-list value of docs/, with where it can arrive."""

NOT_A_VALUE: dict[tuple[str, str], str] = {
    ("state.md", "three when one of them is a delta whose base is neither"): (
        "a count of generations, not a value"
    ),
    ("protocol.md", "a bound passed inside one of its elements"): "a bound, not a value",
    ("protocol.md", "gets one of the typed codes above"): "the error-code table itself",
    ("protocol.md", '"transitions_reserved": false'): "a report member's name",
    ("protocol.md", "names one of them, and which one is free"): "which argument, not a value",
    ("registers.md", "`transitions_reserved` (transitions"): "a report member's name",
    ("registers.md", "or `per_intent` or one of its values is not an object"): "a shape",
    ("intents.md", "decides its intent (one of the"): "the intent names (entry intent names)",
    ("intents.md", "one of the **typo targets**"): "a rule of intent forms, not an arrival",
    ("intents.md", "none of them `and`/`or`"): "a rule of intent forms",
    ("intents.md", "no content word but one of these"): "a rule of intent forms",
    ("intents.md", "The full stop of one of those words"): "a rule of sentence ends",
    ("state.md", "answered for the first and the latest of them"): "a vault record's content",
    ("state.md", "every one of them bind the same name"): "a lock's bind, not a value",
    ("state.md", "again, each time failing one of them"): "a crash test, not a value",
    ("spec.md", "The run as a whole gets one of four verdicts"): "the suite's own verdicts",
}
"""Sentences the lane finds that name no reserved value an engine receives, and why."""


NULL_SPELLINGS = ("null", "None", "none", "NULL", "nil", "undefined", "null ")
"""Strings that spell "absent" in some language: ids like any other, never the sentinel."""


def _lookalike(text: str) -> str | None:
    """*text* with its first ASCII letter swapped for a look-alike (fullwidth, Cyrillic)."""
    swaps = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "c": "\u0441", "p": "\u0440"}
    for index, char in enumerate(text):
        if char in swaps:
            return text[:index] + swaps[char] + text[index + 1 :]
    for index, char in enumerate(text):
        if "!" <= char <= "~":
            return text[:index] + chr(ord(char) + 0xFEE0) + text[index + 1 :]
    return None


def near_misses(value: str, members: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Spellings of *value* that are no member of *members*: case, whitespace, a prefix or
    suffix, a look-alike letter, a fullwidth form, a combining mark (NFD), a zero-width
    space. Sorted, without duplicates."""
    first = value[:1]
    candidates = {
        value.upper(),
        value.lower(),
        value.capitalize(),
        value.swapcase(),
        value + " ",
        " " + value,
        value + "\t",
        value + "\u00a0",
        value + "\n",
        value + "_v1",
        "x" + value,
        value[:-1],
        value + "\u200b",
        unicodedata.normalize("NFD", first + "\u0301" + value[1:]),
        unicodedata.normalize("NFC", "e\u0301") + value,
        "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value),
    }
    lookalike = _lookalike(value)
    if lookalike is not None:
        candidates.add(lookalike)
    return tuple(sorted(c for c in candidates if c and c not in members and c != value))


def size() -> int:
    """How many (value x arrival) cells the table holds."""
    total = 0
    for entry in ENTRIES:
        values = entry["values"]
        count = len(values) if isinstance(values, tuple) else 1
        total += count * len(entry["arrivals"])
    return total
