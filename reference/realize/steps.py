"""``TurnSteps``: the steps of a chat turn after its truth is sealed, each one overridable.

``ChatRuntime.chat`` seals the truth record, then calls ``realize_turn``,
``decoration_seed`` and ``decorate`` (with the :class:`~reference.realize.Decorator`
steps under it) on its steps object. The protocol handler is such an object, so one
hook it replaces changes its op and the chat turn alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from reference.realize.depth import DISCLOSURE_KEY, resolve_disclosure_domain_count
from reference.realize.variation import DecorationSeed, Decorator

if TYPE_CHECKING:
    from reference.registers.model import RegisterPack
    from reference.truth.record import TruthRecord


class TurnRuntime(Protocol):
    """What a step reads of the chat runtime whose turn it runs: the session's register."""

    register: RegisterPack


class TurnSteps(Decorator):
    """Depth resolution, realization and the decoration seed of a turn, plus decoration."""

    def resolve_overrides(self, overrides: Mapping[str, object], intent_name: str) -> int:
        """``disclosure_domain_count`` for *intent_name* under *overrides* (fail-soft)."""
        return resolve_disclosure_domain_count(overrides, intent_name)

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        """The pre-decoration surface at the depth ``resolve_overrides`` gives the intent."""
        from reference.realize.compose import realize

        overrides = runtime.register.realizer_overrides
        depth = self.resolve_overrides(overrides, record.intent.name)
        return realize(record, {DISCLOSURE_KEY: depth})

    def decoration_seed(
        self, runtime: TurnRuntime, record: TruthRecord, pre: str, turn_idx: int
    ) -> DecorationSeed:
        """The seed of a turn's markers: its trace hash, the register id and the turn index."""
        register_id = runtime.register.register_id
        return DecorationSeed(
            trace_hash=record.trace_hash, register_id=register_id, turn_idx=turn_idx
        )
