"""The persisted-state ops of ``core-engine/1``: ``state.*`` (docs/state.md, docs/protocol.md).

Mixed into :class:`~reference.protocol.handler.ProtocolHandler`. ``reference.state`` is
imported on first use, so a process that never serves a state op never loads it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reference.protocol.args import index_arg, object_arg, string_arg
from reference.protocol.envelope import OpSpec, bad_arg, refuse

if TYPE_CHECKING:
    from reference.state import JournalRecovery, StateStore
    from reference.state.commit import CheckpointInfo
    from reference.state.soak import Emit

STATE_CAPABILITIES = ("state", "state.soak", "state.trace")
JOURNALS = {
    "proposals": "proposals.journal",
    "overflow": "overflow.journal",
    "lineage": "lineage.journal",
}

STATE_OPS: Mapping[str, OpSpec] = {
    "state.open": OpSpec("op_state_open", ("dir",)),
    "state.apply": OpSpec("op_state_apply", ("store", "mutations")),
    "state.checkpoint": OpSpec("op_state_checkpoint", ("store",)),
    "state.trace_checkpoint": OpSpec("op_state_trace_checkpoint", ("store",)),
    "state.digest": OpSpec("op_state_digest", ("store",)),
    "state.close": OpSpec("op_state_close", ("store",)),
    "state.load": OpSpec("op_state_load", ("dir",)),
    "state.propose": OpSpec("op_state_propose", ("store", "proposal")),
    "state.journal": OpSpec("op_state_journal", ("dir", "name"), ("repair",)),
    "state.soak": OpSpec("op_state_soak", ("dir", "iterations", "seed")),
}


def _dir_arg(args: Mapping[str, Any]) -> Path:
    value = string_arg(args, "dir")
    if not value or "\x00" in value:
        bad_arg("dir", "argument 'dir' must be a non-empty path")
    if not value.startswith("/"):
        bad_arg("dir", "argument 'dir' must be an absolute path")
    return Path(value)


def _checkpoint_json(info: CheckpointInfo) -> dict[str, Any]:
    return {"generation": info.generation, "identity": info.identity, "turn_count": info.turn_count}


class StateOps:
    """``state.*`` ops over :mod:`reference.state`; stores are named ``st1``, ``st2``, ...

    The ops go through three hooks a subclass may replace: ``store_class`` (the store
    that opens, loads, checkpoints and soaks), ``recover_journal`` and ``soak_turn``.
    """

    soak_max_iterations = 2**53 - 1
    """The most iterations a ``state.soak`` takes (docs/protocol.md § Persisted-state ops)."""
    emit: Callable[[dict[str, Any]], None] | None = None
    """Set by the stdio loop: writes one event line (``{"id", "event", ...}``)."""
    boundary: Callable[[], None] | None = None
    """Set by the stdio loop: called between the steps of a long request (each acknowledged
    ``state.soak`` iteration); it raises to end the process there when a SIGTERM or SIGINT is
    held (docs/state.md § Shutdown)."""

    def __init__(self) -> None:
        self.stores: dict[str, StateStore] = {}
        self._store_ids = itertools.count(1)
        self.current_id: int | str | None = None

    def store_class(self) -> type[StateStore]:
        """The store class every ``state.*`` op opens or loads a directory with."""
        from reference.state import StateStore

        return StateStore

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        """Recover the journal at *path*, cutting a torn tail when *repair* is true."""
        from reference.state import recover

        return recover(path, repair=repair)

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        """One ``state.soak`` turn: apply, announce ``begin``, checkpoint, then ``ack``."""
        from reference.state.soak import checkpointed_turn

        checkpointed_turn(store, mutations, emit)

    def close(self) -> None:
        """At the end of serving (end of input, SIGTERM, SIGINT): release every store still
        open, committing nothing (docs/state.md § Shutdown); ``LOCK`` is cleared."""
        stores, self.stores = self.stores, {}
        if not stores:
            return
        from reference.state import StateError

        for opened in stores.values():
            with contextlib.suppress(StateError):
                opened.release()

    def store(self, store_id: str) -> StateStore:
        """The open store named *store_id*, or STATE_NOT_OPEN."""
        opened = self.stores.get(store_id)
        if opened is None:
            refuse("STATE_NOT_OPEN", f"no open state store {store_id!r}", "store")
        return opened

    def _store_arg(self, args: Mapping[str, Any]) -> StateStore:
        return self.store(string_arg(args, "store"))

    def op_state_open(self, args: dict[str, Any]) -> dict[str, Any]:
        """Open a directory for writing (the single-writer lock is taken)."""
        opened = self.store_class().open(_dir_arg(args))
        store_id = f"st{next(self._store_ids)}"
        self.stores[store_id] = opened
        info = opened.digest()
        boot = opened.boot.as_event()
        return {
            "store": store_id,
            **info,
            "schema_version": boot["to_version"],
            **{k: boot[k] for k in ("boot", "reason", "parent", "recovered")},
        }

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        """Apply mutations in memory, all or none."""
        mutations = args.get("mutations")
        if not isinstance(mutations, list):
            bad_arg("mutations", "argument 'mutations' must be a list")
        opened = self._store_arg(args)
        opened.apply(mutations)
        return {"dirty": opened.digest()["dirty"]}

    def op_state_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        """Commit the next generation; answers once it is durable."""
        return _checkpoint_json(self._store_arg(args).checkpoint())

    def op_state_trace_checkpoint(self, args: dict[str, Any]) -> dict[str, Any]:
        """Commit like ``state.checkpoint`` and return every file operation it made."""
        from reference.state import recorder_of

        opened = self._store_arg(args)
        recorder, plain = recorder_of(opened.fs), opened.fs
        opened.fs = recorder
        try:
            info = opened.checkpoint()
        finally:
            opened.fs = plain
        return {**_checkpoint_json(info), "ops": recorder.ops}

    def op_state_digest(self, args: dict[str, Any]) -> dict[str, Any]:
        """Identity and turn count in memory, the committed generation, dirtiness."""
        return self._store_arg(args).digest()

    def op_state_close(self, args: dict[str, Any]) -> dict[str, Any]:
        """Clean shutdown: commit only if something changed, release the lock."""
        store_id = string_arg(args, "store")
        info = self.store(store_id).close()
        del self.stores[store_id]
        return _checkpoint_json(info)

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        """Read-only load following the recovery rules (no lock taken)."""
        store_class = self.store_class()
        loaded = store_class.load(store_class.file_ops(_dir_arg(args)))
        return {
            "identity": loaded.identity,
            "generation": loaded.generation,
            "turn_count": loaded.turn_count,
            "schema_version": loaded.schema_version,
            "recovered": loaded.recovered,
            "fresh": loaded.fresh,
            "records": len(loaded.records),
        }

    def op_state_propose(self, args: dict[str, Any]) -> dict[str, Any]:
        """Queue a proposal; past the pending cap it spills, and the answer says so."""
        proposal = object_arg(args, "proposal")
        return self._store_arg(args).propose(proposal)

    def op_state_journal(self, args: dict[str, Any]) -> dict[str, Any]:
        """Recover one journal: valid entries, skipped corrupt lines, bytes cut from a torn tail."""
        name = string_arg(args, "name")
        if name not in JOURNALS:
            bad_arg("name", f"argument 'name' must be one of {sorted(JOURNALS)}")
        repair = args.get("repair", False)
        if not isinstance(repair, bool):
            bad_arg("repair", "argument 'repair' must be a boolean")
        found = self.recover_journal(_dir_arg(args) / JOURNALS[name], repair=repair)
        return {
            "entries": list(found.entries),
            "skipped": list(found.skipped),
            "cut_bytes": found.cut_bytes,
        }

    def op_state_soak(self, args: dict[str, Any]) -> dict[str, Any]:
        """Mutate and checkpoint in a loop, emitting ``begin`` and (once durable) ``ack``."""
        from reference.state.soak import soak_store

        request_id = self.current_id
        emit = self.emit or (lambda message: None)
        directory = _dir_arg(args)
        iterations, seed = index_arg(args, "iterations"), index_arg(args, "seed")
        if iterations > self.soak_max_iterations:
            bad_arg("iterations", "argument 'iterations' must be at most 2^53 - 1")
        return soak_store(
            self.store_class().open(directory),
            iterations=iterations,
            seed=seed,
            emit=lambda event: emit({"id": request_id, **event}),
            turn=self.soak_turn,
            boundary=self.boundary or (lambda: None),
        )
