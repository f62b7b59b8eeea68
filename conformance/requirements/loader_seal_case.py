"""Seals and digests are compared as the strings they are: an upper-case spelling is another.

docs/registers.md § Loading: step 7, the report's "self-seal verifies"; step 8, "The pack's
`mastery_report_sha256` equals the report's `seal`"; step 9, "`pack_source_sha256` of the
parsed pack equals the report's". Ratify writes lower-case hex, and every edit the suite
made to a seal changed a digit (LOAD-SEAL-002, LOAD-SEAL-003), so a loader that compares
digests as hex values (decoding both sides, or folding case) agrees with one comparing
strings. Here one of the three is spelt in upper case, everything else consistent with it:
the pack's seal (step 8 fails: the pack file is otherwise its own normal form, so a
case-folding loader loads it); the report's seal, the pack's seal upper-cased with it (its
self-seal no longer verifies, step 7); the report's ``pack_source_sha256``, the report
resealed and the pack given the new seal (step 9).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.canonical import digest
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import sealed_json
from conformance.requirements.registry import requirement

RID = "seal_case_v1"
SEAL = "mastery_report_sha256"
MARKERS = {"openings": ["So,"], "transitions": [], "closings": [""]}

CASES: dict[str, tuple[str, str]] = {
    "the pack's mastery_report_sha256 in upper case (step 8)": (
        "REGISTER_SEAL_MISMATCH",
        SEAL,
    ),
    "the report's seal in upper case, the pack's with it (step 7: the self-seal)": (
        "REGISTER_SEAL_MISMATCH",
        "mastery_report",
    ),
    "the report's pack_source_sha256 in upper case, resealed (step 9)": (
        "REGISTER_TAMPERED",
        "pack_source_sha256",
    ),
}
"""Which digest is spelt in upper case, and the refusal of the step that compares it."""


def _pretty(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _upper_hex(text: str) -> str:
    upper = text.upper()
    assert upper != text, f"digest {text!r} has no letter to upper-case"
    return upper


def _case(name: str, pack: dict[str, Any], report: dict[str, Any]) -> tuple[bytes, bytes]:
    """The pack and report bytes of case *name*, from the sealed *pack* and *report*."""
    pack, report = json.loads(json.dumps(pack)), json.loads(json.dumps(report))
    if name.startswith("the pack's"):
        pack[SEAL] = _upper_hex(pack[SEAL])
    elif name.startswith("the report's seal"):
        report["seal"] = _upper_hex(report["seal"])
        pack[SEAL] = report["seal"]
    else:
        report["pack_source_sha256"] = _upper_hex(report["pack_source_sha256"])
        body = {key: value for key, value in report.items() if key != "seal"}
        report["seal"] = digest(body)
        pack[SEAL] = report["seal"]
    return _pretty(pack), _pretty(report)


@requirement(
    "LOAD-SEAL-471",
    "a ratified pair with one digest spelt in upper case (the pack's seal; the report's seal; "
    "the report's pack_source_sha256, resealed) does not load: seals and digests are compared "
    "as strings, not as hex values; session.open, loading like register.load, refuses each "
    "alike",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 7: the self-seal verifies; step 8: the pack's "
    "mastery_report_sha256 equals the report's seal; step 9: pack_source_sha256 equals); "
    "docs/protocol.md § session.open (loaded like register.load)",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("digests spelt in upper case", sorted(CASES)),
)
def digests_compared_as_strings(engine: EngineClient, name: str) -> None:
    files = ratified_files(engine, gen.pack(RID, markers=MARKERS))
    pack = sealed_json(files, f"{RID}.json")
    report = sealed_json(files, f"{RID}.mastery_report.json")
    pack_bytes, report_bytes = _case(name, pack, report)
    staged = {f"{RID}.json": _b64(pack_bytes), f"{RID}.mastery_report.json": _b64(report_bytes)}
    try:
        engine.call("register.load", {"register_id": RID, "files": staged}, checked=False)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name}: the pack loaded; a digest in upper case is another string")
    want = CASES[name]
    assert got == want, f"{name}: register.load refused with {got}, the docs give {want}"
    if "sessions" not in engine.capabilities():
        return
    try:
        result = engine.call("session.open", {"register_id": RID, "files": staged})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        session = result.get("session")
        if isinstance(session, str):
            engine.call("session.close", {"session": session})
        raise AssertionError(f"{name}: session.open opened it; register.load refuses it")
    assert got == want, (
        f"{name}: session.open refused with {got}; it loads like register.load, which gives {want}"
    )
