"""The base of a delta generation is an entry a load needs like any other: STATE-DELTA-357,
a base whose directory, core or manifest is a symbolic link is refused with STATE_SYMLINK
(docs/state.md § Confinement), never followed and never taken for a missing base (a fall
back).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import DELTA, _planted_on_first
from conformance.state.driver import refusal_code, scratch

LINKED_BASE: dict[str, str] = {
    "the base's directory": "gen-00000001",
    "the base's core.jsonl": "gen-00000001/core.jsonl",
    "the base's manifest.json": "gen-00000001/manifest.json",
}
"""What of the base (generation 1) of the live delta generation 3 is made a symbolic link to
a byte-identical copy outside the state directory."""


def _image(directory: Path) -> dict[str, object]:
    """Every entry beneath *directory*: a link's target, a file's bytes, None for a
    directory (links are not followed)."""
    image: dict[str, object] = {}
    for path in sorted(directory.rglob("*")):
        name = path.relative_to(directory).as_posix()
        if path.is_symlink():
            image[name] = ("link", str(path.readlink()))
        else:
            image[name] = None if path.is_dir() else path.read_bytes()
    return image


def _linked(directory: Path, outside: Path, entry: str) -> None:
    """*entry* moved outside the state directory and a link to it left in its place."""
    source = directory / entry
    target = outside / source.name
    shutil.move(str(source), str(target))
    source.symlink_to(target)


@requirement(
    "STATE-DELTA-357",
    "a delta generation whose base's directory, core.jsonl or manifest.json is a symbolic "
    "link (to a byte-identical copy outside the state directory) is refused with "
    "STATE_SYMLINK by state.load and state.open: the link is neither followed nor taken for a "
    "missing base (a fall back to an older generation), and nothing is written inside or "
    "outside the state directory",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Confinement: an entry the store would read (a gen-* directory or a "
    "file in it) that is a symbolic link is refused with STATE_SYMLINK; § Delta generations: "
    "gen-<base> is read as a load reads any generation",
    strategy=lambda ctx: st.sampled_from(sorted(LINKED_BASE)),
    max_examples=len(LINKED_BASE),
    cover=coverage.each("linked", sorted(LINKED_BASE)),
)
def linked_base_refused(engine: EngineClient, name: str) -> None:
    with scratch() as root:
        directory, outside = root / "state", root / "outside"
        directory.mkdir()
        outside.mkdir()
        _planted_on_first(directory)
        _linked(directory, outside, LINKED_BASE[name])
        before, away = _image(directory), _image(outside)
        codes = {op: refusal_code(engine, op, directory) for op in ("state.load", "state.open")}
        after = _image(directory)
        wrong = {op: code or "ok" for op, code in codes.items() if code != "STATE_SYMLINK"}
        assert not wrong, f"{name} a symbolic link: not refused with STATE_SYMLINK: {wrong}"
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        assert changed in ([], ["LOCK"]), f"{name} a symbolic link: the refusal changed {changed}"
        assert _image(outside) == away, f"{name} a symbolic link: a file outside was written"
