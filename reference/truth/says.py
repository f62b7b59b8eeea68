"""What an answer says, as data: the ``says`` object of ``session.chat`` (capability
``answers``, docs/intents.md § What an answer says, as data).

``says`` is a function of a turn's sealed record content alone (the object the trace hash
is taken over), so it never depends on the register and two engines that seal the same
record say the same ``says``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

QUOTED = 3
"""A RECALL quotes at most this many things the user said."""


def _steps(steps: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"from": s["from"], "relation": s["relation"], "to": s["to"]} for s in steps]


def _quoted(said: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The latest claim first, then the others, the latest first; at most :data:`QUOTED`."""
    latest = sorted(said, key=lambda s: -int(s["turn_idx"]))
    claims = [s for s in latest if s["claim"] is not None]
    ordered = [*claims[:1], *(s for s in latest if s is not claims[0])] if claims else latest
    return [
        {"turn": int(s["turn_idx"]) + 1, "text": s["text"], "claim": s["claim"]}
        for s in ordered[:QUOTED]
    ]


def _recall(content: Mapping[str, Any]) -> tuple[list[dict[str, Any]], int | None, Any]:
    hits = content["vault_hits"]
    if content["subject"] is None:
        pooled = {(s["turn_idx"], s["text"]): s for hit in hits for s in hit["said"]}
        quoted = _quoted(list(pooled.values()))
        return quoted, None, quoted[0]["claim"] if quoted else None
    if not hits:
        return [], 0, None
    hit = hits[0]
    return _quoted(hit["said"]), int(hit["count"]), hit["latest_claim"]


COMPARED = 3
"""A COMPARISON compares this many first domains of each subject."""


def _compared(content: Mapping[str, Any]) -> dict[str, Any] | None:
    """The shared and own domains of a COMPARISON's first two known subjects."""
    grounded = content["grounded"]
    if content["intent"] != "COMPARISON" or len(grounded) < 2:
        return None
    first, second = (list(entry["domains"][:COMPARED]) for entry in grounded[:2])
    shared = [d for d in first if d in second]
    own = [[d for d in domains if d not in shared] for domains in (first, second)]
    return {"own": own, "shared": shared}


SPANNED = 2
"""A PROCEDURE starts from, and a FRAME_TRANSFER spans, this many first domains."""


def _start(content: Mapping[str, Any]) -> list[str] | None:
    grounded = content["grounded"]
    if content["intent"] != "PROCEDURE" or not grounded or content["subject"] in content["unknown"]:
        return None
    return list(grounded[0]["domains"][:SPANNED])


def _spans(content: Mapping[str, Any]) -> list[list[str]] | None:
    grounded = content["grounded"]
    if content["intent"] != "FRAME_TRANSFER" or len(grounded) < 2:
        return None
    return [list(entry["domains"][:SPANNED]) for entry in grounded[:2]]


def says(content: Mapping[str, Any]) -> dict[str, Any]:
    """The ``says`` object of the turn whose sealed record content is *content*."""
    intent = content["intent"]
    answer: Mapping[str, Any] = content.get("answer") or {}
    source = content["grounding_source"]
    verifies = intent == "VERIFICATION" and bool(answer)
    path = content["teaching_path"]
    told = answer["told"] if answer else path
    way = None
    if intent == "TRANSITIVE_QUERY" and path:
        way = "forward" if path[0]["from"] == content["grounded"][0]["lemma"] else "backward"
    said: list[dict[str, Any]] = []
    earlier: int | None = None
    claim = None
    if intent == "RECALL" and (source == "vault" or content["subject"] is not None):
        said, earlier, claim = _recall(content)
    elif intent == "CORRECTION":
        claim = content["claim"]
    elif verifies and answer["by"] == "vault":
        claim = content["vault_hits"][0]["latest_claim"]
    return {
        "by": answer["by"] if verifies else None,
        "checked": answer["checked"] if verifies else None,
        "claim": claim,
        "compared": _compared(content),
        "earlier": earlier,
        "said": said,
        "spans": _spans(content),
        "start": _start(content),
        "steps": _steps(told),
        "unknown": list(content["unknown"]) if source in ("partial", "oov") else [],
        "verdict": answer["verdict"] if verifies else None,
        "way": way,
    }
