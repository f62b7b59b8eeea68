"""A generation past ``CURRENT`` whose schema version is refused: the open refuses, and
nothing is removed (docs/state.md § Recovery rules, leftover removal at open)."""

from __future__ import annotations

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.crashstates import snapshot
from conformance.state.driver import scratch

PAST: dict[str, tuple[object, str]] = {
    "a newer schema version": (10**6, "STATE_SCHEMA_TOO_NEW"),
    "schema version 0": (0, "STATE_SCHEMA_MALFORMED"),
    "a string schema version": ("3", "STATE_SCHEMA_MALFORMED"),
}
"""The schema version of the generation past ``CURRENT``, and the refusal it earns."""


@requirement(
    "STATE-PAST-101",
    "a generation past CURRENT whose schema version is refused (newer, 0, a string) refuses "
    "a writer's open with that refusal (field schema_version), and the open removes nothing: "
    "it is not a leftover proven invalid",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Recovery rules (load), leftover removal at open: a generation past "
    "CURRENT whose schema version is refused refuses the open with that refusal",
    strategy=lambda ctx: st.sampled_from(sorted(PAST)),
    cover=coverage.each("schema versions past CURRENT", sorted(PAST)),
)
def schema_refused_past_current(engine: EngineClient, name: str) -> None:
    version, code = PAST[name]
    with scratch() as root:
        directory = root / "state"
        oracle.write_generation(directory, 1, oracle.encode_core([]))
        oracle.write_generation(directory, 2, oracle.encode_core([]), version, point=False)
        before = snapshot(directory / "gen-00000002")
        try:
            answer = engine.call("state.open", {"dir": str(directory)})
        except EngineRefused as refusal:
            assert (refusal.code, refusal.field) == (code, "schema_version"), (
                f"gen-00000002 past CURRENT holds {name}: state.open answered {refusal.code} "
                f"field {refusal.field!r}, the docs say {code} field 'schema_version'"
            )
        else:
            engine.call("state.close", {"store": answer["store"]})
            raise AssertionError(
                f"gen-00000002 past CURRENT holds {name}: state.open succeeded, the docs say "
                f"it refuses with {code} (it may be a newer engine's checkpoint)"
            )
        after = (
            snapshot(directory / "gen-00000002") if (directory / "gen-00000002").exists() else {}
        )
        assert after == before, (
            f"gen-00000002 past CURRENT holds {name}: the refused open changed or removed it"
        )
