"""Each way a generation past ``CURRENT`` is proven invalid, alone, makes it a leftover a
writer's open removes (docs/state.md § Recovery rules (load): "After the load, a writer
removes only `staging-*` entries, `CURRENT.tmp`, and the generations numbered past the one
`CURRENT` names that are proven invalid"; rule 4: "a listed file is missing, the manifest is
not JSON or lacks its fields, ..., a checksum or SHA-256 does not match, or the manifest's
generation number is not its directory's, its identity does not match its core").

``CURRENT`` names gen 1 (valid); gen 3 past it is valid and stays; gen 2 between them is
made invalid in one way only, its other file whole: its ``core.jsonl`` missing, its
``manifest.json`` missing, its core cut short (not the SHA-256 listed), its manifest cut
short (not JSON), its manifest's checksum not matching, its identity another core's
(resealed), its generation number not its directory's (resealed). After the open gen 2 is
gone and gens 1 and 3 are as they were. A port whose open takes only a generation without a
parsable manifest for a crashed commit's leftover (or only one without a core) keeps the
others, and fails.

STATE-LEFTOVER-491.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import reseal
from conformance.state import oracle
from conformance.state.driver import Stores, scratch

ROW = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
PAST = {"kind": "recognizer", "key": "past", "pattern": "q", "weight": 2}
LATER = {"kind": "recognizer", "key": "later", "pattern": "r", "weight": 3}


def _cut(name: str) -> Callable[[Path], None]:
    def spoil(gen: Path) -> None:
        path = gen / name
        path.write_bytes(path.read_bytes()[:-7])

    return spoil


def _unlinked(name: str) -> Callable[[Path], None]:
    return lambda gen: (gen / name).unlink()


def _checksum_off(gen: Path) -> None:
    path = gen / "manifest.json"
    body = json.loads(path.read_bytes())
    body["turn_count"] += 5
    path.write_bytes(canonical_json(body).encode("utf-8") + b"\n")


def _resealed(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    return lambda gen: reseal(gen, change)


def _other_identity(manifest: dict[str, Any]) -> None:
    manifest["identity"] = oracle.identity(
        manifest["schema_version"], oracle.encode_core([ROW, LATER])
    )


DAMAGE: dict[str, Callable[[Path], None]] = {
    "its core.jsonl missing, its manifest.json whole": _unlinked("core.jsonl"),
    "its manifest.json missing, its core.jsonl whole": _unlinked("manifest.json"),
    "its core.jsonl cut short (not the SHA-256 listed), its manifest whole": _cut("core.jsonl"),
    "its manifest.json cut short (not JSON), its core whole": _cut("manifest.json"),
    "its manifest's checksum not matching (a member changed), its core whole": _checksum_off,
    "its manifest's identity another core's (resealed), its core whole": _resealed(_other_identity),
    "its manifest's generation number 3, not its directory's (resealed)": _resealed(
        lambda manifest: manifest.update(generation=3)
    ),
}
"""Each way gen 2, past ``CURRENT``, is made proven invalid: one thing alone."""


def _files(gen: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(gen.iterdir())}


@requirement(
    "STATE-LEFTOVER-491",
    "a generation past CURRENT proven invalid in one way alone (its core.jsonl missing, its "
    "manifest.json missing, its core cut short, its manifest not JSON, its checksum not "
    "matching, its identity another core's, its generation number not its directory's, the "
    "other file whole) is removed by a writer's open, while CURRENT's generation and a valid "
    "one past it stay as they were",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Recovery rules (load): leftover removal at open removes the "
    "generations numbered past the one CURRENT names that are proven invalid (rule 4: a "
    "listed file missing, a manifest not JSON, a checksum, SHA-256, generation number or "
    "identity that does not match)",
    strategy=lambda ctx: st.sampled_from(sorted(DAMAGE)),
    max_examples=len(DAMAGE),
    cover=coverage.each("damage", sorted(DAMAGE)),
)
def each_invalid_past_removed(engine: EngineClient, name: str) -> None:
    version = oracle.schema_of(engine.capabilities())
    with scratch() as directory, Stores(engine) as stores:
        oracle.write_generation(directory, 1, oracle.encode_core([ROW]), version, 1)
        oracle.write_generation(
            directory, 2, oracle.encode_core([ROW, PAST]), version, 2, point=False
        )
        oracle.write_generation(
            directory, 3, oracle.encode_core([ROW, PAST, LATER]), version, 3, point=False
        )
        DAMAGE[name](directory / "gen-00000002")
        kept = {gen: _files(directory / gen) for gen in ("gen-00000001", "gen-00000003")}
        opened = stores.open(directory)
        left = sorted(p.name for p in directory.glob("gen-*"))
        now = {gen: _files(directory / gen) for gen in kept if gen in left}
        stores.close(opened["store"])
        assert opened.get("generation") == 1 and not opened.get("recovered"), (
            f"gen-00000002 past CURRENT with {name}: the open answered {opened}, not "
            f"generation 1 as CURRENT names it"
        )
        assert "gen-00000002" not in left, (
            f"gen-00000002 past CURRENT with {name} is proven invalid, yet after the open "
            f"generations {left} remain: an open removes every generation past CURRENT "
            f"proven invalid"
        )
        assert now == kept, (
            f"gen-00000002 past CURRENT with {name}: after the open {left} remain (their "
            f"files changed, or one is gone); CURRENT's generation and a valid one past it "
            f"stay as they were"
        )
