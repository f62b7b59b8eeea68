"""Broken state engines that read a field or a name from disk the way a port misreads it
(STATE-DISK-801..803, STATE-NAMES-804..806): a boolean or any integer counted as a boot,
Unicode digits read as a generation's, an integer past the canonical range kept, a name
matched after case folding. The first line of each docstring states the defect."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

from reference.serve import ProtocolHandler
from reference.state import (
    FileOps,
    LoadedState,
    StateStore,
    layout,
    lineage,
    loader,
    manifest,
    records,
)
from reference.state import commit as commit_module
from reference.state.lineage import BootInfo
from reference.state.loader import Pointer

Patches = Callable[[], contextlib.AbstractContextManager[Any]]


def _patched_store(patches: Patches) -> type[StateStore]:
    """A store whose load, boot numbering, commit and leftover removal run under *patches*."""

    class PatchedStore(StateStore):
        @classmethod
        def load(cls, fs: FileOps) -> LoadedState:
            with patches():
                return super().load(fs)

        @classmethod
        def clear_leftovers(cls, fs: FileOps, loaded: LoadedState) -> None:
            with patches():
                super().clear_leftovers(fs, loaded)

        @classmethod
        def boot_event(cls, loaded: LoadedState, events: tuple[dict[str, Any], ...]) -> BootInfo:
            with patches():
                return super().boot_event(loaded, events)

        def apply(self, mutations: list[dict[str, Any]]) -> None:
            with patches():
                super().apply(mutations)

        def clear_debris(self) -> None:
            with patches():
                super().clear_debris()

        def next_generation(self) -> int:
            with patches():
                return super().next_generation()

        def prune(self, generation: int) -> None:
            with patches():
                super().prune(generation)

    return PatchedStore


def _bool_boot(events: tuple[dict[str, Any], ...]) -> int:
    numbers = [e["boot"] for e in events if isinstance(e.get("boot"), int) and e["boot"] >= 1]
    return max(numbers, default=0) + 1


def _any_int_boot(events: tuple[dict[str, Any], ...]) -> int:
    numbers = [e["boot"] for e in events if type(e.get("boot")) is int]
    return max(numbers, default=0) + 1


_UNICODE_GENERATION = re.compile(r"gen-(\d{8})")


def _unicode_gen_number(name: str) -> int | None:
    match = _UNICODE_GENERATION.fullmatch(name)
    return (int(match.group(1)) or None) if match else None


def _zero_gen_number(name: str) -> int | None:
    match = re.fullmatch(r"gen-([0-9]{8})", name)
    return int(match.group(1)) if match else None


def _gen_number_patches(function: Callable[[str], int | None]) -> Patches:
    @contextlib.contextmanager
    def patches() -> Iterator[None]:
        with (
            mock.patch.object(layout, "gen_number", function),
            mock.patch.object(loader, "gen_number", function),
            mock.patch.object(manifest, "gen_number", function),
        ):
            yield

    return patches


def _isdigit_pointer(fs: FileOps) -> Pointer:
    data = fs.read_file(fs.root / layout.CURRENT)
    if data is None:
        return Pointer(None, "CURRENT missing", present=False)
    name = data.decode("utf-8", errors="replace").strip()
    if name.lower().startswith("gen-") and name[4:].isdecimal() and int(name[4:]) >= 1:
        return Pointer(int(name[4:]), None, present=True)
    return Pointer(None, "CURRENT garbage", present=True)


def _short_number_pointer(fs: FileOps) -> Pointer:
    data = fs.read_file(fs.root / layout.CURRENT)
    if data is None:
        return Pointer(None, "CURRENT missing", present=False)
    found = re.fullmatch(rb"gen-([0-9]{1,8})\n", data)
    if found is not None and int(found[1]) >= 1:
        return Pointer(int(found[1]), None, present=True)
    return Pointer(None, "CURRENT garbage", present=True)


def _unbounded_int(value: object) -> bool:
    return type(value) is int


def _unbounded_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _int_to_2_53(value: object) -> bool:
    return type(value) is int and abs(value) <= 2**53


def _count_to_2_53(value: object) -> bool:
    return type(value) is int and 0 <= value <= 2**53


def _record_integers(
    integer: Callable[[object], bool], count: Callable[[object], bool]
) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """Patches that read every int field of a record with *integer* and every count with
    *count*, in place of the canonical range."""

    @contextlib.contextmanager
    def patched() -> Iterator[None]:
        counts = {"count": count, "first_turn": count, "last_turn": count}
        with (
            mock.patch.dict(records.REQUIRED["candidate"], {"score": integer}),
            mock.patch.dict(records.REQUIRED["recognizer"], {"weight": integer}),
            mock.patch.dict(records.REQUIRED["life"], {"turns": count}),
            mock.patch.dict(records.REQUIRED["vault"], counts),
            mock.patch.dict(records.OPTIONAL_CHECKS, {"evidence": integer}),
        ):
            yield

    return patched


def _folded_debris(name: str) -> bool:
    return name.casefold().startswith("staging-") or name.casefold() == "current.tmp"


def _handler(name: str, store: type[StateStore], doc: str) -> type[ProtocolHandler]:
    """A handler class whose store is *store*, importable as this module's *name*."""

    class Handler(ProtocolHandler):
        def store_class(self) -> type[StateStore]:
            return store

    Handler.__name__ = Handler.__qualname__ = name
    Handler.__doc__ = doc
    return Handler


