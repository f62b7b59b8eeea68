"""A batch that answers an element otherwise than the same request alone (docs/protocol.md
§ batch: "each exactly what that element would get if sent on its own line")."""

from __future__ import annotations

from typing import Any

from reference.serve import ProtocolHandler


class BatchElementArgsNullAsAbsent(ProtocolHandler):
    """The batch reads each element into a typed record whose ``args`` null is absent (as a
    port's decoder with an optional field would): an element with ``"args": null`` is served,
    where the same request alone is PROTOCOL_BAD_REQUEST, field args."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        requests = args.get("requests")
        if isinstance(requests, list):
            requests = [
                {k: v for k, v in item.items() if not (k == "args" and v is None)}
                if isinstance(item, dict)
                else item
                for item in requests
            ]
        return super().op_batch({**args, "requests": requests})


class BatchElementNumbersAsDoubles(ProtocolHandler):
    """The batch reads each element's arguments into doubles where the op takes numbers (as a
    port that decodes an element into a generic record of floats would): an integer argument
    past 2^53 is rounded, and ``1.0`` where an integer is required is read as 1."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        requests = args.get("requests")
        if isinstance(requests, list):
            requests = [_doubled(item) for item in requests]
        return super().op_batch({**args, "requests": requests})


def _doubled(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _doubled(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_doubled(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return int(float(value))
    return value
