"""A pack the gate refuses after step 1 leaves both files of its pair untouched.

docs/registers.md § The ratification gate: "A pack refused by steps 1–5 leaves both files
untouched." LOAD-RATIFY-101 and LOAD-ORDER-701 check the pack file after refusals of step 1
and of the structural checks, with no report beside it; the null rule (step 3) is refused
only through ``register.ratify``, whose scratch directory no client sees. So a
``register.ratify_file`` that writes the sealed pair and then applies the null rule to what
it wrote, or rewrites the pack in normal form before its checks, or drops the old report of
a pack it refuses, passes them. Here a pack is ratified in place, then edited so that the
gate refuses it at step 2 (a field left out, an unknown ``depth_preference``) or step 3 (a
null pack claiming ``terse``); the refusal is the docs' code and field, and the edited pack,
its old report and the directory (no hidden staging name) are as they were.
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
MARKED = gen.pack(STEM, markers={"openings": ["So,"], "transitions": [], "closings": [""]})


def _text(pack: dict[str, Any]) -> bytes:
    return (json.dumps(pack, indent=2, sort_keys=True) + "\n").encode()


EDITS: dict[str, tuple[bytes, str, str]] = {
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
"""The edited pack's bytes, and the refusal docs/registers.md gives it."""


@requirement(
    "LOAD-RATIFY-102",
    "register.ratify_file of a ratified pack edited so that the gate refuses it (the null "
    "rule, a structural check) answers that refusal and leaves both files untouched: the "
    "edited pack, its old report, nothing else in the directory",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate (a pack refused by steps 1-5 leaves both "
    "files untouched)",
    strategy=lambda ctx: st.sampled_from(sorted(EDITS)),
    cover=coverage.each("refused edits of a ratified pair", sorted(EDITS)),
)
def refused_pair_untouched(engine: EngineClient, name: str) -> None:
    data, code, field = EDITS[name]
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
            assert got == (code, field), (
                f"{name}: register.ratify_file answered {refusal.code} naming "
                f"{refusal.field!r}, the docs say {code} naming {field!r}"
            )
        else:
            raise AssertionError(f"{name}: ratified, the docs say {code}")
        assert pack.read_bytes() == data, f"{name}: the refused pack file was rewritten"
        assert report.is_file() and report.read_bytes() == old_report, (
            f"{name}: the refused ratify changed or removed the pack's old report"
        )
        names = sorted(p.name for p in directory.iterdir())
        assert names == sorted([pack.name, report.name]), (
            f"{name}: after the refused ratify the directory holds {names}"
        )
