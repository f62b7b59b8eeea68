"""The commit protocol seen from the directory: which generation comes next, what prune
keeps, what a checkpoint clears first, and the state of an empty directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import delta_bytes, write_delta
from conformance.state import format as fmt
from conformance.state import oracle
from conformance.state.driver import Stores, load, scratch

STATE = ("state",)
MAX_GENERATION = 99_999_999
TURN: dict[str, Any] = {"op": "turn"}


def _generations(directory: Path) -> list[int]:
    return sorted(int(p.name[4:]) for p in directory.glob("gen-*"))


def _pointer(directory: Path) -> bytes:
    return (directory / "CURRENT").read_bytes()


def _checkpoint(engine: EngineClient, store: str) -> dict[str, Any]:
    engine.call("state.apply", {"store": store, "mutations": [TURN]})
    answer: dict[str, Any] = engine.call("state.checkpoint", {"store": store})
    return answer


def _refused_checkpoint(engine: EngineClient, store: str) -> EngineRefused | None:
    """The refusal of one more turn's checkpoint, or None when it is committed."""
    try:
        _checkpoint(engine, store)
    except EngineRefused as refusal:
        return refusal
    return None


def _debris(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("staging-")) + (
        ["CURRENT.tmp"] if (directory / "CURRENT.tmp").exists() else []
    )


def _plant_debris(directory: Path) -> None:
    """A staging directory with a file in it, a staging entry that is a file, a CURRENT.tmp."""
    (directory / "staging-41").mkdir()
    (directory / "staging-41" / "core.jsonl").write_bytes(b"debris\n")
    (directory / "staging-42").write_bytes(b"debris\n")
    (directory / "CURRENT.tmp").write_bytes(b"gen-00000042\n")


def _fresh_life(engine: EngineClient, directory: Path) -> None:
    """Checkpoints 1, 2, 3 of a fresh directory: after each, only N and L remain. Debris
    appears under the writer before the first (step 1 holds from a fresh store too, where
    there is no L) and again before the fourth."""
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        _plant_debris(directory)
        (directory / "staging-1").mkdir()
        for number in (1, 2, 3):
            done = _checkpoint(engine, store)
            assert done["generation"] == number, (
                f"checkpoint {number} of a fresh directory made generation {done['generation']}"
            )
            assert not _debris(directory), (
                f"checkpoint {number} of a fresh directory, debris planted under the writer "
                f"before the first: it left {_debris(directory)} (step 1: remove every "
                "`staging-*` entry and `CURRENT.tmp`)"
            )
            kept = [n for n in (number - 1, number) if n >= 1]
            kept = sorted({*kept, *fmt.bases_named(directory, kept)})
            assert _generations(directory) == kept, (
                f"after checkpoint {number}: generations {_generations(directory)}, "
                f"expected {kept} (the new one, the previous live one and the bases they name)"
            )
        _plant_debris(directory)
        done = _checkpoint(engine, store)
        assert done["generation"] == 4, f"a checkpoint after debris made {done['generation']}"
        assert not _debris(directory), f"a checkpoint left the debris {_debris(directory)}"


def _past_gap(engine: EngineClient, directory: Path) -> None:
    """CURRENT names 3, 1 is still there, and a valid 5 a crash left past the pointer."""
    oracle.write_generation(directory, 1, oracle.encode_core([]))
    oracle.write_generation(directory, 5, oracle.encode_core([]), point=False)
    oracle.write_generation(directory, 3, oracle.encode_core([]))
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        done = _checkpoint(engine, store)
        assert done["generation"] == 6, (
            f"live 3 with generations 1, 3 and 5 on disk: the checkpoint made "
            f"{done['generation']}, not one past every generation on disk (6)"
        )
        kept = sorted({3, 6, *fmt.bases_named(directory, [3, 6])})
        assert _generations(directory) == kept, (
            f"after that checkpoint: generations {_generations(directory)}, expected {kept}"
        )
        assert _pointer(directory) == b"gen-00000006\n", f"CURRENT is {_pointer(directory)!r}"


def _link_to_prune(engine: EngineClient, root: Path) -> None:
    """A generation to prune that is a symbolic link is refused, and its target kept."""
    directory, outside = root / "linked", root / "outside"
    oracle.write_generation(outside, 1, oracle.encode_core([]), point=False)
    oracle.write_generation(directory, 3, oracle.encode_core([]))
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        (directory / "gen-00000001").symlink_to(outside / "gen-00000001")
        refusal = _refused_checkpoint(engine, store)
    code = refusal.code if refusal else None
    assert code == "STATE_SYMLINK", f"a gen-* link to prune: the checkpoint answered {code or 'ok'}"
    assert (outside / "gen-00000001" / "core.jsonl").exists(), "the link's target was removed"


