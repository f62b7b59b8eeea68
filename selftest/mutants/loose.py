"""Broken engines with a loosely typed language's habits: a text tested for truth, ids
compared as numbers."""

from __future__ import annotations

import re
from typing import Any

from reference.registers import RegisterPack
from reference.serve import ProtocolHandler

_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?")


class FalsyOpeningDropped(ProtocolHandler):
    """Decoration tests the opening for truth as PHP does: the opening ``"0"`` adds nothing.

    Neither the marker nor its space is written, though the result still names it."""

    def join(self, opening: str, surface: str, closing: str) -> str:
        return super().join("" if opening == "0" else opening, surface, closing)


class FalsyIdRefused(ProtocolHandler):
    """A request id is tested for truth as PHP's ``empty()`` does: ids 0 and "" are refused.

    The refusal is ``PROTOCOL_BAD_REQUEST`` naming ``id``, though it echoes the id."""

    def handle(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and _empty_in_php(request.get("id", 1)):
            message = "request 'id' is empty"
            error = {"code": "PROTOCOL_BAD_REQUEST", "field": "id", "message": message}
            return {"id": request["id"], "ok": False, "error": error}
        return super().handle(request)


class NumericIdsEqual(ProtocolHandler):
    """Register ids are compared as PHP's ``==`` does: ``10`` validates as ``1e1``.

    Two ids that both read as the same number are taken as equal."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        given = pack.get("register_id") if isinstance(pack, dict) else None
        if _same_number(given, expected_id):
            expected_id = given
        return super().validate_pack(pack, expected_id)


def _same_number(a: object, b: object) -> bool:
    if not (isinstance(a, str) and isinstance(b, str)):
        return False
    if not (_NUMBER.fullmatch(a) and _NUMBER.fullmatch(b)):
        return False
    return float(a) == float(b)


def _empty_in_php(value: object) -> bool:
    return value == "" or (type(value) is int and value == 0)
