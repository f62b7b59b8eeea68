"""Read-only loading of a state directory by the recovery rules of docs/state.md.

``load_state`` takes no lock and writes nothing. It loads the generation ``CURRENT``
names, falls back to the newest valid generation (saying why) when the pointer is
missing, empty, garbage, dangling or names an invalid generation, and refuses with
``STATE_CORRUPT`` when no generation is valid. Schema refusals are raised, never fallen
back from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reference.state.core import Key, decode_core, identity
from reference.state.errors import StateError
from reference.state.layout import CURRENT, gen_name, gen_number, generations
from reference.state.manifest import Generation, InvalidGeneration, check_generation
from reference.state.records import CURRENT_SCHEMA_VERSION


@dataclass(frozen=True)
class LoadedState:
    """The state a directory holds; ``recovered`` says why the loader fell back, or is None."""

    identity: str
    generation: int
    turn_count: int
    schema_version: int
    recovered: str | None
    records: dict[Key, dict]
    fresh: bool


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


def _pointer(path: Path) -> tuple[int | None, str | None]:
    """The generation ``CURRENT`` names, or None and why it names none."""
    try:
        data = (path / CURRENT).read_bytes()
    except FileNotFoundError:
        return None, "CURRENT missing"
    except OSError as exc:
        return None, f"CURRENT unreadable ({exc.__class__.__name__})"
    if not data:
        return None, "CURRENT empty"
    name = data[:-1].decode("ascii", errors="replace") if data.endswith(b"\n") else ""
    number = gen_number(name)
    return (number, None) if number is not None else (None, "CURRENT garbage")


def _named(path: Path, number: int) -> tuple[Generation | None, str | None]:
    directory = path / gen_name(number)
    if not directory.is_dir():
        return None, f"CURRENT dangling: {gen_name(number)} does not exist"
    try:
        return check_generation(directory), None
    except InvalidGeneration as exc:
        return None, f"CURRENT names invalid {gen_name(number)}: {exc}"


def _fall_back(path: Path, why: str, named: int | None) -> tuple[Generation, str]:
    problems = [why]
    for number in reversed(generations(path)):
        if number == named:
            continue
        try:
            found = check_generation(path / gen_name(number))
        except InvalidGeneration as exc:
            problems.append(f"{gen_name(number)}: {exc}")
            continue
        return found, f"{why}; fell back to {gen_name(number)}"
    raise StateError(
        "no valid generation: " + "; ".join(problems), field=CURRENT, code="STATE_CORRUPT"
    )


def _select(path: Path) -> tuple[Generation, str | None]:
    number, why = _pointer(path)
    if number is not None:
        found, why = _named(path, number)
        if found is not None:
            return found, None
    return _fall_back(path, why, number)


def _is_fresh(path: Path) -> bool:
    return not (path / CURRENT).exists() and not generations(path)


def load_state(path: Path) -> LoadedState:
    """Load the state in *path* (read-only, no lock) following the recovery rules."""
    path = Path(path)
    if _is_fresh(path):
        return fresh_state()
    found, recovered = _select(path)
    return LoadedState(
        identity=found.identity,
        generation=found.generation,
        turn_count=found.turn_count,
        schema_version=found.schema_version,
        recovered=recovered,
        records=decode_core(found.core, found.schema_version),
        fresh=False,
    )
