"""Numbers an engine continues, lived past one digit: generation 10 is newer than 9, and
boot 11 follows boot 10 (docs/state.md § Directory layout, § Identity and lineage).

A port that sorts numbers as text (JavaScript's default ``sort``, a map keyed by the
number's string, a ``max`` over strings) agrees with the docs on every directory of fewer
than ten generations or boots, and so on every directory a short test writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.requirements.type_matrix import RECORDS
from conformance.state import oracle
from conformance.state.driver import Stores, load, put, scratch

GENERATIONS = (2, 9, 10)
"""The valid generations written, oldest first; 10 is the newest, 9 the newest as text."""


def _boot_event(boot: int) -> dict[str, Any]:
    """A recorded fresh or resume boot event at the base schema version."""
    return {
        "boot": boot,
        "from_version": None if boot == 1 else oracle.BASE_SCHEMA_VERSION,
        "identity": "0" * 64,
        "parent": None if boot == 1 else "0" * 64,
        "reason": "fresh" if boot == 1 else "resume",
        "recovered": None,
        "to_version": oracle.BASE_SCHEMA_VERSION,
    }


def _generations(directory: Path, pointed: int) -> None:
    """Valid generations :data:`GENERATIONS`; ``CURRENT`` names *pointed*, which is 10 or a
    generation 11 without a manifest (so proven invalid)."""
    for number in GENERATIONS:
        oracle.write_generation(directory, number, oracle.encode_core([]), point=False)
    if pointed == 11:
        oracle.write_generation(directory, 11, oracle.encode_core([]))
        (directory / "gen-00000011" / "manifest.json").unlink()
    else:
        (directory / "CURRENT").write_bytes(b"gen-%08d\n" % pointed)


def _fallen_back(engine: EngineClient, directory: Path) -> list[str]:
    _generations(directory, 11)
    got = load(engine, directory).get("generation")
    if got == 10:
        return []
    return [f"CURRENT names an invalid gen 11 beside valid 2, 9 and 10: loaded {got!r}, not 10"]


def _next_generation(engine: EngineClient, directory: Path) -> list[str]:
    _generations(directory, 10)
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.apply", {"store": store, "mutations": [put(RECORDS["recognizer"])]})
        got = engine.call("state.checkpoint", {"store": store}).get("generation")
    pointer = (directory / "CURRENT").read_bytes()
    if (got, pointer) == (11, b"gen-00000011\n"):
        return []
    return [f"a checkpoint after gen 10 wrote generation {got!r}, CURRENT {pointer!r}, not 11"]


def _next_boot(engine: EngineClient, directory: Path) -> list[str]:
    oracle.write_generation(directory, 1, oracle.encode_core([]))
    events = b"".join(oracle.frame(_boot_event(boot)) for boot in range(1, 11))
    (directory / "lineage.journal").write_bytes(events)
    with Stores(engine) as stores:
        got = stores.open(directory).get("boot")
    if got == 11:
        return []
    return [f"after boots 1 to 10, the open was boot {got!r}, not 11"]


@requirement(
    "STATE-COUNT-001",
    "generation and boot numbers past one digit are numbers, not text: a load falls back "
    "from an invalid generation 11 to 10 (not 9), a checkpoint after generation 10 writes "
    "11, and the open after boots 1 to 10 is boot 11",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Directory layout (the newest valid generation); § Commit protocol "
    "(N+1); § Identity and lineage (boot: one past the highest recorded)",
    max_examples=1,
)
def counters_past_one_digit(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        for number, check in enumerate((_fallen_back, _next_generation, _next_boot)):
            problems += check(engine, root / str(number))
    assert not problems, cases.lines(problems, f"{len(problems)} number(s) read as text:")
