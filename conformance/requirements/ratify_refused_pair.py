"""A pack the gate refuses after step 1 leaves both files of its pair untouched.

docs/registers.md § The ratification gate: "A pack refused by steps 1–5 leaves both files
untouched", and step 2 reads the pack "exactly as the loader does"; § Error codes gives
`REGISTER_TAMPERED` to load alone. A pack is ratified in place, then edited so that the gate
refuses it, and ratified again beside its old report: the refusal is the docs' code and
field, and the edited pack, its old report and the directory (no hidden staging name) are as
they were.

Two requirements share that flow. LOAD-RATIFY-102 edits into refusals of step 2 (a field
left out, an unknown ``depth_preference``) and step 3 (a null pack claiming a depth): a
``register.ratify_file`` that writes the sealed pair and then applies the null rule to what
it wrote, rewrites the pack in normal form before its checks, or drops the old report of a
pack it refuses fails it. LOAD-RATIFY-471 edits into `REGISTER_MALFORMED` (not JSON, an
unknown field, a string field or a marker of the wrong type): a gate that calls the
loader's read, which beside a report turns `REGISTER_MALFORMED` into `REGISTER_TAMPERED`,
fails it.
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

STEM = "refused_pair_v1"
OPENINGS = ["So,", "Right,"]
MARKED = gen.pack(STEM, markers={"openings": OPENINGS, "transitions": [], "closings": [""]})

Edit = tuple[bytes, str, str | None]
"""The edited pack's bytes, and the code and field of the refusal the docs give it."""


def _text(pack: dict[str, Any]) -> bytes:
    return (json.dumps(pack, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


GATE_EDITS: dict[str, Edit] = {
    "a null pack claiming terse (step 3, the null rule)": (
        _text(gen.pack(STEM, depth_preference="terse")),
        "REGISTER_EMPTY_NON_NULL",
        "depth_preference",
    ),
    "a null pack claiming pedagogical (step 3, the null rule)": (
        _text(gen.pack(STEM, depth_preference="pedagogical")),
        "REGISTER_EMPTY_NON_NULL",
        "depth_preference",
    ),
    "description left out (step 2)": (
        _text({k: v for k, v in MARKED.items() if k != "description"}),
        "REGISTER_MISSING_FIELD",
        "description",
    ),
    "an unknown depth_preference (step 2)": (
        _text({**MARKED, "depth_preference": "loud"}),
        "REGISTER_BAD_DEPTH_PREFERENCE",
        "depth_preference",
    ),
}

MALFORMED_EDITS: dict[str, Edit] = {
    "the pack cut before its closing brace (not JSON)": (
        _text(MARKED).rstrip()[:-1],
        "REGISTER_MALFORMED",
        None,
    ),
    "an unknown top-level field zz": (_text({**MARKED, "zz": "x"}), "REGISTER_MALFORMED", "zz"),
    "version a number": (_text({**MARKED, "version": 1}), "REGISTER_MALFORMED", "version"),
    "opening 1 a number": (
        _text(
            {
                **MARKED,
                "discourse_markers": {
                    "openings": [OPENINGS[0], 7],
                    "transitions": [],
                    "closings": [""],
                },
            }
        ),
        "REGISTER_MALFORMED",
        "discourse_markers.openings[1]",
    ),
}


def _refused_edit_leaves_pair(engine: EngineClient, name: str, edit: Edit) -> None:
    """Ratify MARKED in place, write the edit over it, ratify again: the docs' refusal,
    and the edited pack, its old report and nothing else in the directory."""
    data, code, field = edit
    with scratch() as directory:
        pack = directory / f"{STEM}.json"
        report = directory / f"{STEM}.mastery_report.json"
        pack.write_bytes(_text(MARKED))
        engine.call("register.ratify_file", {"path": str(pack)})
        assert report.is_file(), f"ratifying {pack.name} wrote no {report.name}"
        old_report = report.read_bytes()
        pack.write_bytes(data)
        try:
            engine.call("register.ratify_file", {"path": str(pack)})
        except EngineRefused as refusal:
            got = (refusal.code, refusal.field)
        else:
            raise AssertionError(f"{name}: ratified, the docs say {code}")
        assert got == (code, field), (
            f"{name}, its old report beside it: register.ratify_file answered {got[0]} naming "
            f"{got[1]!r}, the docs say {code} naming {field!r}"
            + ("" if got[0] != "REGISTER_TAMPERED" else " (REGISTER_TAMPERED is load's alone)")
        )
        assert pack.read_bytes() == data, f"{name}: the refused pack file was rewritten"
        assert report.is_file() and report.read_bytes() == old_report, (
            f"{name}: the refused ratify changed or removed the pack's old report"
        )
        names = sorted(p.name for p in directory.iterdir())
        assert names == sorted([pack.name, report.name]), (
            f"{name}: after the refused ratify the directory holds {names}"
        )


@requirement(
    "LOAD-RATIFY-102",
    "register.ratify_file of a ratified pack edited so that the gate refuses it (the null "
    "rule, a structural check) answers that refusal and leaves both files untouched: the "
    "edited pack, its old report, nothing else in the directory",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate (a pack refused by steps 1-5 leaves both "
    "files untouched)",
    strategy=lambda ctx: st.sampled_from(sorted(GATE_EDITS)),
    cover=coverage.each("refused edits of a ratified pair", sorted(GATE_EDITS)),
)
def refused_pair_untouched(engine: EngineClient, name: str) -> None:
    _refused_edit_leaves_pair(engine, name, GATE_EDITS[name])


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
    strategy=lambda ctx: st.sampled_from(sorted(MALFORMED_EDITS)),
    cover=coverage.each("malformed edits of a ratified pair", sorted(MALFORMED_EDITS)),
)
def malformed_beside_report_is_malformed(engine: EngineClient, name: str) -> None:
    _refused_edit_leaves_pair(engine, name, MALFORMED_EDITS[name])
