"""A ratified pair reformatted without changing its JSON no longer loads.

docs/registers.md § Normal form: pack and report files are written "sorted keys, two-space
indent, UTF-8 without ASCII escaping, one trailing newline", and "the loader compares
bytes"; § Loading: a report whose bytes are not its normal form is `REGISTER_SEAL_MISMATCH`
(field `mastery_report`, step 7), a pack file whose bytes are not is `REGISTER_TAMPERED`
(field null, step 10), and "changing any byte of a ratified pack or of its report makes the
pack refuse to load". A port that compares parsed values, or bytes after trimming, or text
after normalising line ends, loads some of these. Each reformatting here keeps the file's
JSON value and breaks its normal form at one place (the first byte, the last, every line,
the escapes, the key order). The same pair is given to ``session.open`` too, which loads its
register "like `register.load`" (docs/protocol.md § session.open): a port whose sessions
decode the files as text (a JavaScript ``TextDecoder`` drops a leading byte order mark) opens
what the loader refuses.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

RID = "reformatted_v1"
PACK, REPORT = f"{RID}.json", f"{RID}.mastery_report.json"
MARKERS = {"openings": ["Voilà,"], "transitions": [], "closings": [" — ünïcode"]}


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in sorted(value, reverse=True)}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def _dumped(*, reverse: bool = False, **options: Any) -> Callable[[bytes], bytes]:
    """The file's JSON value written again with json.dumps *options*."""

    def dump(raw: bytes) -> bytes:
        value = json.loads(raw)
        written = _reversed_keys(value) if reverse else value
        return (json.dumps(written, **{"ensure_ascii": False, **options}) + "\n").encode()

    return dump


REFORMATS: dict[str, Callable[[bytes], bytes]] = {
    "its final newline dropped": lambda raw: raw[:-1],
    "a second final newline": lambda raw: raw + b"\n",
    "a space after the final newline": lambda raw: raw + b" ",
    "a space before the final newline": lambda raw: raw[:-1] + b" \n",
    "a leading newline": lambda raw: b"\n" + raw,
    "a byte order mark first": lambda raw: b"\xef\xbb\xbf" + raw,
    "CRLF line ends": lambda raw: raw.replace(b"\n", b"\r\n"),
    "indented by four spaces": _dumped(sort_keys=True, indent=4),
    "indented by a tab": _dumped(sort_keys=True, indent="\t"),
    "compact, its final newline kept": _dumped(sort_keys=True, separators=(",", ":")),
    "non-ASCII written as \\u escapes": _dumped(sort_keys=True, indent=2, ensure_ascii=True),
    "keys in reverse order": _dumped(indent=2, reverse=True),
}
"""Each way to write a file's JSON value out of its normal form."""

ESCAPES = "non-ASCII written as \\u escapes"
CASES = [
    [name, how]
    for name in (PACK, REPORT)
    for how in sorted(REFORMATS)
    if (name, how) != (REPORT, ESCAPES)
]
"""Every file with every reformat, but the report's escapes (a report holds no non-ASCII)."""

WANT = {
    PACK: ("REGISTER_TAMPERED", None),
    REPORT: ("REGISTER_SEAL_MISMATCH", "mastery_report"),
}
"""The refusal docs/registers.md § Loading gives a file out of normal form."""


@requirement(
    "LOAD-FORM-481",
    "register.load of a ratified pair with one file rewritten out of normal form but with "
    "the same JSON (final newline dropped or doubled, a space at an end, a leading newline, a "
    "byte order mark, CRLF, other indents, compact, \\u escapes, keys reversed) is refused: "
    "the pack REGISTER_TAMPERED with field null, the report REGISTER_SEAL_MISMATCH naming "
    "mastery_report; session.open, loading like register.load, refuses each alike",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Normal form (the loader compares bytes); § Loading (step 7: the "
    "report's bytes are its normal form; step 10: the pack file's bytes; changing any byte "
    "makes the pack refuse to load); docs/protocol.md § session.open (loaded like register.load)",
    strategy=lambda ctx: st.sampled_from(CASES),
    cover=coverage.each("reformatted files", CASES),
)
def reformatted_file_refused(engine: EngineClient, case: list[str]) -> None:
    name, how = case
    files = ratified_files(engine, gen.pack(RID, markers=MARKERS))
    raw = base64.b64decode(files[name])
    edited = REFORMATS[how](raw)
    assert json.loads(edited.decode("utf-8-sig")) == json.loads(raw), "the reformat kept the JSON"
    assert edited != raw, f"{name} as ratified is already written with {how}: not its normal form"
    given = {**files, name: base64.b64encode(edited).decode("ascii")}
    try:
        engine.call("register.load", {"register_id": RID, "files": given})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name} with {how}: loaded, the docs say {WANT[name][0]}")
    assert got == WANT[name], (
        f"{name} with {how} (the same JSON, not its normal form): refused with {got[0]} naming "
        f"{got[1]!r}, the docs say {WANT[name][0]} naming {WANT[name][1]!r}"
    )
    if "sessions" in engine.capabilities():
        _opens_as_it_loads(engine, f"{name} with {how}", given, WANT[name])


def _opens_as_it_loads(
    engine: EngineClient, what: str, files: dict[str, str], want: tuple[str, str | None]
) -> None:
    """session.open, which loads "like register.load", refuses the same *files* with *want*."""
    try:
        result = engine.call("session.open", {"register_id": RID, "files": files})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        session = result.get("session")
        if isinstance(session, str):
            engine.call("session.close", {"session": session})
        raise AssertionError(f"{what}: session.open opened it; register.load refuses it")
    assert got == want, (
        f"{what} given to session.open: refused with {got[0]} naming {got[1]!r}, as "
        f"register.load {want[0]} naming {want[1]!r} (docs/protocol.md § session.open: "
        "loaded like register.load)"
    )
