"""Every request the argument and validation requirements send, sent again at once as the one
element of a batch: the same response.

docs/protocol.md § batch: "one response per element, in order, each exactly what that element
would get if sent on its own line at that point". PROTO-BATCH-004 checks that for the
envelope's own cases; the requests that check arguments (types, bounds, unknown and missing
names, the order of the checks), pack validation and the algebra were met alone only. A port
whose batch decodes its elements through a path of its own (arguments checked by the op
handler of single requests, numbers read into doubles once more, a default filled in)
answers some of them otherwise inside a batch. Here the coverage cases of every requirement
whose ops change nothing (their capabilities within :data:`PURE`) run again, and right after
each request they send, the same request is sent as the one element of a batch: the element's
response is the same JSON as the one it got alone (``error.message`` aside).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from conformance import cases
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.model import Requirement
from conformance.requirements import replays
from conformance.requirements.batch_alone import comparable
from conformance.requirements.protocol_raw import CAPABILITY_OPS
from conformance.requirements.registry import requirement
from conformance.requirements.replays import Forwarding

PURE = frozenset({"variation", "overrides", "algebra", "registers.validate", "lexicon"})
"""Capabilities whose ops change nothing an engine keeps: a request of theirs may be sent
twice."""
PURE_OPS = frozenset({"hello", *(op for cap in PURE for op in CAPABILITY_OPS[cap])})
"""The ops replayed; any other (a session's, a store's, a ratify) may change what the next
request meets."""
MAX_DEPTH = 56
"""Requests nested deeper are not replayed: the batch adds three levels above the element,
and a line is at most 64 levels deep."""
MAX_BYTES = 900_000
"""Requests larger than this are not replayed: a batch line must stay within 1 MiB."""


def _pure(rid: str, found: Requirement) -> bool:
    """Whether *found* needs no capability beyond :data:`PURE` and is not about batches."""
    return set(found.capabilities) <= PURE and not rid.startswith("PROTO-BATCH-")


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _replayable(request: object) -> bool:
    """Whether *request* is an object naming one of :data:`PURE_OPS`, Unicode text, and small
    and shallow enough to be an element."""
    if not isinstance(request, dict) or request.get("op") not in PURE_OPS:
        return False
    if _depth(request) > MAX_DEPTH:
        return False
    try:
        size = len(json.dumps(request, ensure_ascii=False).encode("utf-8"))
    except UnicodeEncodeError:
        return False  # a lone surrogate makes the whole line, batch or not, not Unicode
    return size <= MAX_BYTES


class _BatchesEachRequest(Forwarding):
    """*engine*, but every request of :data:`PURE_OPS` it answers is sent again as the one
    element of a batch; each difference is kept in :attr:`problems`."""

    def call(self, op: str, args: Any = None, *, checked: bool = True) -> Any:
        try:
            return self._engine.call(op, args, checked=checked)
        finally:
            self._again_in_batch()

    def raw(self, request: EncodableObject, *, checked: bool = True) -> Any:
        try:
            return self._engine.raw(request, checked=checked)
        finally:
            self._again_in_batch()

    def _again_in_batch(self) -> None:
        """Send the last request again, alone in a batch, and compare the answers."""
        exchanges = self._engine.transcript.exchanges
        if not exchanges or exchanges[-1]["response"] is None:
            return
        request, alone = exchanges[-1]["request"], exchanges[-1]["response"]
        if not _replayable(request):
            return
        batch: EncodableObject = {"id": "again", "op": "batch", "args": {"requests": [request]}}
        response = self._engine.raw(batch, checked=False)
        result = response.get("result") if isinstance(response, dict) else None
        responses = result.get("responses") if isinstance(result, dict) else None
        shown = canonical_json(request)[:300]
        if not isinstance(responses, list) or len(responses) != 1:
            self.problems.append(
                f"{shown}: in a batch of one the batch answered {response!r}, not one response"
            )
            return
        try:
            same = comparable(responses[0]) == comparable(alone)
        except AssertionError as bad:
            self.problems.append(f"{shown}: in a batch of one, {bad}")
            return
        if not same:
            self.problems.append(
                f"{shown}: in a batch of one it got {canonical_json(responses[0])[:300]}, "
                f"alone {canonical_json(alone)[:300]}"
            )


@requirement(
    "PROTO-BATCH-005",
    "every request of a pure op (variation, overrides, algebra, register.validate, lexicon, "
    "hello) that the coverage cases of the requirements of those capabilities send (argument "
    "types, bounds, unknown and missing names, check order, pack validation, algebra inputs), "
    "sent again at once as the one element of a batch, gets the response it got alone "
    "(error.message aside)",
    family="protocol",
    capabilities=("batch",),
    seed="docs/protocol.md § batch (each exactly what that element would get if sent on its "
    "own line at that point)",
    strategy=lambda ctx: st.sampled_from(replays.items(ctx, _pure)),
    cover=replays.planner(_pure),
)
def batch_of_one_as_alone(engine: EngineClient, item: list[Any]) -> None:
    again = _BatchesEachRequest(engine)
    replays.run_case(again, item)
    assert not again.problems, cases.lines(
        again.problems, f"{item[0]}'s case {item[1]!r}: a batch of one answers otherwise:"
    )
