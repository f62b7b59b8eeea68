"""The reference engine with its ``state.*`` ops routed through replaceable parts.

:class:`StateHandler` answers as ``reference.serve.ProtocolHandler`` does, but opens and
loads through ``store_class`` (the reference ``StateStore`` or a subclass with one hook
replaced), records ``state.trace_checkpoint`` through the store's own file operations,
recovers journals through ``recover_journal`` and soaks with ``soak_turn``, so a broken
state engine replaces one part and nothing else.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from reference.protocol.args import index_arg, string_arg
from reference.protocol.envelope import bad_arg
from reference.protocol.state_ops import JOURNALS
from reference.serve import ProtocolHandler
from reference.state import StateStore, recover
from selftest.state_fileops import recording
from selftest.state_soak import checkpointed_turn, soak


def _dir_arg(args: dict[str, Any]) -> Path:
    value = string_arg(args, "dir")
    if not value or "\x00" in value:
        bad_arg("dir", "argument 'dir' must be a non-empty path")
    return Path(value)


def _repair_arg(args: dict[str, Any]) -> bool:
    repair = args.get("repair", False)
    if not isinstance(repair, bool):
        bad_arg("repair", "argument 'repair' must be a boolean")
    return repair


def _journal_arg(args: dict[str, Any]) -> str:
    name = string_arg(args, "name")
    if name not in JOURNALS:
        bad_arg("name", f"argument 'name' must be one of {sorted(JOURNALS)}")
    return JOURNALS[name]


def _checkpoint(info) -> dict[str, Any]:
    return {"generation": info.generation, "identity": info.identity, "turn_count": info.turn_count}


class StateHandler(ProtocolHandler):
    """A conformant handler whose state store, journal recovery and soak turn are parts."""

    store_class: type[StateStore] = StateStore
    recover_journal = staticmethod(recover)
    soak_turn = staticmethod(checkpointed_turn)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.store_numbers = itertools.count(1)

    def add_store(self, opened: StateStore) -> str:
        """Register *opened* under the next store id (``st1``, ``st2``, ...)."""
        store_id = f"st{next(self.store_numbers)}"
        self.stores[store_id] = opened
        return store_id

    def op_state_open(self, args: dict[str, Any]) -> dict[str, Any]:
        """Open a directory for writing with ``store_class``."""
        opened = self.store_class.open(_dir_arg(args))
        boot = opened.boot.as_event()
        return {
            "store": self.add_store(opened),
            **opened.digest(),
            "schema_version": boot["to_version"],
            **{k: boot[k] for k in ("boot", "reason", "parent", "recovered")},
        }

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        """Read-only load with ``store_class.load``."""
        directory = _dir_arg(args)
        loaded = self.store_class.load(self.store_class.file_ops(directory))
        return {
            "identity": loaded.identity,
            "generation": loaded.generation,
            "turn_count": loaded.turn_count,
            "schema_version": loaded.schema_version,
            "recovered": loaded.recovered,
            "fresh": loaded.fresh,
            "records": len(loaded.records),
        }

    def op_state_trace_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        """Checkpoint through a recorder of the store's own file operations."""
        opened = self.store(string_arg(args, "store"))
        plain = opened.fs
        recorder = recording(type(plain))(opened.path)
        opened.fs = recorder
        try:
            info = opened.checkpoint()
        finally:
            opened.fs = plain
        return {**_checkpoint(info), "ops": recorder.ops}

    def op_state_journal(self, args: dict[str, Any]) -> dict[str, Any]:
        """Recover one journal with ``recover_journal``."""
        name, repair = _journal_arg(args), _repair_arg(args)
        found = self.recover_journal(_dir_arg(args) / name, repair=repair)
        return {
            "entries": list(found.entries),
            "skipped": list(found.skipped),
            "cut_bytes": found.cut_bytes,
        }

    def op_state_soak(self, args: dict[str, Any]) -> dict[str, Any]:
        """Soak a store of ``store_class`` turn by turn with ``soak_turn``."""
        request_id = self.current_id
        emit = self.emit or (lambda message: None)
        directory = _dir_arg(args)
        iterations, seed = index_arg(args, "iterations"), index_arg(args, "seed")
        return soak(
            self.store_class.open(directory),
            iterations=iterations,
            seed=seed,
            emit=lambda event: emit({"id": request_id, **event}),
            turn=self.soak_turn,
        )


def factory() -> StateHandler:
    """A fresh conformant state handler."""
    return StateHandler()
