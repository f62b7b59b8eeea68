"""Read-only loading of a state directory by the recovery rules of docs/state.md.

``load_state`` takes no lock and writes nothing. It loads the generation ``CURRENT``
names, and falls back to the newest valid generation (saying why) only when the pointer
is missing, empty, garbage or dangling, or names a generation proven invalid. A pointer
or generation that exists but cannot be read is ``STATE_UNREADABLE`` and a symbolic link
is ``STATE_SYMLINK``: refusals, never reasons to fall back. With no valid generation the
load is ``STATE_CORRUPT``; schema refusals are raised, never fallen back from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reference.state.core import Key, decode_core, identity
from reference.state.errors import StateError, symlink_refusal, wrong_type
from reference.state.fsops import FileOps
from reference.state.layout import CURRENT, gen_name, gen_number, generations
from reference.state.manifest import Generation, InvalidGeneration, check_generation
from reference.state.records import CURRENT_SCHEMA_VERSION, Record


@dataclass(frozen=True)
class LoadedState:
    """The state a directory holds; ``recovered`` says why the loader fell back, or is None.

    ``pointer`` is the generation ``CURRENT`` names (None when it names none): leftover
    removal deletes only what is newer than it.
    """

    identity: str
    generation: int
    turn_count: int
    schema_version: int
    recovered: str | None
    records: dict[Key, Record]
    fresh: bool
    pointer: int | None = None
    base: int | None = None
    """The base generation of the generation loaded, when it is a delta."""


def fresh_state() -> LoadedState:
    """The state of an empty directory: no records, generation 0, current schema."""
    return LoadedState(
        identity=identity(CURRENT_SCHEMA_VERSION, b""),
        generation=0,
        turn_count=0,
        schema_version=CURRENT_SCHEMA_VERSION,
        recovered=None,
        records={},
        fresh=True,
    )


@dataclass(frozen=True)
class Pointer:
    """What ``CURRENT`` holds: the generation it names, or None and why it names none."""

    number: int | None
    why: str | None
    present: bool


def read_pointer(fs: FileOps) -> Pointer:
    """Read ``CURRENT`` (never through a link); an unreadable pointer is a refusal."""
    data = fs.read_file(fs.root / CURRENT)
    if data is None:
        return Pointer(None, "CURRENT missing", present=False)
    if not data:
        return Pointer(None, "CURRENT empty", present=True)
    name = data[:-1].decode("ascii", errors="replace") if data.endswith(b"\n") else ""
    number = gen_number(name)
    return Pointer(number, None if number is not None else "CURRENT garbage", present=True)


def read_generation(fs: FileOps, number: int) -> Generation | None:
    """Generation *number*, or None when its directory does not exist.

    Raises InvalidGeneration when it is proven invalid, StateError when it cannot be read.
    """
    directory = fs.root / gen_name(number)
    kind = fs.entry_kind(directory, reading=True)
    if kind is None:
        return None
    if kind == "link":
        raise symlink_refusal(directory)
    if kind != "dir":
        raise wrong_type(directory, "directory")
    return check_generation(directory, fs)


def _named(fs: FileOps, number: int) -> tuple[Generation | None, str | None]:
    try:
        found = read_generation(fs, number)
    except InvalidGeneration as exc:
        return None, f"CURRENT names invalid {gen_name(number)}: {exc}"
    if found is None:
        return None, f"CURRENT dangling: {gen_name(number)} does not exist"
    return found, None


def _fall_back(
    fs: FileOps, numbers: list[int], why: str, named: int | None
) -> tuple[Generation, str]:
    problems = [why]
    for number in reversed(numbers):
        if number == named:
            continue
        try:
            found = read_generation(fs, number)
        except InvalidGeneration as exc:
            problems.append(f"{gen_name(number)}: {exc}")
            continue
        if found is not None:
            return found, f"{why}; fell back to {gen_name(number)}"
    raise StateError(
        "no valid generation: " + "; ".join(problems), field=CURRENT, code="STATE_CORRUPT"
    )


def load_state(path: Path, fs: FileOps | None = None) -> LoadedState:
    """Load the state in *path* (read-only, no lock) following the recovery rules."""
    fs = fs or FileOps(Path(path))
    numbers = generations(fs.list_dir(fs.root, reading=True))
    pointer = read_pointer(fs)
    if not pointer.present and not numbers:
        return fresh_state()
    found, why = (None, pointer.why)
    if pointer.number is not None:
        found, why = _named(fs, pointer.number)
    recovered = None
    if found is None:
        why = why or "CURRENT names no generation"
        found, recovered = _fall_back(fs, numbers, why, pointer.number)
    return LoadedState(
        identity=found.identity,
        generation=found.generation,
        turn_count=found.turn_count,
        schema_version=found.schema_version,
        recovered=recovered,
        records=(
            decode_core(found.core, found.schema_version)
            if found.records is None
            else found.records
        ),
        fresh=False,
        pointer=pointer.number,
        base=found.base,
    )
