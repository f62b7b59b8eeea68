"""A mastery report that is JSON but not an object does not verify (registers.md § Loading)."""

from __future__ import annotations

import base64
from typing import Any

from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

REPORT = "mastery_report"
NOT_OBJECTS: dict[str, bytes] = {
    "null": b"null\n",
    "a list": b"[]\n",
    "a string": b'"ratified"\n',
    "a number": b"1\n",
    "true": b"true\n",
}
"""Report files that are UTF-8 JSON but no object: no seal to verify."""


@requirement(
    "LOAD-SEAL-301",
    "a ratified pack whose report beside it is JSON but not an object (null, a list, a string, "
    "a number, true) does not load: REGISTER_SEAL_MISMATCH, field mastery_report",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 7: the report's self-seal verifies)",
    strategy=lambda ctx: gen.valid_packs(),
    max_examples=3,
)
def report_not_an_object(engine: EngineClient, document: dict[str, Any]) -> None:
    rid = document["register_id"]
    files = ratified_files(engine, document)
    name = f"{rid}.mastery_report.json"
    for what, raw in NOT_OBJECTS.items():
        edited = {**files, name: base64.b64encode(raw).decode("ascii")}
        try:
            engine.call("register.load", {"register_id": rid, "files": edited})
        except EngineRefused as refusal:
            got = (refusal.code, refusal.field)
        else:
            raise AssertionError(f"a report that is {what} loaded")
        assert got == ("REGISTER_SEAL_MISMATCH", REPORT), (
            f"a report that is {what}: refused with {got}, expected "
            f"('REGISTER_SEAL_MISMATCH', {REPORT!r}): registers.md § Loading step 7"
        )
