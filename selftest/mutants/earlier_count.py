"""A RECALL's `earlier` held in too few bits (docs/intents.md § Answers, RECALL: "how many
earlier turns named the subject"): every script names a subject a handful of times, so a
count that wraps shows only past 255 namings."""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest.mock import patch

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import vault


class EarlierCountInEightBits(ProtocolHandler):
    """The vault's running tally of a subject is a `u8`: the 256th naming wraps it to 0, so
    `earlier` (and the surface's count) after 300 namings is 44."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        wide = vault.VaultHit

        def narrow(*args: Any, **kwargs: Any) -> vault.VaultHit:
            hit = wide(*args, **kwargs)
            return dataclasses.replace(hit, count=hit.count % 256)

        with patch.object(vault, "VaultHit", narrow):
            return super().chat(runtime, text)
