"""A read-only load takes no lock and changes nothing (docs/state.md § Single writer;
docs/protocol.md § Persisted-state ops).

docs/protocol.md's table of state ops says of ``state.load``: "the state as the directory
holds it (...); read-only, takes no lock". docs/state.md § Recovery rules says what only a
writer's open changes: "After the load, a writer removes only `staging-*` entries,
`CURRENT.tmp`, and the generations numbered past the one `CURRENT` names that are proven
invalid", and § Journals: "A writer's open repairs every journal this way (cuts its torn
tail) before it appends to it". So a load, beside a writer or with none, leaves each of
these as it found it, creates nothing (not ``LOCK``, not a missing directory) and appends
nothing: every entry's name, type, bytes and mode are the same before and after.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import Stores, load, put, scratch

RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
TORN = {"kind": "lineage", "note": "a line a crash cut short"}
JUNK = b"half a commit\n"

Entry = tuple[int, bytes | str | None]
"""An entry's whole ``st_mode`` (type and permission bits) and its bytes (a file), its
target (a symbolic link, read and not followed) or nothing (anything else)."""


def _snapshot(root: Path) -> dict[str, Entry]:
    """Every entry under *root* by its relative path, symbolic links not followed."""
    found: dict[str, Entry] = {}
    for top, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            path = Path(top) / name
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                found[path.relative_to(root).as_posix()] = (mode, os.readlink(path))
            elif stat.S_ISREG(mode):
                found[path.relative_to(root).as_posix()] = (mode, path.read_bytes())
            else:
                found[path.relative_to(root).as_posix()] = (mode, None)
    return found


def _changes(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    def kind(entry: Entry | None) -> str:
        return "absent" if entry is None else f"{stat.filemode(entry[0])}"

    return [
        f"{name}: {kind(before.get(name))} -> {kind(after.get(name))}"
        + (" (other bytes)" if kind(before.get(name)) == kind(after.get(name)) else "")
        for name in sorted(set(before) | set(after))
        if before.get(name) != after.get(name)
    ]


def _staging(directory: Path) -> None:
    """A crashed commit's staging directories, each with files in it, and a staging file
    (as STATE-LEFTOVER-001 plants them): a writer's open removes them."""
    for name in ("staging-2", "staging-00000002"):
        (directory / name).mkdir()
        (directory / name / "core.jsonl").write_bytes(JUNK)
        (directory / name / "manifest.json").write_bytes(JUNK)
    (directory / "staging-4").write_bytes(JUNK)


def _pointer_tmp(directory: Path) -> None:
    """A crashed pointer swap's ``CURRENT.tmp``: a writer's open removes it."""
    (directory / "CURRENT.tmp").write_bytes(b"gen-00000002\n")


def _invalid_past(directory: Path) -> None:
    """A generation past the one ``CURRENT`` names, proven invalid (its manifest is not
    JSON): a writer's open removes it."""
    (directory / "gen-00000002").mkdir()
    (directory / "gen-00000002" / "core.jsonl").write_bytes(JUNK)
    (directory / "gen-00000002" / "manifest.json").write_bytes(JUNK)


def _torn_journal(directory: Path) -> None:
    """A torn last line on ``lineage.journal``: a writer's open cuts it."""
    with open(directory / "lineage.journal", "ab") as handle:
        handle.write(oracle.frame(TORN)[:-5])


def _no_lock(directory: Path) -> None:
    """``LOCK`` unlinked (beside a writer too: the lock is the socket's name, not the
    file): a writer's open creates it."""
    (directory / "LOCK").unlink(missing_ok=True)


PLANTS: dict[str, Callable[[Path], None]] = {
    "a staging leftover with files in it": _staging,
    "CURRENT.tmp": _pointer_tmp,
    "an invalid generation past CURRENT": _invalid_past,
    "a journal with a torn tail": _torn_journal,
    "LOCK absent": _no_lock,
}
MISSING = "a directory that does not exist"
HELD, FREE = "a writer holds it", "no writer holds it"
CASES = [(plant, holder) for plant in PLANTS for holder in (HELD, FREE)] + [(MISSING, FREE)]


@requirement(
    "STATE-LOCK-101",
    "a read-only state.load takes no lock and changes nothing: it leaves the directory "
    "exactly as it found it (every entry's name, type, bytes and mode; links not followed), "
    "beside a writer and with none, where a writer's open would remove a staging leftover "
    "with files in it, CURRENT.tmp or an invalid generation past CURRENT, cut a journal's "
    "torn tail or create LOCK, and it does not create a missing directory; beside a writer "
    "it answers the writer's last checkpoint (never STATE_LOCKED), and the writer still "
    "holds the lock: a second writer's open is still STATE_LOCKED",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Single writer (read-only loads take no lock); docs/protocol.md § "
    'Persisted-state ops (state.load: "the state as the directory holds it (...); read-only, '
    'takes no lock"); docs/state.md § Recovery rules ("After the load, a writer removes only '
    "`staging-*` entries, `CURRENT.tmp`, and the generations numbered past the one `CURRENT` "
    'names that are proven invalid"); docs/state.md § Journals ("A writer\'s open repairs '
    'every journal this way (cuts its torn tail) before it appends to it")',
    strategy=lambda ctx: st.sampled_from(CASES),
    max_examples=len(CASES),
    cover=coverage.each("what a writer's open would change, held or not", CASES),
)
def load_takes_no_lock(engine: EngineClient, case: tuple[str, str]) -> None:
    plant, holder = case
    with scratch() as root, Stores(engine) as stores:
        directory = root / "state"
        done = None
        if plant != MISSING:
            store = stores.open(directory)["store"]
            engine.call("state.apply", {"store": store, "mutations": [put(RECORD)]})
            done = engine.call("state.checkpoint", {"store": store})
            if holder == FREE:
                stores.close(store)
            PLANTS[plant](directory)
        before = _snapshot(root)
        try:
            got = load(engine, directory)
        except EngineRefused as refusal:
            raise AssertionError(
                f"{plant}, {holder}: state.load answered {refusal.code}: read-only loads take "
                "no lock, and this directory loads"
            ) from None
        changed = _changes(before, _snapshot(root))
        assert not changed, (
            f"{plant}, {holder}: state.load changed the directory (state.load is read-only; "
            f"only a writer's open removes leftovers, cuts torn tails, creates LOCK): {changed}"
        )
        if done is not None:
            assert (got["generation"], got["identity"]) == (done["generation"], done["identity"]), (
                f"{plant}, {holder}: state.load loaded generation {got['generation']}, the last "
                f"checkpoint is {done['generation']}"
            )
        if holder == HELD:
            _still_locked(engine, directory)


def _still_locked(engine: EngineClient, directory: Path) -> None:
    """After the load, the writer still holds the lock: a second writer is STATE_LOCKED."""
    try:
        second = engine.call("state.open", {"dir": str(directory)})
    except EngineRefused as refusal:
        assert refusal.code == "STATE_LOCKED", (
            f"a second writer after a load answered {refusal.code}, not STATE_LOCKED"
        )
    else:
        engine.call("state.close", {"store": second["store"]})
        raise AssertionError("after a state.load, a second writer opened the held directory")
