"""The ratification gate's null rule read wrong on one clause (docs/registers.md § The
ratification gate): each ratifier replaces only ``check_gate``, so the report it writes for a
pack it accepts is the reference's."""

from __future__ import annotations

from reference.registers import Ratifier
from reference.registers.model import RegisterPack
from reference.registers.validate import fail
from reference.serve import ProtocolHandler


def _refuse(pack: RegisterPack) -> None:
    fail("REGISTER_EMPTY_NON_NULL", "an empty pack claims depth_preference", "depth_preference")


class _TransitionsCount(Ratifier):
    def check_gate(self, pack: RegisterPack) -> None:
        markers = pack.discourse_markers
        empty = not (markers.openings or markers.transitions or markers.closings)
        if not pack.realizer_overrides and empty and pack.depth_preference != "standard":
            _refuse(pack)


class NullRuleCountsTransitions(ProtocolHandler):
    """A pack with only transitions passes the gate at any depth: transitions are counted."""

    ratifier = _TransitionsCount()


class _OnlyTerse(Ratifier):
    def check_gate(self, pack: RegisterPack) -> None:
        markers = pack.discourse_markers
        empty = not (markers.openings or markers.closings)
        if not pack.realizer_overrides and empty and pack.depth_preference == "terse":
            _refuse(pack)


class NullRuleRefusesOnlyTerse(ProtocolHandler):
    """A null pack is refused only at depth terse: a pedagogical one is ratified."""

    ratifier = _OnlyTerse()


class _EmptyClosingNull(Ratifier):
    def check_gate(self, pack: RegisterPack) -> None:
        markers = pack.discourse_markers
        empty = not any(markers.openings) and not any(markers.closings)
        if not pack.realizer_overrides and empty and pack.depth_preference != "standard":
            _refuse(pack)


class NullRuleEmptyMarkersCountAsNone(ProtocolHandler):
    """Markers that are all empty strings count as no markers: `[""]` closings are refused."""

    ratifier = _EmptyClosingNull()


class _DepthlessOverridesNull(Ratifier):
    def check_gate(self, pack: RegisterPack) -> None:
        markers = pack.discourse_markers
        overrides = pack.realizer_overrides
        scoped = overrides.get("per_intent", {})
        depthless = "disclosure_domain_count" not in overrides and not any(scoped.values())
        empty = not (markers.openings or markers.closings)
        if depthless and empty and pack.depth_preference != "standard":
            _refuse(pack)


class NullRuleEmptyPerIntentIsNull(ProtocolHandler):
    """Overrides naming no depth (an empty per_intent) count as empty: such a pack is refused."""

    ratifier = _DepthlessOverridesNull()
