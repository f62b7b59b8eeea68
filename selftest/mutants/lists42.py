"""Broken engines for the relations of a RECALL turn: a RECALL names its subject but is never
something said (docs/intents.md § What an answer says, as data)."""

from __future__ import annotations

from typing import Any

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth.vault import Vault, VaultHit


def _latest_by_last_named(vault: Vault, count: int) -> tuple[VaultHit, ...]:
    said = [hit for hit in vault.hits() if hit.said]
    said.sort(key=lambda hit: -hit.last_turn)
    return tuple(said[:count])


class RecallOrderedByLastNamed(ProtocolHandler):
    """A RECALL without a subject draws on the lemmas a turn named last (a RECALL turn too),
    not on those something was said about last."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = Vault.latest
        Vault.latest = _latest_by_last_named  # type: ignore[method-assign]
        try:
            return super().chat(runtime, text)
        finally:
            Vault.latest = kept  # type: ignore[method-assign]
