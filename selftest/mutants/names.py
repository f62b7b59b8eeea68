"""Names a port's tables hold by inheritance: a plain object or an attribute lookup used as
a map (docs/protocol.md § Closed lists: a name is only the string it is)."""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest.mock import patch

from reference.protocol import handler as handler_module
from reference.protocol.envelope import bad_arg
from reference.registers import validate
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import spelling, vault
from reference.truth.intent import IntentTag

OBJECT_MEMBERS = frozenset(
    {"constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf"}
)


class InheritedOpFound(ProtocolHandler):
    """The op table is a plain object: an op named like a member every object inherits
    (``constructor``, ``toString``) is found and answers an empty result."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and request.get("op") in OBJECT_MEMBERS:
            return {}
        return super().dispatch(request)


def _intent_by_attribute(args: Any, name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str) or not hasattr(IntentTag, value):
        bad_arg(name, f"argument {name!r} is not an IntentTag name")
    return value


class IntentByAttribute(ProtocolHandler):
    """An intent name is checked with ``hasattr(IntentTag, name)``, so ``__class__``,
    ``__init__`` and ``__dict__`` pass as intents and resolve to the flat count."""

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        with patch.object(handler_module, "intent_arg", _intent_by_attribute):
            return super().op_overrides_resolve(args)


class _InheritingTable(dict[str, str]):
    """A contraction table that, like a plain JavaScript object, holds ``constructor``."""

    def __contains__(self, word: object) -> bool:
        return word == "constructor" or super().__contains__(word)

    def __getitem__(self, word: str) -> str:
        if word == "constructor":
            return "function object native code"
        return super().__getitem__(word)


class ContractionOfConstructor(ProtocolHandler):
    """Contractions are looked up in a plain object, so the word ``constructor`` is spelt
    out as the text of a function."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        table = _InheritingTable(spelling.CONTRACTIONS)
        with patch.object(spelling, "CONTRACTIONS", table):
            return super().chat(runtime, text)


def _store_first_turn_truthy(
    self: vault.Vault, lemma: str, turn_idx: int, claim: str | None = None, text: str | None = None
) -> vault.VaultEntry:
    entry = _STORE(self, lemma, turn_idx, claim, text)
    hit = self._hits[entry.address]
    if hit.count > 1 and not hit.first_turn:
        self._hits[entry.address] = dataclasses.replace(hit, first_turn=turn_idx)
    return entry


_STORE = vault.Vault.store


class FirstTurnZeroForgotten(ProtocolHandler):
    """A lemma's first turn is kept as ``first || turn``, so one first named at turn 0 gets
    the turn of its next mention (0 is false in the port's language)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(vault.Vault, "store", _store_first_turn_truthy):
            return super().chat(runtime, text)


def _object_keys(names: Any, key: Any = None) -> list[Any]:
    """*names* in the order a JavaScript object lists its keys: array indices first, in
    numeric order, then the others as they came."""
    names = list(names)
    indices = [n for n in names if isinstance(n, str) and n.isascii() and n.isdigit()]
    indices = [n for n in indices if n == "0" or not n.startswith("0")]
    return sorted(indices, key=int) + [n for n in names if n not in indices]


class UnknownNamesInObjectKeyOrder(ProtocolHandler):
    """A pack's names are checked in a JavaScript object's key order, not code point order:
    of the unknown names ``9`` and ``10``, ``9`` is named."""

    def handle(self, request: object) -> dict[str, Any]:
        with patch.object(validate, "sorted", _object_keys, create=True):
            return super().handle(request)
