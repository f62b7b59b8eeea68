"""The gate reads a pack as the loader does, but REGISTER_TAMPERED is the loader's alone.

docs/registers.md § The ratification gate, step 2: "Read and parse it exactly as the loader
does, with `expected_id` = the stem"; § Error codes: `REGISTER_MALFORMED` is raised by
"parse, load, ratify", `REGISTER_TAMPERED` by "load" only. A ratified pack edited by hand
into something malformed is re-ratified beside its old report: a port whose gate calls the
loader's read (which, beside a report, turns REGISTER_MALFORMED into REGISTER_TAMPERED, step
5) answers REGISTER_TAMPERED. LOAD-RATIFY-102 re-ratifies edited pairs too, but its edits are
refused with codes the loader keeps (a missing field, a depth, the null rule). Here each edit
is REGISTER_MALFORMED (not JSON, an unknown field, a string field or a marker of the wrong
type): register.ratify_file answers REGISTER_MALFORMED with the loader's field (null for
bytes that are not JSON), and leaves both files as they were.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

STEM = "ratify_beside_v1"
MARKED = gen.pack(
    STEM, markers={"openings": ["So,", "Right,"], "transitions": [], "closings": [""]}
)


def _text(pack: dict[str, Any]) -> bytes:
    return (json.dumps(pack, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


EDITS: dict[str, tuple[bytes, str | None]] = {
    "the pack cut before its closing brace (not JSON)": (_text(MARKED).rstrip()[:-1], None),
    "an unknown top-level field zz": (_text({**MARKED, "zz": "x"}), "zz"),
    "version a number": (_text({**MARKED, "version": 1}), "version"),
    "opening 1 a number": (
        _text(
            {
                **MARKED,
                "discourse_markers": {"openings": ["So,", 7], "transitions": [], "closings": [""]},
            }
        ),
        "discourse_markers.openings[1]",
    ),
}
"""The edited pack's bytes, and the field of its REGISTER_MALFORMED."""


@requirement(
    "LOAD-RATIFY-471",
    "register.ratify_file of a ratified pack edited into REGISTER_MALFORMED (not JSON, an "
    "unknown field, a string field or a marker of the wrong type), its old report beside it, "
    "answers REGISTER_MALFORMED with the loader's field, never REGISTER_TAMPERED (a code of "
    "load only), and leaves both files untouched",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate (step 2: read and parse it as the loader "
    "does; a report beside the file changes no code), § Error codes (REGISTER_TAMPERED: load)",
    strategy=lambda ctx: st.sampled_from(sorted(EDITS)),
    cover=coverage.each("malformed edits of a ratified pair", sorted(EDITS)),
)
def malformed_beside_report_is_malformed(engine: EngineClient, name: str) -> None:
    data, field = EDITS[name]
    with scratch() as directory:
        pack = directory / f"{STEM}.json"
        report = directory / f"{STEM}.mastery_report.json"
        pack.write_bytes(_text(MARKED))
        engine.call("register.ratify_file", {"path": str(pack)})
        assert report.is_file(), f"ratifying {pack.name} wrote no {report.name}"
        old_report = report.read_bytes()
        pack.write_bytes(data)
        try:
            engine.call("register.ratify_file", {"path": str(pack)}, checked=False)
        except EngineRefused as refusal:
            got = (refusal.code, refusal.field)
        else:
            raise AssertionError(f"{name}: ratified, the docs say REGISTER_MALFORMED")
        want = ("REGISTER_MALFORMED", field)
        assert got == want, (
            f"{name}, its old report beside it: register.ratify_file answered {got}, the docs "
            f"give {want}: the gate parses as the loader does, and REGISTER_TAMPERED is "
            "raised by load only"
        )
        assert pack.read_bytes() == data, f"{name}: the refused pack file was rewritten"
        assert report.read_bytes() == old_report, f"{name}: the refused ratify changed the report"
