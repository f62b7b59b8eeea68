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
