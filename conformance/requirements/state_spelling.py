"""Names and digests of the state directory are read as spelt, never parsed leniently.

docs/state.md fixes one spelling for each: a pointer is ``gen-``, 8 ASCII decimal digits
and one ``\\n`` (§ Recovery rules 3: anything else is garbage), and every SHA-256 of the
directory is 64 lowercase hex digits, compared as text (§ The manifest). A port that
parses the number (``int()``, ``parseInt``, a ``\\d`` that takes any script's digits) or
decodes the hex before comparing reads a near miss as the real thing; each case here is
one such near miss, and every directory is loaded in one batch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import load_many, scratch

STATE = ("state",)
OLDER = [{"kind": "recognizer", "key": "older", "pattern": "o", "weight": 1}]
NEWER = [{"kind": "recognizer", "key": "newer", "pattern": "n", "weight": 2}]

NEAR_POINTERS: dict[str, bytes] = {
    "one digit": b"gen-1\n",
    "seven digits": b"gen-0000001\n",
    "nine digits": b"gen-000000001\n",
    "a plus sign": b"gen-+0000001\n",
    "a space before the digits": b"gen- 0000001\n",
    "an underscore between digits": b"gen-0000_001\n",
    "upper case GEN": b"GEN-00000001\n",
    "Arabic-Indic digits": "gen-٠٠٠٠٠٠٠١\n".encode(),
    "fullwidth digits": "gen-０００００００１\n".encode(),
    "a CR before the newline": b"gen-00000001\r\n",
    "a trailing space": b"gen-00000001 \n",
    "a leading space": b" gen-00000001\n",
    "two newlines": b"gen-00000001\n\n",
    "a byte order mark": b"\xef\xbb\xbfgen-00000001\n",
    "a NUL after the name": b"gen-00000001\x00\n",
}
"""Pointers that a lenient reader takes for ``gen-00000001``; each is garbage (§ Recovery
rules 3), so the load falls back to the newest valid generation, 2."""


def _upper(value: str) -> str:
    return value.upper()


def _manifest(
    core: bytes, generation: int, version: int, spell: Callable[[dict[str, Any]], dict[str, Any]]
) -> bytes:
    """A manifest of *core* whose body *spell* rewrites before its checksum is computed."""
    body: dict[str, Any] = {
        "files": {"core.jsonl": hashlib.sha256(core).hexdigest()},
        "generation": generation,
        "identity": oracle.identity(version, core),
        "schema_version": version,
        "turn_count": 0,
    }
    body = spell(body)
    checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    return canonical_json({**body, "checksum": checksum}).encode("utf-8") + b"\n"


UPPER_DIGESTS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], bool]] = {
    "files' SHA-256 in upper case": (
        lambda body: {**body, "files": {"core.jsonl": _upper(body["files"]["core.jsonl"])}},
        False,
    ),
    "identity in upper case": (lambda body: {**body, "identity": _upper(body["identity"])}, False),
    "checksum in upper case": (lambda body: body, True),
}
"""Generations whose only fault is a digest in upper case (the checksum recomputed over the
body as written, so nothing else differs); the flag upper-cases the checksum itself."""


def _two_generations(directory: Path, version: int) -> bytes:
    """gen 1 (OLDER) and gen 2 (NEWER), both valid; no pointer. The core of gen 2."""
    oracle.write_generation(directory, 1, oracle.encode_core(OLDER), version, point=False)
    newer = oracle.encode_core(NEWER)
    oracle.write_generation(directory, 2, newer, version, point=False)
    return newer


@requirement(
    "STATE-POINTER-002",
    "CURRENT is read as spelt: a pointer that is a near miss of gen-00000001 (1, 7 or 9 "
    "digits, a sign, a space, an underscore, GEN, Arabic-Indic or fullwidth digits, CR, two "
    "newlines, a BOM, a NUL) is garbage, so the load falls back to the newest valid "
    "generation and says so, never loads generation 1",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Recovery rules 3 (garbage: anything but a generation's name and "
    "one \\n); § Directory layout (gen- and 8 decimal digits)",
    max_examples=1,
)
def pointer_spelling(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    with scratch() as root:
        directories = []
        for number, pointer in enumerate(NEAR_POINTERS.values()):
            directory = root / str(number)
            _two_generations(directory, version)
            (directory / "CURRENT").write_bytes(pointer)
            directories.append(directory)
        answers = load_many(engine, directories)
    for (name, pointer), answer in zip(NEAR_POINTERS.items(), answers, strict=True):
        got = answer.get("result")
        assert got is not None, f"pointer with {name} {pointer!r}: refused {answer.get('error')}"
        assert got["generation"] == 2, (
            f"pointer with {name} {pointer!r} loaded generation {got['generation']}: it is "
            "garbage (not gen-, 8 ASCII digits and one newline), so the load falls back to "
            "the newest valid generation, 2"
        )
        assert got.get("recovered"), f"pointer with {name} {pointer!r}: fell back silently"


@requirement(
    "STATE-DIGEST-001",
    "a manifest digest is compared as text: a generation whose checksum, identity or file "
    "SHA-256 is the right value in upper case hex is proven invalid, so the load falls back "
    "to the older valid generation and says so",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The manifest (64 lowercase hex digits, compared as text); "
    "§ Recovery rules 4 (a checksum or SHA-256 does not match)",
    max_examples=1,
)
def digest_spelling(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    with scratch() as root:
        directories = []
        for number, (spell, checksum_upper) in enumerate(UPPER_DIGESTS.values()):
            directory = root / str(number)
            newer = _two_generations(directory, version)
            manifest = _manifest(newer, 2, version, spell)
            if checksum_upper:
                head, _, tail = manifest.partition(b'"checksum":"')
                manifest = head + b'"checksum":"' + tail[:64].upper() + tail[64:]
            (directory / "gen-00000002" / "manifest.json").write_bytes(manifest)
            (directory / "CURRENT").write_bytes(b"gen-00000002\n")
            directories.append(directory)
        answers = load_many(engine, directories)
    for name, answer in zip(UPPER_DIGESTS, answers, strict=True):
        got = answer.get("result")
        assert got is not None, f"generation 2 with its {name}: refused {answer.get('error')}"
        assert got["generation"] == 1, (
            f"generation 2 with its {name} loaded as generation {got['generation']}: a "
            "digest is 64 lowercase hex digits compared as text, so generation 2 is invalid "
            "and the load falls back to generation 1"
        )
        assert got["identity"] == oracle.identity(version, oracle.encode_core(OLDER))
        assert got.get("recovered"), f"generation 2 with its {name}: fell back silently"


CANONICAL_LINE = b'{"key":"k","kind":"recognizer","pattern":"p","weight":1}'
NEAR_CANONICAL: dict[str, bytes] = {
    "members out of order": b'{"kind":"recognizer","key":"k","pattern":"p","weight":1}',
    "a space after a colon": b'{"key": "k","kind":"recognizer","pattern":"p","weight":1}',
    "a trailing space": CANONICAL_LINE + b" ",
    "weight -0": b'{"key":"k","kind":"recognizer","pattern":"p","weight":-0}',
    "weight 1.0": b'{"key":"k","kind":"recognizer","pattern":"p","weight":1.0}',
    "weight 1e0": b'{"key":"k","kind":"recognizer","pattern":"p","weight":1e0}',
    "weight 01": b'{"key":"k","kind":"recognizer","pattern":"p","weight":01}',
    "an escaped e acute": b'{"key":"\\u00e9","kind":"recognizer","pattern":"p","weight":1}',
    "an escaped A": b'{"key":"\\u0041","kind":"recognizer","pattern":"p","weight":1}',
    "an escape in upper case": b'{"key":"k","kind":"recognizer","pattern":"\\u001F","weight":1}',
    "an escaped slash": b'{"key":"k","kind":"recognizer","pattern":"a\\/b","weight":1}',
    "a member twice": b'{"key":"k","key":"k","kind":"recognizer","pattern":"p","weight":1}',
    "a byte order mark before it (the core's first bytes)": b"\xef\xbb\xbf" + CANONICAL_LINE,
    "an optional field at its default": (
        b'{"evidence":0,"key":"k","kind":"candidate","lemma":"l","score":1,"status":"coherent"}'
    ),
}
"""Lines that are the JSON of a valid record but not its canonical JSON (docs/state.md
§ The persistent core): each is a malformed record, whatever a JSON parser makes of it."""
UNTERMINATED = "the line without its newline (the core's last byte)"
"""A core whose one line is the canonical JSON of its record but is not followed by ``\n``
(docs/state.md § The persistent core: each line is the canonical JSON of its record followed
by ``\n``): a malformed record too. From schema version 5 the identity hashes each line; a
port that splits the lines only at a ``\n`` found never ends on it."""


@requirement(
    "STATE-CANON-001",
    "a core.jsonl line that parses to a valid record but is not its canonical JSON (members "
    "out of order, a space, -0, 1.0, 1e0, 01, an escaped é or A, an upper case escape, an "
    "escaped slash, a member twice, an optional field at its default, a byte order mark "
    "before it) or is not followed by "
    "its newline (the core's last byte) is refused by a load with STATE_RECORD_MALFORMED; the "
    "canonical line loads",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § The persistent core (a line that is not the canonical JSON of its "
    "record is a malformed record); § Recovery rules 6",
    max_examples=1,
)
def canonical_lines(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    cases = {"the canonical line": CANONICAL_LINE, **NEAR_CANONICAL, UNTERMINATED: CANONICAL_LINE}
    with scratch() as root:
        directories = []
        for number, (name, line) in enumerate(cases.items()):
            directory = root / str(number)
            core = line if name == UNTERMINATED else line + b"\n"
            oracle.write_generation(directory, 1, core, version)
            directories.append(directory)
        answers = load_many(engine, directories)
    for (name, line), answer in zip(cases.items(), answers, strict=True):
        if name == "the canonical line":
            assert "result" in answer, f"the canonical line {line!r} refused: {answer}"
            continue
        assert answer.get("error") == "STATE_RECORD_MALFORMED", (
            f"core.jsonl holding {name} ({line!r}) answered {answer.get('error') or 'ok'}: "
            "a line that is not its record's canonical JSON followed by its newline is a "
            "malformed record"
        )