def _link_in_debris(engine: EngineClient, root: Path) -> None:
    """Debris beside a staging-* entry that is a link: STATE_SYMLINK, and nothing is removed."""
    directory, outside = root / "debris-link", root / "debris-target"
    outside.mkdir()
    oracle.write_generation(directory, 3, oracle.encode_core([]))
    with Stores(engine) as stores:
        store = stores.open(directory)["store"]
        _plant_debris(directory)
        (directory / "staging-9").symlink_to(outside)
        planted = _debris(directory)
        refusal = _refused_checkpoint(engine, store)
    code = refusal.code if refusal else None
    assert code == "STATE_SYMLINK", f"a staging-* link: the checkpoint answered {code or 'ok'}"
    assert _debris(directory) == planted, (
        f"a staging-* link was refused, yet debris was removed: {planted} became "
        f"{_debris(directory)}"
    )
    assert _pointer(directory) == b"gen-00000003\n", f"CURRENT is {_pointer(directory)!r}"


@requirement(
    "STATE-COMMIT-001",
    "a checkpoint numbers its generation one past the live one and every gen-* on disk, clears "
    "every staging-* entry and CURRENT.tmp first (also the first checkpoint of a fresh store, "
    "debris planted under its writer, a staging-1 among it), and leaves the new and the "
    "previous live generation only (a gen-* link to remove is STATE_SYMLINK; a staging-* "
    "link beside other debris is STATE_SYMLINK with nothing removed)",
    family="state",
    capabilities=STATE,
    seed='docs/state.md § Commit protocol (steps 1, 2 and 6: "1. remove every `staging-*` '
    'entry and `CURRENT.tmp`", from the live generation L, or from a fresh store); § '
    "Confinement",
    max_examples=1,
)
def commit_numbering(engine: EngineClient, _: object) -> None:
    with scratch() as root:
        _fresh_life(engine, root / "fresh")
        _past_gap(engine, root / "gap")
        _link_to_prune(engine, root)
        _link_in_debris(engine, root)


@requirement(
    "STATE-COMMIT-002",
    "generation 99999999 is the last: a checkpoint may make it, the next one is refused with "
    "STATE_IO naming the state directory, and CURRENT still names 99999999",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Directory layout (numbers run from 1 to 99999999; past it STATE_IO)",
    max_examples=1,
)
def last_generation(engine: EngineClient, _: object) -> None:
    with scratch() as directory, Stores(engine) as stores:
        oracle.write_generation(directory, MAX_GENERATION - 1, oracle.encode_core([]))
        store = stores.open(directory)["store"]
        done = _checkpoint(engine, store)
        assert done["generation"] == MAX_GENERATION, f"the last checkpoint made {done}"
        refusal = _refused_checkpoint(engine, store)
        assert refusal is not None, "a checkpoint past generation 99999999 was accepted"
        assert refusal.code == "STATE_IO", f"past generation 99999999: {refusal.code}"
        assert directory.name in refusal.message, (
            f"the STATE_IO message does not name the state directory: {refusal.message!r}"
        )
        assert _pointer(directory) == b"gen-99999999\n", f"CURRENT is {_pointer(directory)!r}"


@requirement(
    "STATE-FRESH-001",
    "an empty or missing directory loads as a fresh state: no records, turn count 0, the "
    "engine's current schema version (3, or 4 with state.life), the identity of an empty core; "
    "its first checkpoint is gen-00000001",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Recovery rules 1; § Identity and lineage; § Directory layout",
    max_examples=1,
)
def fresh_state(engine: EngineClient, _: object) -> None:
    empty = oracle.identity(oracle.schema_of(engine.capabilities()), b"")
    with scratch() as root, Stores(engine) as stores:
        (root / "empty").mkdir()
        for name in ("empty", "missing"):
            got = load(engine, root / name)
            seen = {k: got.get(k) for k in ("fresh", "records", "turn_count", "schema_version")}
            now = oracle.schema_of(engine.capabilities())
            assert seen == {"fresh": True, "records": 0, "turn_count": 0, "schema_version": now}, (
                f"state.load of an {name} directory: {seen}"
            )
            assert got["identity"] == empty, f"{name}: identity {got['identity']!r}, not {empty}"
        opened = stores.open(root / "empty")
        assert (opened["identity"], opened["schema_version"]) == (empty, now), (
            f"state.open of an empty directory: {opened}"
        )
        done = engine.call("state.checkpoint", {"store": opened["store"]})
        assert (done["generation"], done["identity"]) == (1, empty), f"first checkpoint {done}"
        assert _pointer(root / "empty") == b"gen-00000001\n", "CURRENT after the first checkpoint"


