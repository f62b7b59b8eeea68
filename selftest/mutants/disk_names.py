"""Broken engines that match an enumerated name argument loosely (PROTO-TYPE-001, STATE-TYPE-002):
NFKC-normalised, trimmed and case-folded before it is compared, so a fullwidth letter, a
trailing newline or a long s (U+017F) passes. The first line of each docstring states the
defect."""

from __future__ import annotations

import unicodedata
from typing import Any

from reference.serve import ProtocolHandler


def _folded(value: object) -> object:
    if not isinstance(value, str):
        return value
    return unicodedata.normalize("NFKC", value).strip().casefold()


class FoldedJournalName(ProtocolHandler):
    """``state.journal``'s ``name`` is NFKC-normalised, trimmed and case-folded before it is
    compared: ``lineage\\n``, ``proposalſ`` and a fullwidth ``ｌineage`` name journals."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if (
            isinstance(request, dict)
            and request.get("op") == "state.journal"
            and isinstance(request.get("args"), dict)
        ):
            args = request["args"]
            request = {**request, "args": {**args, "name": _folded(args.get("name"))}}
        return super().dispatch(request)


class FoldedMutationOp(ProtocolHandler):
    """A mutation's ``op`` is NFKC-normalised, trimmed and case-folded: ``put\\n``, `` put``
    and a fullwidth ``ｐut`` are puts."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if (
            isinstance(request, dict)
            and request.get("op") == "state.apply"
            and isinstance(request.get("args"), dict)
            and isinstance(request["args"].get("mutations"), list)
        ):
            args = request["args"]
            mutations = [
                {**m, "op": _folded(m.get("op"))} if isinstance(m, dict) else m
                for m in args["mutations"]
            ]
            request = {**request, "args": {**args, "mutations": mutations}}
        return super().dispatch(request)
