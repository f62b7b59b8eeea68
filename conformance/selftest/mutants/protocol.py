"""Broken wire behaviour: hello, unknown ops, batch order, chat response shape, lexicon."""

from __future__ import annotations

from typing import Any

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler, read_envelope


class BadHello(ProtocolHandler):
    """hello names the protocol "core-engine/0"."""

    def op_hello(self, args: dict[str, Any]) -> dict[str, Any]:
        return {**super().op_hello(args), "protocol": "core-engine/0"}


class UnknownOpOk(ProtocolHandler):
    """An unknown op is answered with ok and an empty result."""

    def dispatch(self, request: object) -> dict[str, Any]:
        op, _ = read_envelope(request)
        return {} if op not in self.ops else super().dispatch(request)


class BatchReordered(ProtocolHandler):
    """A batch answers its requests in reverse order."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"responses": super().op_batch(args)["responses"][::-1]}


class ChatShapeWrong(ProtocolHandler):
    """session.chat reports grounding_source "pack-ish"."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        return {**super().chat(runtime, text), "grounding_source": "pack-ish"}


class UnreachableLemma(ProtocolHandler):
    """lexicon.list also lists "zzzunknown", a lemma the engine cannot ground."""

    def lexicon_rows(self) -> list[dict[str, Any]]:
        extra = {"lemma": "zzzunknown", "pack": "core", "pos": "noun", "has_gloss": False}
        return [*super().lexicon_rows(), extra]