DiskBoolBoot = _handler(
    "DiskBoolBoot",
    _patched_store(lambda: mock.patch.object(lineage, "next_boot_index", _bool_boot)),
    "A recorded boot of ``true`` counts as 1 toward the next boot number.",
)
DiskAnyIntegerBoot = _handler(
    "DiskAnyIntegerBoot",
    _patched_store(lambda: mock.patch.object(lineage, "next_boot_index", _any_int_boot)),
    "A recorded boot counts whatever integer it is: negative, 0 or past 2^53 - 2.",
)
DiskUnicodeGenerations = _handler(
    "DiskUnicodeGenerations",
    _patched_store(_gen_number_patches(_unicode_gen_number)),
    "A generation's name is matched with ``\\d`` and read with ``int()``: Unicode digits count.",
)
DiskZeroGeneration = _handler(
    "DiskZeroGeneration",
    _patched_store(_gen_number_patches(_zero_gen_number)),
    "``gen-00000000`` is generation 0, pruned as any other generation.",
)
DiskIsdigitPointer = _handler(
    "DiskIsdigitPointer",
    _patched_store(lambda: mock.patch.object(loader, "read_pointer", _isdigit_pointer)),
    "``CURRENT`` is decoded as UTF-8, stripped and its digits read with ``isdigit``/``int()``.",
)
DiskShortNumberPointer = _handler(
    "DiskShortNumberPointer",
    _patched_store(lambda: mock.patch.object(loader, "read_pointer", _short_number_pointer)),
    "``CURRENT`` names a generation by 1 to 8 ASCII digits (``gen-7``), not exactly 8.",
)
DiskUnboundedCoreIntegers = _handler(
    "DiskUnboundedCoreIntegers",
    _patched_store(_record_integers(_unbounded_int, _unbounded_count)),
    "A record's integer past the canonical range (2^53 + 1, 2^64) loads and is stored.",
)
DiskIntegersTo253 = _handler(
    "DiskIntegersTo253",
    _patched_store(_record_integers(_int_to_2_53, _count_to_2_53)),
    "A record's integer is bounded by 2^53, not 2^53 - 1: one past the canonical range loads.",
)
DiskUnboundedTurnCount = _handler(
    "DiskUnboundedTurnCount",
    _patched_store(lambda: mock.patch.object(manifest, "is_count", _unbounded_count)),
    "A manifest's ``turn_count`` or ``generation`` past 2^53 - 1 is a valid count.",
)
DiskFoldedDebris = _handler(
    "DiskFoldedDebris",
    _patched_store(lambda: mock.patch.object(commit_module, "is_debris", _folded_debris)),
    "Leftovers are matched after case folding: ``ſtaging-9`` and ``CURRENT.TMP`` are removed.",
)
DiskManifestLastMemberWins = _handler(
    "DiskManifestLastMemberWins",
    _patched_store(lambda: mock.patch.object(manifest, "_members_once", dict)),
    "A manifest that names a member twice is read keeping the last, as a request line is.",
)
