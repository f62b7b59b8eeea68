"""Broken state engines for the state spec gaps of docs/state.md closed by the 451 ids:
records read whatever their generation's schema version knows, vault records without a life
record resumed as a life, and a signal in flight not held as § Shutdown says. The first line
of each docstring states the defect."""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any
from unittest import mock

from reference.runtime import ChatRuntime
from reference.runtime.life import hit_of
from reference.serve import ProtocolHandler
from reference.state import FileOps, LoadedState, StateError, StateStore, WriterLock, records
from reference.state.records import CURRENT_SCHEMA_VERSION
from reference.state.soak import Emit

KNOWN_FIELDS = records.known_fields


class EveryKindStore(StateStore):
    """Reads a ``life`` or ``vault`` record in a generation of any schema version."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        every = dict.fromkeys(records.KIND_SINCE, 1)
        with mock.patch.dict(records.KIND_SINCE, every):
            return super().load(fs)


class EveryFieldStore(StateStore):
    """Reads a record's optional fields at every schema version, as the current one knows them."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        def current(kind: str, schema_version: int) -> set[str]:
            return KNOWN_FIELDS(kind, CURRENT_SCHEMA_VERSION)

        with mock.patch.object(records, "known_fields", current):
            return super().load(fs)


class GapsKindsAtEveryVersion(ProtocolHandler):
    """A ``life`` or ``vault`` record in a generation of schema version 1 to 3 loads."""

    def store_class(self) -> type[StateStore]:
        return EveryKindStore


class GapsFieldsAtEveryVersion(ProtocolHandler):
    """A field the record's schema version does not know (``label`` at 1, ``evidence`` at 1 or
    2) loads."""

    def store_class(self) -> type[StateStore]:
        return EveryFieldStore


class GapsOrphanVaultResumed(ProtocolHandler):
    """A session on a core holding vault records but no ``life`` record resumes those tallies
    in a fresh life (turn 0, no subject, the identity rotor)."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        if runtime.persisted is None or runtime.persisted.life is not None:
            return
        hits = tuple(hit_of(r) for (kind, _), r in store.records.items() if kind == "vault")
        if hits:
            runtime.resume(dataclasses.replace(runtime.truth.life(), hits=hits))


class GapsSoakIgnoresSignal(ProtocolHandler):
    """A ``state.soak`` in flight runs all its iterations and is answered despite a SIGTERM or
    SIGINT held since its first one (the process ends only after the answer)."""

    @property
    def boundary(self) -> Callable[[], None] | None:
        return None

    @boundary.setter
    def boundary(self, value: Callable[[], None] | None) -> None:
        """The loop's boundary is dropped."""


class GapsSoakStopsUnacknowledged(ProtocolHandler):
    """A held SIGTERM or SIGINT ends a ``state.soak`` once its checkpoint in flight is
    durable but before that iteration's ``ack`` is written."""

    def soak_turn(self, store: StateStore, mutations: list[dict[str, Any]], emit: Emit) -> None:
        def unacknowledged(event: dict[str, Any]) -> None:
            if event["event"] == "ack" and self.boundary is not None:
                self.boundary()
            emit(event)

        super().soak_turn(store, mutations, unacknowledged)


HOST = "conformance.engines.host"
"""The module that serves a broken engine as a process."""


class GapsSignalEndsAnswer(ProtocolHandler):
    """Served as a process, a SIGTERM or SIGINT ends it at once, its stores released and
    ``LOCK`` emptied, even while an answer is being written."""

    CHUNK = 4096
    """Bytes per write: a pipe's atomic write (PIPE_BUF)."""

    def __init__(self) -> None:
        super().__init__()
        self.held: int | None = None
        self.writing = False
        spec = getattr(sys.modules["__main__"], "__spec__", None)
        self.served = spec is not None and spec.name == HOST
        if self.served:
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, self.hold)

    def hold(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler: end at once, unless an answer is being written (then at its
        next chunk)."""
        self.held = signum
        if not self.writing:
            self.end_at_once()

    def end_at_once(self) -> None:
        self.close()
        os._exit(128 + (self.held or 0))

    def handle_line(self, line: str | bytes) -> str:
        """The answer, written here a chunk at a time (the host adds its newline); a signal
        held between two chunks ends the process."""
        answer = super().handle_line(line)
        if not self.served:
            return answer
        data = answer.encode("utf-8")
        self.writing = True
        for start in range(0, len(data), self.CHUNK):
            if self.held is not None:
                self.end_at_once()
            os.write(sys.stdout.fileno(), data[start : start + self.CHUNK])
        self.writing = False
        return ""


def _stopped(pid: str) -> bool:
    """Whether the process *pid* (a decimal string) is stopped, as /proc says."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii")
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] in ("T", "t")


class StoppedHolderIgnoredLock(WriterLock):
    """Takes a directory whose holder's process is stopped as free, and opens it unlocked."""

    def acquire(self) -> None:
        try:
            super().acquire()
        except StateError as refusal:
            holder = self.path.read_text("ascii", "replace").strip()
            if refusal.code != "STATE_LOCKED" or not _stopped(holder):
                raise


class StoppedHolderIgnoredStore(StateStore):
    """Opens a directory whose writer is stopped (SIGSTOP) as if no writer held it."""

    @classmethod
    def writer_lock(cls, path: Path, fs: FileOps) -> WriterLock:
        return StoppedHolderIgnoredLock(path, fs)


class GapsStoppedHolderIgnored(ProtocolHandler):
    """A writer's open beside a holder whose process is stopped (SIGSTOP) takes the directory
    as free and opens it without the lock."""

    def store_class(self) -> type[StateStore]:
        return StoppedHolderIgnoredStore
