"""A disagreement found on one (op, member), and the report of them all, as text or
JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass

from tools.differential.shared import Json


@dataclass
class Disagreement:
    """The shortest stream found that disagrees on (*op*, *member*), both engines' answers
    to its disagreeing request, its area, and how many cases disagreed on the key."""

    op: str
    member: str
    stream: list[Json]
    answers: tuple[Json, Json]
    area: str
    count: int = 1


Found = dict[tuple[str, str], Disagreement]


def _show(request: Json) -> str:
    if isinstance(request, bytes):
        return "raw " + repr(request)
    return json.dumps(request, ensure_ascii=False)


def as_json(found: Found) -> str:
    """The disagreements as a JSON array, one object each."""
    return json.dumps(
        [
            {
                "op": d.op,
                "member": d.member,
                "area": d.area,
                "count": d.count,
                "stream": [_show(r) for r in d.stream],
                "answers": list(d.answers),
            }
            for d in found.values()
        ],
        ensure_ascii=False,
        indent=1,
    )


def as_text(found: Found, sent: int) -> str:
    """A count of requests and disagreements, then each with its stream and answers."""
    lines = [f"{sent} requests, {len(found)} disagreement(s) by (op, member)"]
    for d in found.values():
        lines.append(f"\n== {d.op} {d.member} ({d.area}, {d.count} case(s))")
        lines.extend("  > " + _show(request) for request in d.stream)
        lines.append("  A " + json.dumps(d.answers[0], ensure_ascii=False))
        lines.append("  B " + json.dumps(d.answers[1], ensure_ascii=False))
    return "\n".join(lines)
