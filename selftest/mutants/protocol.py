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


class EnvelopeFieldOmitted(ProtocolHandler):
    """PROTOCOL_BAD_REQUEST refusals carry no ``field``."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = response.get("error")
        if isinstance(error, dict) and error.get("code") == "PROTOCOL_BAD_REQUEST":
            return {**response, "error": {k: v for k, v in error.items() if k != "field"}}
        return response


class BoolTurnIndexAccepted(ProtocolHandler):
    """A turn_idx of true or false is read as the integer 1 or 0 (Python's bool is an int)."""

    def handle(self, request: object) -> dict[str, Any]:
        args = request.get("args") if isinstance(request, dict) else None
        if isinstance(args, dict) and isinstance(args.get("turn_idx"), bool):
            request = {**request, "args": {**args, "turn_idx": int(args["turn_idx"])}}
        return super().handle(request)


class NestedBatchSkipped(ProtocolHandler):
    """A nested batch element is answered with an error, and the other elements run."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        requests = args.get("requests")
        if isinstance(requests, list):
            stand_in = {"op": "no.such.op", "args": {}}
            requests = [
                {**r, **stand_in} if isinstance(r, dict) and r.get("op") == "batch" else r
                for r in requests
            ]
            args = {**args, "requests": requests}
        return super().op_batch(args)


class FileValuesUnchecked(ProtocolHandler):
    """register.load decodes file values without checking they are strings (an internal error)."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            for value in files.values():
                value.encode("ascii")
        return super().op_register_load(args)


class RepairFlagCoerced(ProtocolHandler):
    """state.journal reads ``repair`` by truthiness, so "yes" and 1 count as true."""

    def handle(self, request: object) -> dict[str, Any]:
        args = request.get("args") if isinstance(request, dict) else None
        if isinstance(args, dict) and "repair" in args and not isinstance(args["repair"], bool):
            request = {**request, "args": {**args, "repair": bool(args["repair"])}}
        return super().handle(request)
