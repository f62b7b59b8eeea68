"""Crash states of a recorded checkpoint, in the manner of ALICE and CrashMonkey.

An engine that exposes its file operations (``state.trace_checkpoint``) gives the
suite the ordered list of what one checkpoint did. From the directory image before
the checkpoint, the suite builds every state a crash could leave:

* every prefix of the operations;
* for each prefix, the states that lose operations not yet made durable by a later
  fsync (a file's data by ``fsync`` of the file, a directory entry by ``fsync_dir`` of
  its directory): each such operation lost alone, and all of them lost together;
  a new file whose entry is durable but whose data is not is also tried empty;
* torn writes of the last operation of a prefix (half of its data, one byte).
"""

from __future__ import annotations

import base64
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ENTRY_OPS = ("mkdir", "write", "append", "rename", "unlink", "remove_tree")
DATA_OPS = ("write", "append", "truncate")


@dataclass(frozen=True)
class CrashState:
    """One state to materialise: a prefix length, dropped ops, and an optional tear."""

    prefix: int
    dropped: frozenset[int] = frozenset()
    emptied: frozenset[int] = frozenset()
    torn: int | None = None
    complete: bool = False

    def describe(self) -> str:
        parts = [f"crash after {self.prefix} ops"]
        if self.dropped:
            parts.append(f"lost ops {sorted(self.dropped)}")
        if self.emptied:
            parts.append(f"data of ops {sorted(self.emptied)} lost")
        if self.torn is not None:
            parts.append(f"last write torn to {self.torn} bytes")
        return ", ".join(parts)


def _parent(path: str) -> str:
    parent = str(PurePosixPath(path).parent)
    return "." if parent in ("", ".") else parent


def _entry_dirs(op: dict) -> set[str]:
    if op["op"] == "rename":
        return {_parent(op["src"]), _parent(op["dst"])}
    if op["op"] in ENTRY_OPS:
        return {_parent(op["path"])}
    return set()


def durability(ops: list[dict], prefix: int) -> tuple[set[int], set[int]]:
    """Ops in the prefix whose entry, and whose data, no later fsync has made durable."""
    entry_open: set[int] = set()
    data_open: set[int] = set()
    for i in range(prefix):
        op = ops[i]
        later = ops[i + 1 : prefix]
        synced_dirs = {o["path"] for o in later if o["op"] == "fsync_dir"}
        if _entry_dirs(op) - synced_dirs:
            entry_open.add(i)
        if op["op"] in DATA_OPS and not any(
            o["op"] == "fsync" and o["path"] == op["path"] for o in later
        ):
            data_open.add(i)
    return entry_open, data_open


def crash_states(ops: list[dict]) -> Iterator[CrashState]:
    """Every crash state of the recorded operations, complete ones flagged."""
    for prefix in range(len(ops) + 1):
        complete = prefix == len(ops)
        entry_open, data_open = durability(ops, prefix)
        yield CrashState(prefix, complete=complete)
        for i in sorted(entry_open | data_open):
            yield CrashState(prefix, dropped=frozenset({i}), complete=complete)
        for i in sorted(data_open - entry_open):
            yield CrashState(prefix, emptied=frozenset({i}), complete=complete)
        if len(entry_open | data_open) > 1:
            yield CrashState(prefix, dropped=frozenset(entry_open | data_open), complete=complete)
        last = ops[prefix - 1] if prefix else None
        if last is not None and last["op"] in ("write", "append"):
            size = len(base64.b64decode(last["data"]))
            for torn in sorted({size // 2, 1} - {size}):
                yield CrashState(prefix, torn=torn, complete=False)


def snapshot(directory: Path) -> dict[str, bytes | None]:
    """The directory image: relative path -> bytes (None for a directory)."""
    image: dict[str, bytes | None] = {}
    for root, dirs, files in os.walk(directory):
        base = Path(root)
        for name in dirs:
            image[(base / name).relative_to(directory).as_posix()] = None
        for name in files:
            path = base / name
            image[path.relative_to(directory).as_posix()] = path.read_bytes()
    return image


def restore(image: dict[str, bytes | None], directory: Path) -> None:
    """Write a directory image into an empty *directory*."""
    for rel in sorted(image, key=lambda p: p.count("/")):
        target = directory / rel
        if image[rel] is None:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(image[rel])


def _apply(op: dict, root: Path, data_override: bytes | None) -> None:
    kind = op["op"]
    if kind in ("fsync", "fsync_dir"):
        return
    if kind == "rename":
        src, dst = root / op["src"], root / op["dst"]
        if src.exists() and dst.parent.is_dir():
            if dst.is_dir():
                shutil.rmtree(dst)
            os.replace(src, dst)
        return
    path = root / op["path"]
    if not path.parent.is_dir():
        return
    if kind == "mkdir":
        path.mkdir(exist_ok=True)
    elif kind == "write":
        data = base64.b64decode(op["data"]) if data_override is None else data_override
        path.write_bytes(data)
        os.chmod(path, op.get("mode", 0o644))
    elif kind == "append":
        data = base64.b64decode(op["data"]) if data_override is None else data_override
        with open(path, "ab") as handle:
            handle.write(data)
    elif kind == "truncate" and path.exists():
        os.truncate(path, op["size"])
    elif kind == "unlink" and path.exists():
        path.unlink()
    elif kind == "remove_tree" and path.exists():
        shutil.rmtree(path)


def materialise(image: dict, ops: list[dict], state: CrashState, directory: Path) -> None:
    """Build *state* in the empty *directory* from the pre-checkpoint image."""
    restore(image, directory)
    for i in range(state.prefix):
        if i in state.dropped:
            continue
        override = None
        if i in state.emptied:
            override = b""
        elif state.torn is not None and i == state.prefix - 1:
            override = base64.b64decode(ops[i]["data"])[: state.torn]
        _apply(ops[i], directory, override)
