"""Broken commit and load functions, each with the signature of the reference one it replaces.

``commit_in_place`` stands in for ``reference.state.commit.commit``; the loaders stand
in for ``reference.state.loader.load_state``. Each breaks one rule of docs/state.md.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

from reference.state.commit import CheckpointInfo
from reference.state.core import decode_core, identity
from reference.state.errors import StateError
from reference.state.fsops import FileOps
from reference.state.layout import CORE, CURRENT, DEFAULT_MODE, MANIFEST, gen_name, pointer_text
from reference.state.loader import LoadedState, fresh_state, load_state
from reference.state.manifest import build_manifest
from reference.state.records import CURRENT_SCHEMA_VERSION

SCHEMA_REFUSALS = ("STATE_SCHEMA_TOO_NEW", "STATE_SCHEMA_MALFORMED")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode) if path.exists() else DEFAULT_MODE


def _overwrite(fs: FileOps, path: Path, data: bytes) -> None:
    fs.write_file(path, data, _mode(path))
    fs.fsync_file(path)


def commit_in_place(
    path: Path, fs: FileOps, *, live: int, turn_count: int, core: bytes
) -> CheckpointInfo:
    """Overwrite the live generation's files where they lie: no staging, no new generation.

    A fresh directory gets ``gen-00000001`` and a pointer to it; later commits rewrite
    that directory's ``core.jsonl`` and then its ``manifest.json``.
    """
    generation = max(live, 1)
    directory = path / gen_name(generation)
    if not directory.is_dir():
        fs.mkdir(directory)
    _overwrite(fs, directory / CORE, core)
    _overwrite(
        fs,
        directory / MANIFEST,
        build_manifest(generation, CURRENT_SCHEMA_VERSION, turn_count, core),
    )
    if not (path / CURRENT).exists():
        _overwrite(fs, path / CURRENT, pointer_text(generation))
    fs.fsync_dir(path)
    return CheckpointInfo(generation, identity(CURRENT_SCHEMA_VERSION, core), turn_count)


def _as_current(path: Path) -> LoadedState:
    name = (path / CURRENT).read_text("ascii").strip()
    manifest = json.loads((path / name / MANIFEST).read_bytes())
    core = (path / name / CORE).read_bytes()
    return LoadedState(
        identity=identity(CURRENT_SCHEMA_VERSION, core),
        generation=manifest["generation"],
        turn_count=manifest["turn_count"],
        schema_version=CURRENT_SCHEMA_VERSION,
        recovered=None,
        records=decode_core(core, CURRENT_SCHEMA_VERSION),
        fresh=False,
    )


def load_any_version(path: Path) -> LoadedState:
    """``load_state``, except that a newer or malformed schema version loads as the current one."""
    try:
        return load_state(path)
    except StateError as refusal:
        if refusal.code not in SCHEMA_REFUSALS:
            raise
    return _as_current(Path(path))


def load_fresh_on_bad_pointer(path: Path) -> LoadedState:
    """``load_state``, except that a state it had to fall back for starts a fresh, empty life."""
    loaded = load_state(path)
    return fresh_state() if loaded.recovered else loaded
