"""The one error type of the persisted state: an EngineError whose code is set per raise."""

from __future__ import annotations

from reference.errors import EngineError


class StateError(EngineError):
    """A refusal of the state store; ``code`` is one of the STATE_* codes of docs/state.md."""

    code = "STATE_ERROR"