MANIFEST_DAMAGE = {
    "a manifest cut in half": lambda data: data[: len(data) // 2],
    "a manifest naming another generation": lambda data: data.replace(
        b'"generation":2', b'"generation":3'
    ),
    "an empty manifest": lambda data: b"",
    "no manifest": None,
}


def _fall_back_and_commit(engine: EngineClient, directory: Path, damage: str) -> list[str]:
    """Generation 2 (CURRENT) holds one more record than 1, its manifest damaged: two lives
    of checkpoints after the fall back. What went wrong, if anything."""
    core = oracle.encode_core([LIVE, ACKNOWLEDGED])
    oracle.write_generation(directory, 1, oracle.encode_core([LIVE]))
    oracle.write_generation(directory, 2, core)
    manifest = directory / "gen-00000002" / "manifest.json"
    spoil = MANIFEST_DAMAGE[damage]
    if spoil is None:
        manifest.unlink()
    else:
        manifest.write_bytes(spoil(manifest.read_bytes()))
    with Stores(engine) as stores:
        for life in range(2):
            opened = stores.open(directory)
            if life == 0 and not opened.get("recovered"):
                return [f"{damage}: the open did not fall back from generation 2"]
            for _ in range(3):
                _checkpoint(engine, opened["store"])
            stores.close(opened["store"])
    kept = directory / "gen-00000002" / "core.jsonl"
    if not kept.exists() or kept.read_bytes() != core:
        return [f"{damage}: gen-00000002/core.jsonl, holding an acknowledged record, was pruned"]
    left = _generations(directory)
    want = sorted({2, 7, 8, *fmt.bases_named(directory, [7, 8])})
    if left != want:
        return [f"{damage}: generations {left} remain, expected {want}"]
    return []


LIVE = {"kind": "recognizer", "key": "live", "pattern": "p", "weight": 1}
ACKNOWLEDGED = {"kind": "recognizer", "key": "acknowledged", "pattern": "p", "weight": 2}


@requirement(
    "STATE-PRUNE-001",
    "a generation the open fell back from (CURRENT named it, its manifest damaged or "
    "missing, its core present) is never removed by the checkpoints that follow, in that "
    "life or the next, while valid older generations are pruned as before; when it holds a "
    "delta.jsonl, neither is any generation below it that holds a core.jsonl",
    family="state",
    capabilities=STATE,
    seed="docs/state.md § Commit protocol (step 6 removes only what it can prove valid); "
    "issue: what the user was told was saved is never lost",
    max_examples=1,
)
def fallen_back_from_is_never_pruned(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        for number, damage in enumerate(MANIFEST_DAMAGE):
            directory = root / f"damaged{number}"
            directory.mkdir()
            problems += _fall_back_and_commit(engine, directory, damage)
        if "state.delta" in engine.capabilities():
            problems += _held_delta_keeps_its_bases(engine, root / "delta")
    assert not problems, cases.lines(problems)


def _held_delta_keeps_its_bases(engine: EngineClient, directory: Path) -> list[str]:
    """Generations 1 and 2 full, 3 (CURRENT) a delta on 1 holding one more record, its
    manifest cut in half: two lives of checkpoints after the fall back to 2 keep 3 and
    every generation below it holding a core (its base may be any of them)."""
    version = oracle.DELTA_SCHEMA_VERSION
    oracle.write_generation(directory, 1, oracle.encode_core([LIVE]), version, 1)
    oracle.write_generation(directory, 2, oracle.encode_core([LIVE]), version, 2)
    data = delta_bytes([LIVE], [LIVE, ACKNOWLEDGED])
    identity = oracle.identity(version, oracle.encode_core([LIVE, ACKNOWLEDGED]))
    write_delta(directory, 3, 1, data, identity, 3)
    (directory / "CURRENT").write_bytes(b"gen-00000003\n")
    manifest = directory / "gen-00000003" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes()[:20])
    with Stores(engine) as stores:
        for life in range(2):
            opened = stores.open(directory)
            if life == 0 and opened.get("generation") != 2:
                return [f"a damaged delta generation: the open loaded {opened}, not generation 2"]
            for _ in range(3):
                _checkpoint(engine, opened["store"])
            stores.close(opened["store"])
    missing = [n for n in (1, 2, 3) if n not in _generations(directory)]
    if missing or not (directory / "gen-00000003" / "delta.jsonl").exists():
        return [
            "a damaged delta generation held after the fall back: generations "
            f"{_generations(directory)} remain, where 3 and the full generations below it "
            "(its possible bases) must stay"
        ]
    return []
