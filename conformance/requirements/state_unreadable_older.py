"""What cannot be read is never proven invalid, also away from the live generation: an older
generation met while falling back, and a generation past ``CURRENT`` at a writer's open
(docs/state.md § Recovery rules (load) 4 and leftover removal at open)."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.crashstates import snapshot
from conformance.state.driver import refusal_code, scratch

EMPTY = oracle.encode_core([])
ONE = oracle.encode_core([{"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}])


def _met_in_fall_back(directory: Path) -> None:
    """gen 1 valid, gen 2 unreadable, gen 3 (which CURRENT names) with a torn core."""
    oracle.write_generation(directory, 1, EMPTY, point=False)
    oracle.write_generation(directory, 2, ONE, point=False)
    oracle.write_generation(directory, 3, ONE)
    (directory / "gen-00000003" / "core.jsonl").write_bytes(b"torn")


def _past_current(directory: Path) -> None:
    """gen 1 valid, which CURRENT names; gen 2 past it unreadable."""
    oracle.write_generation(directory, 1, EMPTY)
    oracle.write_generation(directory, 2, ONE, point=False)


CASES = {
    "an older generation met while falling back": (_met_in_fall_back, ("state.load", "state.open")),
    "a generation past CURRENT at a writer's open": (_past_current, ("state.open",)),
}
"""How the directory is planted (``gen-00000002`` is then made mode 000), and the ops that
must refuse it."""


@requirement(
    "STATE-UNREADABLE-101",
    "a generation that exists but cannot be read is refused with STATE_UNREADABLE also when "
    "it is not the live one: an older generation met while falling back (load and open), and "
    "a generation past CURRENT at a writer's open; never fallen back past or removed, and "
    "the directory is left as it was",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Recovery rules (load) 4: the same holds for an older generation met "
    "while falling back; leftover removal at open: a generation past CURRENT that cannot be "
    "read is STATE_UNREADABLE",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    max_examples=len(CASES),
    cover=coverage.each("unreadable generations", sorted(CASES)),
)
def unreadable_older_refused(engine: EngineClient, name: str) -> None:
    from conformance.state.unprivileged import bound_by_modes

    plant, ops = CASES[name]
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    with scratch() as root:
        directory = root / "state"
        plant(directory)
        before = snapshot(directory)
        os.chmod(directory / "gen-00000002", 0)
        try:
            with bound_by_modes(command, engine.transcript) as bound:
                codes = {op: refusal_code(bound, op, directory) for op in ops}
        finally:
            os.chmod(directory / "gen-00000002", 0o755)
        after = snapshot(directory)
    wrong = {op: code for op, code in codes.items() if code != "STATE_UNREADABLE"}
    assert not wrong, f"{name}: not refused with STATE_UNREADABLE: {wrong}"
    changed = sorted(
        p for p in set(before) | set(after) if p != "LOCK" and before.get(p) != after.get(p)
    )
    assert not changed, f"{name}: the refused op changed {changed[:4]}"
