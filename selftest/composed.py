"""The reference engine with its decoration and chat turn recomposed from small handler hooks.

:class:`ComposedHandler` answers exactly as ``reference.serve.ProtocolHandler`` does,
but routes chat through the same hooks the protocol ops use (``select_index``,
``resolve_overrides``, ``decorate``) and splits both decoration and the chat turn
into overridable steps, so a broken engine can change one step and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference.realize import realize, variant_id
from reference.realize.depth import DISCLOSURE_KEY
from reference.runtime import ChatResponse, ChatRuntime, TurnEvent
from reference.serve import ProtocolHandler
from reference.truth.record import TruthRecord


@dataclass(frozen=True)
class Marked:
    """One decoration: the markers chosen, the decorated surface and its variant id."""

    opening: str
    closing: str
    surface: str
    variant_id: str


class ComposedHandler(ProtocolHandler):
    """A conformant handler whose decoration and chat turn are built from overridable steps."""

    def decorate(
        self,
        surface: str,
        markers: Mapping[str, Sequence[str]],
        *,
        register_id: str,
        trace_hash: str,
        turn_idx: int,
    ) -> Marked:
        """Pick an opening and a closing with ``select_index``, then join and identify them."""
        seed = {"trace_hash": trace_hash, "register_id": register_id, "turn_idx": turn_idx}
        opening = self.pick(markers["openings"], bucket_name="openings", **seed)
        closing = self.pick(markers["closings"], bucket_name="closings", **seed)
        joined = self.join(opening, surface, closing)
        return Marked(opening, closing, joined, self.variant_id(opening, closing))

    def pick(self, bucket: Sequence[str], **seed: Any) -> str:
        """The entry ``select_index`` picks from *bucket*, or ``""`` when it is empty."""
        index = self.select_index(bucket, **seed)
        return "" if index is None else bucket[index]

    def join(self, opening: str, surface: str, closing: str) -> str:
        """``opening + " " + surface + closing``; an empty opening adds nothing."""
        return (f"{opening} {surface}" if opening else surface) + closing

    def variant_id(self, opening: str, closing: str) -> str:
        """The register variant id of a marker pair."""
        return variant_id(opening, closing)

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        """One turn: seal the truth, realize, decorate, log, then report the response."""
        record = runtime.truth.run(text)
        turn_idx = len(runtime.turn_log)
        pre = self.realize_turn(runtime, record)
        markers = runtime.register.discourse_markers.as_json()
        decoration = self.decorate(pre, markers, **self.turn_seed(runtime, record, pre, turn_idx))
        response = self.response(runtime, record, pre, decoration, turn_idx)
        self.log_turn(runtime, response, text)
        return self.report_turn(runtime, response.as_json())

    def realize_turn(self, runtime: ChatRuntime, record: TruthRecord) -> str:
        """The pre-decoration surface at the depth ``resolve_overrides`` gives the turn's intent."""
        depth = self.resolve_overrides(runtime.register.realizer_overrides, record.intent.name)
        return realize(record, {DISCLOSURE_KEY: depth})

    def turn_seed(
        self, runtime: ChatRuntime, record: TruthRecord, pre: str, turn_idx: int
    ) -> dict[str, Any]:
        """The decoration seed of a turn: its trace hash, the register id and the turn index."""
        register_id = runtime.register.register_id
        return {"register_id": register_id, "trace_hash": record.trace_hash, "turn_idx": turn_idx}

    def response(
        self, runtime: ChatRuntime, record: TruthRecord, pre: str, decoration: Marked, turn: int
    ) -> ChatResponse:
        """The chat response of a decorated turn."""
        return ChatResponse(
            surface=decoration.surface,
            pre_decoration_surface=pre,
            trace_hash=record.trace_hash,
            grounding_source=record.grounding.source,
            intent=record.intent.name,
            subject=record.subject,
            turn_idx=turn,
            versor_condition=record.versor_condition,
            register_id=runtime.register_id,
            register_variant_id=decoration.variant_id,
        )

    def log_turn(self, runtime: ChatRuntime, response: ChatResponse, text: str) -> None:
        """Append the turn to the session's turn log and audit trail."""
        event = TurnEvent(
            response.turn_idx,
            response.intent,
            response.grounding_source,
            response.trace_hash,
            response.register_id,
            response.register_variant_id,
        )
        runtime.turn_log.append(event)
        runtime.audit.write(event, text=text, surface=response.surface)

    def report_turn(self, runtime: ChatRuntime, response: dict[str, Any]) -> dict[str, Any]:
        """The JSON result of ``session.chat`` for a turn."""
        return response


def factory() -> ComposedHandler:
    """A fresh conformant composed handler."""
    return ComposedHandler()
