"""Crash states of a recorded trace of file operations, after ALICE's persistence model.

A trace is a list of logical operations on paths relative to the state directory:
``mkdir``, ``write`` (create or truncate, then the data), ``append``, ``pwrite``,
``truncate``, ``rename``, ``unlink``, ``rmdir``, ``remove_tree``, ``fsync``,
``fsync_dir``, a failed ``fsync_failed`` or ``fsync_dir_failed``, and ``ack`` markers (an
answer that acknowledged a checkpoint). A crash after the first *k* operations keeps
every operation a later barrier before *k* made durable (data by the next fsync of its
file, an entry by the next fsync of its directory, when that fsync succeeded: after a
failed one the kernel may have dropped what it was to write, and no later fsync makes it
durable) and gives
each other one a fate: applied, lost, or applied partly (a write torn to a prefix, or its
file extended with zeros or garbage before the data lands; a rename that left neither
name, or both). Any subset of the unsynced operations may so persist, in any order
the barriers allow, several of them lost together.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

Image = dict[str, bytes | None]
"""A directory image: relative path -> file bytes, or None for a directory."""

DATA_OPS = ("write", "append", "pwrite", "truncate")
ENTRY_OPS = ("mkdir", "write", "rename", "unlink", "rmdir")
PARTIAL_DATA = ("torn", "torn1", "zeros", "garbage")
PAIR_LIMIT = 12
"""Floating operations beyond which pairs of losses are sampled, not enumerated."""


@dataclass(frozen=True)
class CrashState:
    """A crash after *prefix* operations, with the fate of each unsynced one not applied."""

    prefix: int
    fates: tuple[tuple[int, str], ...] = ()

    def describe(self, ops: list[dict[str, Any]]) -> str:
        parts = [f"crash after {self.prefix} ops"]
        for index, fate in self.fates:
            op = ops[index]
            where = op.get("path") or f"{op.get('src')} -> {op.get('dst')}"
            parts.append(f"op {index} ({op['op']} {where}) {fate}")
        return "; ".join(parts)


@functools.cache
def _parent(path: str) -> str:
    """The directory holding *path* (``.`` for the top), as :class:`PurePosixPath` reads it;
    cached, as a trace names few paths and its crash states ask for them many times."""
    parent = str(PurePosixPath(path).parent)
    return "." if parent in ("", ".") else parent


def _entry_dirs(op: dict[str, Any]) -> set[str]:
    if op["op"] == "rename":
        return {_parent(op["src"]), _parent(op["dst"])}
    return {_parent(op["path"])} if op["op"] in ENTRY_OPS else set()


def expand(image: Image, ops: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*ops* with each ``remove_tree`` replaced by the unlinks and rmdirs it stands for."""
    current, expanded = dict(image), []
    for op in ops:
        steps = _tree_steps(current, op["path"]) if op["op"] == "remove_tree" else [op]
        for step in steps:
            apply(current, step, "applied")
            expanded.append(step)
    return expanded


def _tree_steps(image: Image, root: str) -> list[dict[str, Any]]:
    inside = [p for p in image if p == root or p.startswith(root + "/")]
    deepest_first = sorted(inside, key=lambda p: (-p.count("/"), p))
    return [{"op": "rmdir" if image[p] is None else "unlink", "path": p} for p in deepest_first]


BARRIERS = ("fsync", "fsync_dir", "fsync_failed", "fsync_dir_failed", "ack")
"""Operations that change no file: syncs (made or failed) and acknowledgements."""


def _synced(later: list[dict[str, Any]], barrier: str, path: str) -> bool:
    """Whether the first *barrier* (``fsync`` or ``fsync_dir``) of *path* in *later*
    succeeded: a failed one leaves what it was to make durable floating for good."""
    for op in later:
        if op.get("path") == path and op["op"] in (barrier, barrier + "_failed"):
            return bool(op["op"] == barrier)
    return False


def fate_menu(ops: list[dict[str, Any]], index: int, prefix: int) -> tuple[str, ...]:
    """The fates operation *index* may meet in a crash after *prefix* operations."""
    op, later = ops[index], ops[index + 1 : prefix]
    kind = op["op"]
    if kind in BARRIERS:
        return ()
    entry_open = any(not _synced(later, "fsync_dir", d) for d in _entry_dirs(op))
    data_open = kind in DATA_OPS and not _synced(later, "fsync", op["path"])
    menu: list[str] = []
    if entry_open or (data_open and kind != "write"):
        menu.append("lost")
    if kind == "rename" and entry_open:
        menu += ["neither", "both"]
    if data_open and kind == "write":
        menu.append("empty")
    if data_open and kind in ("write", "append", "pwrite") and _size(op) > 0:
        menu += list(PARTIAL_DATA)
    return tuple(menu)


def _size(op: dict[str, Any]) -> int:
    return len(base64.b64decode(op.get("data", "")))


