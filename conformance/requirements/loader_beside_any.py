"""Beside its report means the report file is there, whatever it holds.

docs/registers.md § Loading, step 4: "`REGISTER_TAMPERED` when the pack's mastery report is
beside it (a ratified pack edited into something unreadable)"; step 5: "When the pack's
report is beside it, a `REGISTER_MALFORMED` of this step or of step 4 is reported as
`REGISTER_TAMPERED` with the same `field`". The report itself is read only at step 7.
LOAD-TAMPER-001 and LOAD-BESIDE-001 leave the pack's own sealed report beside the edited
pack, so a loader that reads the report first and calls a malformed pack tampered only when
that report parses (or is sealed, or names the pack) passes them. Here the report beside the
malformed pack is not JSON, empty, or another register's sealed report: the pack's fault
still comes first (steps 4 and 5 before 7) and is REGISTER_TAMPERED with its own field.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import sealed_json
from conformance.requirements.registry import requirement

RID = "beside_any_v1"
OTHER = "beside_other_v1"
MARKERS = {"openings": ["So,", "Right,"], "transitions": [], "closings": [""]}


def _pretty(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


PACK_FAULTS: dict[str, tuple[str, str | None]] = {
    "the pack cut before its closing brace (not JSON)": ("cut", None),
    "an unknown top-level field zz added": ("zz", "zz"),
    "opening 1 a number": ("marker", "discourse_markers.openings[1]"),
}
"""Edits that make the ratified pack REGISTER_MALFORMED, and the field of that refusal."""

REPORTS = (
    "a report that is not JSON",
    "an empty report file",
    "another register's sealed report",
    "the pack's own report",
)
"""What the file at ``<id>.mastery_report.json`` holds beside the edited pack."""

NAMES = sorted(f"{fault}; {report}" for fault in PACK_FAULTS for report in REPORTS)


def _edited(pack: dict[str, Any], fault: str) -> bytes:
    kind = PACK_FAULTS[fault][0]
    edited = json.loads(json.dumps(pack))
    if kind == "cut":
        return _pretty(edited).rstrip()[:-1]
    if kind == "zz":
        edited["zz"] = "x"
    else:
        edited["discourse_markers"]["openings"][1] = 7
    return _pretty(edited)


def _report(engine: EngineClient, files: dict[str, str], report: str) -> bytes:
    if report == "a report that is not JSON":
        return b"not json\n"
    if report == "an empty report file":
        return b""
    if report == "another register's sealed report":
        other = ratified_files(engine, gen.pack(OTHER, markers=MARKERS))
        return base64.b64decode(other[f"{OTHER}.mastery_report.json"])
    return base64.b64decode(files[f"{RID}.mastery_report.json"])


@requirement(
    "LOAD-BESIDE-471",
    "a ratified pack edited into REGISTER_MALFORMED (not JSON, an unknown field, a marker not "
    "a string) is REGISTER_TAMPERED with that field whenever a file is at its report's name, "
    "even one that is not JSON, empty or another register's report: the pack's steps 4 and 5 "
    "come before the report is read",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (steps 4 and 5: REGISTER_TAMPERED when the pack's "
    "mastery report is beside it; step 7 reads the report)",
    strategy=lambda ctx: st.sampled_from(NAMES),
    cover=coverage.each("malformed packs beside a report file of any content", NAMES),
)
def malformed_beside_any_report(engine: EngineClient, name: str) -> None:
    fault, report = name.split("; ")
    files = ratified_files(engine, gen.pack(RID, markers=MARKERS))
    pack = sealed_json(files, f"{RID}.json")
    edited = {
        f"{RID}.json": base64.b64encode(_edited(pack, fault)).decode("ascii"),
        f"{RID}.mastery_report.json": base64.b64encode(_report(engine, files, report)).decode(
            "ascii"
        ),
    }
    try:
        engine.call("register.load", {"register_id": RID, "files": edited}, checked=False)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name}: the pack loaded")
    want = ("REGISTER_TAMPERED", PACK_FAULTS[fault][1])
    assert got == want, (
        f"{name}: register.load refused with {got}, the docs give {want}: a malformed pack "
        "whose report is beside it is tampered (steps 4 and 5), and the report is read only "
        "at step 7"
    )
