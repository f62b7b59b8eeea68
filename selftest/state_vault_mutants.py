"""A broken engine whose `vault` records are keyed by the word as written rather than by
the lemma's address (docs/state.md § The life; docs/trace-hash.md § Vault addresses).
``STATE-FORMAT-001`` fails on it."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime, life
from reference.serve import ProtocolHandler
from reference.truth.vault import VaultHit, lemma_address


class VaultKeyOfWordAsWritten(ProtocolHandler):
    """A `vault` record is keyed by the address of its lemma's first subject as written
    (`rivers`), not of the lemma (`river`): a store another engine wrote resumes without
    the tallies of every lemma first named through a plural."""

    def __init__(self) -> None:
        super().__init__()
        self.written: dict[str, str] = {}

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        subject = result.get("subject")
        lemma = default_lexicon().lookup(subject) if isinstance(subject, str) else None
        if lemma is not None:
            self.written.setdefault(lemma.lemma, subject)
        return result

    def handle(self, request: object) -> dict[str, Any]:
        record = life.vault_record

        def keyed_as_written(hit: VaultHit) -> dict[str, Any]:
            return {**record(hit), "key": lemma_address(self.written.get(hit.lemma, hit.lemma))}

        with patch.object(life, "vault_record", keyed_as_written):
            return super().handle(request)