def _partial(data: bytes, fate: str) -> bytes:
    if fate == "torn":
        return data[: len(data) // 2]
    if fate == "torn1":
        return data[:1]
    if fate == "zeros":
        return bytes(len(data))
    if fate == "garbage":
        return (hashlib.sha256(data).digest() * (len(data) // 32 + 1))[: len(data)]
    return b"" if fate == "empty" else data


def apply(image: Image, op: dict[str, Any], fate: str) -> None:
    """Apply *op* to *image* in place as *fate* decides (a lost op changes nothing)."""
    kind = op["op"]
    if fate == "lost" or kind in BARRIERS:
        return
    if kind == "rename":
        _rename(image, op["src"], op["dst"], fate)
        return
    path = op["path"]
    if _parent(path) != "." and image.get(_parent(path), b"") is not None:
        return
    if kind == "mkdir":
        image.setdefault(path, None)
    elif kind in ("unlink", "rmdir"):
        for inside in [p for p in image if p == path or p.startswith(path + "/")]:
            del image[inside]
    elif kind == "truncate" and isinstance(content := image.get(path), bytes):
        image[path] = content[: op["size"]].ljust(op["size"], b"\0")
    elif kind in ("write", "append", "pwrite"):
        _write(image, op, fate)


def _write(image: Image, op: dict[str, Any], fate: str) -> None:
    path, data = op["path"], _partial(base64.b64decode(op.get("data", "")), fate)
    if op["op"] == "write":
        image[path] = data
        return
    old = image.get(path)
    if old is None and path in image:
        return
    old = old or b""
    offset = len(old) if op["op"] == "append" else op["offset"]
    image[path] = old[:offset].ljust(offset, b"\0") + data + old[offset + len(data) :]


def _rename(image: Image, src: str, dst: str, fate: str) -> None:
    moved = {p: v for p, v in image.items() if p == src or p.startswith(src + "/")}
    if not moved or image.get(_parent(dst), b"") is not None and _parent(dst) != ".":
        return
    for path in [p for p in image if p == dst or p.startswith(dst + "/")]:
        del image[path]
    if fate != "both":
        for path in moved:
            del image[path]
    if fate != "neither":
        image.update({dst + p[len(src) :]: v for p, v in moved.items()})


def prefix_images(image: Image, ops: list[dict[str, Any]]) -> list[Image]:
    """The image after each prefix of *ops*, every operation applied: entry k after k ops."""
    images, current = [dict(image)], dict(image)
    for op in ops:
        apply(current, op, "applied")
        images.append(dict(current))
    return images


def build(prefixes: list[Image], ops: list[dict[str, Any]], state: CrashState) -> Image:
    """The directory image *state* leaves, given the images of *prefix_images*."""
    fates = dict(state.fates)
    first = min(fates, default=state.prefix)
    result = dict(prefixes[first])
    for index in range(first, state.prefix):
        apply(result, ops[index], fates.get(index, "applied"))
    return result


def settled_prefixes(ops: list[dict[str, Any]]) -> list[int]:
    """For each crash point 0..len(ops), the shortest prefix with the same operations that
    change files: trailing barriers dropped. A crash state after *k* operations leaves the
    same image as the state with the same fates after ``settled_prefixes(ops)[k]``."""
    settled = [0]
    for index, op in enumerate(ops, 1):
        settled.append(settled[-1] if op["op"] in BARRIERS else index)
    return settled


def image_digest(image: Image) -> str:
    """A digest naming a directory image, equal for equal images."""
    hasher = hashlib.sha256()
    for path in sorted(image):
        value = image[path]
        hasher.update(path.encode() + (b"/" if value is None else b"=" + value) + b"\0")
    return hasher.hexdigest()


def crash_states(ops: list[dict[str, Any]], *, seed: int, samples: int) -> Iterator[CrashState]:
    """Crash states at every point of *ops*: single faults and pairs of losses enumerated,
    all unsynced ops lost together, and *samples* random fate assignments per point."""
    for prefix in range(len(ops) + 1):
        menus = {i: m for i in range(prefix) if (m := fate_menu(ops, i, prefix))}
        yield CrashState(prefix)
        for index, menu in menus.items():
            for fate in menu:
                yield CrashState(prefix, ((index, fate),))
        losable = [i for i, m in menus.items() if "lost" in m]
        if len(losable) > 1:
            yield CrashState(prefix, tuple((i, "lost") for i in losable))
        if len(losable) <= PAIR_LIMIT:
            for pair in itertools.combinations(losable, 2):
                yield CrashState(prefix, tuple((i, "lost") for i in pair))
        chooser = random.Random(f"{seed}:{prefix}")
        for _ in range(samples if menus else 0):
            drawn = ((i, chooser.choice(("applied", *m))) for i, m in menus.items())
            yield CrashState(prefix, tuple((i, f) for i, f in drawn if f != "applied"))


def materialise(image: Image, directory: Path) -> None:
    """Write *image* into the empty *directory*."""
    for path in sorted(image, key=lambda p: (p.count("/"), p)):
        target, content = directory / path, image[path]
        if content is None:
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)


def snapshot(directory: Path) -> Image:
    """The directory image of *directory* (symlinks are not followed)."""
    image: Image = {}
    for path in sorted(Path(directory).rglob("*")):
        rel = path.relative_to(directory).as_posix()
        image[rel] = None if path.is_dir() and not path.is_symlink() else path.read_bytes()
    return image
