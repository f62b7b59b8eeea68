"""Broken sessions and batches: ids reused while open, runtimes shared, batches cut short."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reference.protocol.envelope import error_response
from reference.runtime import ChatRuntime
from reference.runtime.turn_log import TurnLog
from reference.serve import ProtocolHandler


class SessionIdsByCount(ProtocolHandler):
    """A new session's id is one past the number of open sessions, so after a close it can
    name a session still open."""

    def add_session(self, runtime: ChatRuntime) -> str:
        session_id = f"s{len(self.sessions) + 1}"
        self.sessions[session_id] = runtime
        return session_id


class RuntimePerRegister(ProtocolHandler):
    """Sessions under the same register share one runtime (its turns, its vault)."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        shared: dict[str | None, ChatRuntime] = self.__dict__.setdefault("shared", {})
        if register_id not in shared:
            shared[register_id] = super().new_runtime(register_id, search_path)
        return shared[register_id]


class BatchStopsAtFailure(ProtocolHandler):
    """A batch answers its elements up to the first refused one and drops the rest."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        answered = super().op_batch(args)["responses"]
        cut = next((i for i, r in enumerate(answered) if not r.get("ok")), len(answered))
        return {"responses": answered[: cut + 1]}


class NonObjectElementInternal(ProtocolHandler):
    """A batch element that is not an object is answered ENGINE_INTERNAL, not PROTOCOL_BAD_JSON."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        answered = super().op_batch(args)["responses"]
        requests = args.get("requests") or []
        return {
            "responses": [
                r if isinstance(q, dict) else error_response(None, "ENGINE_INTERNAL", "not a dict")
                for q, r in zip(requests, answered, strict=True)
            ]
        }


class StoreWithoutLife(ProtocolHandler):
    """hello leaves out state.life, yet session.open still takes a ``store``."""

    def capabilities(self) -> Sequence[str]:
        return [c for c in super().capabilities() if c != "state.life"]


class FilesWithoutLoad(ProtocolHandler):
    """hello leaves out registers.load, yet session.open still takes ``files``."""

    def capabilities(self) -> Sequence[str]:
        return [c for c in super().capabilities() if c != "registers.load"]


class _WindowLog(TurnLog[Any]):
    """A turn log whose length is that of its window of recent events."""

    def __len__(self) -> int:
        return self.retained


class TurnIndexFromWindow(ProtocolHandler):
    """The next turn_idx is the number of retained events (1,024 at most), not of every
    turn, so a long session stops counting."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        runtime.turn_log = _WindowLog()
        return runtime
