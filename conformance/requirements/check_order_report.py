"""Two faults of a mastery report at once: loading step 7 checks the report in the order its
sentence lists, and the first check that fails names its field.

docs/registers.md § Loading, step 7: valid UTF-8 JSON, its self-seal verifies, its bytes are
its normal form (each ``mastery_report``), its ``register_id`` is the id
(``mastery_report.register_id``), its ``verdict`` is ``"ratified"``
(``mastery_report.verdict``). Each case breaks two of them in a report the suite reseals
(the pack naming the new seal, so step 8 holds), and expects the field of the earlier.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.canonical import digest
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement

REPORT_ID = "order_report_v1"
SEED = "docs/registers.md § Loading (step 7, its checks in the order written)"
OTHER_ID = "other_report_v1"

CASES: dict[str, tuple[dict[str, Any], bool, bool, str]] = {
    "register_id and verdict both wrong (register_id first)": (
        {"register_id": OTHER_ID, "verdict": "refused"},
        True,
        True,
        "mastery_report.register_id",
    ),
    "out of normal form with a wrong register_id (normal form first)": (
        {"register_id": OTHER_ID},
        True,
        False,
        "mastery_report",
    ),
    "out of normal form with a wrong verdict (normal form first)": (
        {"verdict": "refused"},
        True,
        False,
        "mastery_report",
    ),
    "a self-seal that fails with a wrong register_id (self-seal first)": (
        {"register_id": OTHER_ID},
        False,
        True,
        "mastery_report",
    ),
    "a self-seal that fails with a wrong verdict (self-seal first)": (
        {"verdict": "refused"},
        False,
        True,
        "mastery_report",
    ),
}
"""Per case: the report members changed, whether the report is resealed over its new body,
whether it is written in normal form, and the field of the refusal."""


def _normal_form(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def _files(sealed: dict[str, str], case: str) -> dict[str, str]:
    changes, resealed, normal, _ = CASES[case]
    report = json.loads(base64.b64decode(sealed[f"{REPORT_ID}.mastery_report.json"]))
    body = {k: v for k, v in report.items() if k != "seal"}
    body.update(changes)
    seal = digest(body) if resealed else report["seal"]
    text = _normal_form({**body, "seal": seal})
    if not normal:
        text = text.replace(b"{\n", b"{\n\n", 1)
    pack = base64.b64decode(sealed[f"{REPORT_ID}.json"]).replace(
        report["seal"].encode(), seal.encode()
    )
    return {
        f"{REPORT_ID}.json": base64.b64encode(pack).decode("ascii"),
        f"{REPORT_ID}.mastery_report.json": base64.b64encode(text).decode("ascii"),
    }


@requirement(
    "LOAD-ORDER-003",
    "a mastery report with two faults of loading step 7 is refused for the earlier in the "
    "order written: its self-seal and its normal form before its register_id and its "
    "verdict, its register_id before its verdict (REGISTER_SEAL_MISMATCH, the earlier "
    "check's field)",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed=SEED,
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("two faults of a report", sorted(CASES)),
)
def report_check_order(engine: EngineClient, case: str) -> None:
    sealed = engine.call("register.ratify", {"pack": gen.pack(REPORT_ID)})["files"]
    args: EncodableObject = {"register_id": REPORT_ID, "files": _files(sealed, case)}
    field = CASES[case][3]
    try:
        engine.call("register.load", args)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
        assert got == ("REGISTER_SEAL_MISMATCH", field), (
            f"{case}: register.load answered {refusal.code} with field {refusal.field!r}; "
            f"the earlier check of step 7 gives REGISTER_SEAL_MISMATCH with field {field!r}"
        )
    else:
        raise AssertionError(f"{case}: register.load loaded the pack")
