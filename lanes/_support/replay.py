"""Replaying file-system ops recorded by the reference's ``RecordingFileOps`` on a directory,
for the lanes that build crash states from a recorded commit."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from reference.state import FileOps

_PATH_OPS = {
    "mkdir": "mkdir",
    "fsync": "fsync_file",
    "fsync_dir": "fsync_dir",
    "remove_tree": "remove_tree",
    "unlink": "unlink",
}


def replay_op(op: dict[str, Any], root: Path, fs: FileOps) -> None:
    """Perform one recorded op on the directory *root* through *fs*."""
    kind = op["op"]
    if kind == "rename":
        fs.rename(root / op["src"], root / op["dst"])
    elif kind == "write":
        fs.write_file(root / op["path"], base64.b64decode(op["data"]), op["mode"])
    elif kind == "append":
        fs.append_file(root / op["path"], base64.b64decode(op["data"]))
    elif kind == "truncate":
        fs.truncate(root / op["path"], op["size"])
    else:
        getattr(fs, _PATH_OPS[kind])(root / op["path"])


def replay(ops: list[dict[str, Any]], root: Path, fs: FileOps | None = None) -> None:
    """Perform recorded *ops*, in order, on the directory *root*."""
    fs = fs or FileOps(Path(root))
    for op in ops:
        replay_op(op, Path(root), fs)
