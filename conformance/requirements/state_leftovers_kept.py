"""What a writer's open does not remove (docs/state.md § Recovery rules, leftover removal at
open): "nothing past a pointer that names no generation", and a generation past
``CURRENT`` whose checksums hold but whose records are malformed "is not proven invalid,
and stays".

An open that reads a missing, empty or garbage ``CURRENT`` as generation 0, or as the
generation it fell back to, would remove an invalid generation the crash left, whose core
may hold acknowledged records; one that calls a malformed generation invalid would
remove a newer engine's or an operator's data. Each case opens (every generation on disk
is then as it was) and closes (which may commit a new generation; step 6 keeps the
invalid one, whose core exists, and the malformed one is not removed by open either).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

ROW = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
LATER = {"kind": "recognizer", "key": "later", "pattern": "q", "weight": 2}
VALID = oracle.encode_core([ROW])
NEWER = oracle.encode_core([ROW, LATER])
OUT_OF_ORDER = oracle.encode_core([LATER]) + oracle.encode_core([ROW])
"""Two records in the wrong order: malformed (``(kind, key)`` order), checksummed right."""


def _torn_past(directory: Path, version: int, pointer: bytes | None, invalid: int = 2) -> None:
    """gen 1 valid; gen *invalid* proven invalid (its core no longer matches its manifest,
    as a crash may leave it); CURRENT as *pointer* (None: missing)."""
    oracle.write_generation(directory, 1, VALID, version, point=False)
    oracle.write_generation(directory, invalid, NEWER, version, point=False)
    (directory / f"gen-{invalid:08d}" / "core.jsonl").write_bytes(NEWER[:-7])
    if pointer is not None:
        (directory / "CURRENT").write_bytes(pointer)


def _malformed_past(directory: Path, version: int) -> None:
    """CURRENT names gen 1 (valid); gen 2 past it holds checksummed, malformed records."""
    oracle.write_generation(directory, 1, VALID, version)
    oracle.write_generation(directory, 2, OUT_OF_ORDER, version, point=False)


Plant = Callable[[Path, int], None]
CASES: dict[str, Plant] = {
    "CURRENT missing, an invalid generation past the valid one": lambda d, v: _torn_past(
        d, v, None
    ),
    "CURRENT empty, an invalid generation past the valid one": lambda d, v: _torn_past(d, v, b""),
    "CURRENT garbage (gen-2 unpadded), an invalid generation": lambda d, v: _torn_past(
        d, v, b"gen-2\n"
    ),
    "CURRENT naming gen 2, not on disk, an invalid gen 3 past it": lambda d, v: _torn_past(
        d, v, b"gen-00000002\n", invalid=3
    ),
    "CURRENT naming gen 9, not on disk, an invalid gen 2 below it": lambda d, v: _torn_past(
        d, v, b"gen-00000009\n"
    ),
    "a checksummed generation of malformed records past CURRENT": _malformed_past,
}
"""How each directory is planted, at the engine's current schema version (so that only a
fall back, never a migration, makes the open dirty)."""


def _generations(directory: Path) -> dict[str, dict[str, bytes]]:
    return {
        gen.name: {path.name: path.read_bytes() for path in sorted(gen.iterdir())}
        for gen in sorted(directory.glob("gen-*"))
    }


@requirement(
    "STATE-LEFTOVER-601",
    "a writer's open removes no generation past a CURRENT that names none (missing, empty, "
    "garbage, or naming a generation not on disk), not even one proven invalid, and keeps "
    "a generation past CURRENT whose "
    "checksums hold but whose records are malformed: after the open every generation is on "
    "disk as it was, and after a close too (beside the one it may commit)",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Recovery rules (load), leftover removal at open: nothing past a "
    "pointer that names no generation; a malformed generation is not proven invalid, and stays",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    max_examples=len(CASES),
    cover=coverage.each("directories", sorted(CASES)),
)
def open_keeps_what_it_may_not_remove(engine: EngineClient, name: str) -> None:
    with scratch() as directory, Stores(engine) as stores:
        CASES[name](directory, oracle.schema_of(engine.capabilities()))
        before = _generations(directory)
        opened = stores.open(directory)
        assert opened["generation"] == 1, f"{name}: the open loaded {opened}, not generation 1"
        _unchanged(name, "the open", before, _generations(directory))
        stores.close(opened["store"])
        after = _generations(directory)
        _unchanged(name, "the close", before, {g: after[g] for g in before if g in after})


def _unchanged(
    name: str, step: str, before: dict[str, dict[str, bytes]], after: dict[str, dict[str, bytes]]
) -> None:
    assert after == before, (
        f"{name}: after {step}, generations on disk went from {sorted(before)} to "
        f"{sorted(after)}" + ("" if sorted(after) != sorted(before) else " (their files changed)")
    )
