"""Typed errors: every refusal carries a stable code and names the offending field."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every refusal the engine makes on bad input.

    ``code`` is stable across releases; ``field`` names the offending field,
    key or argument when there is one.
    """

    code = "ENGINE_ERROR"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class LexiconError(EngineError):
    """A language pack is malformed."""

    code = "LEXICON_MALFORMED"


class RegisterError(EngineError):
    """A register pack was refused by the loader or the ratification gate."""

    code = "REGISTER_MALFORMED"


class UsageError(EngineError):
    """A command or request was called with bad arguments."""

    code = "USAGE"
