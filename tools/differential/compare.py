"""The first response pair of a case that disagrees, and the path of the member that
shows it."""

from __future__ import annotations

import re

from tools.differential.algebra_bounds import algebra_agrees, is_algebra
from tools.differential.normalise import normalise
from tools.differential.shared import Json


def _same_scalar(a: Json, b: Json) -> bool:
    return (
        a == b
        and type(a) is type(b)
        or (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and a == b
        )
    )


def first_difference(a: Json, b: Json, path: str = "") -> str | None:
    """The path of the first member where *a* and *b* differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}[len]"
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if _same_scalar(a, b) else path or "$"


def _lived(request: Json, a: Json, b: Json) -> bool:
    """Whether *request* was a turn both engines answered (on a store: see FREE-022)."""
    return (
        isinstance(request, dict)
        and request.get("op") == "session.chat"
        and bool(a.get("ok") or b.get("ok"))
    )


def _opens_on_store(case: list[Json]) -> bool:
    return any(
        isinstance(r, dict) and r.get("op") == "session.open" and "store" in r.get("args", {})
        for r in case
    )


def _algebra_member(request: Json, a: Json, b: Json) -> str | None:
    """The member an algebra call disagrees on, or None when it agrees."""
    if a.get("id") != b.get("id") or not algebra_agrees(request, a["result"], b["result"]):
        return "result.condition" if "condition" in a["result"] else "result.multivector"
    return None


def _named(request: Json, where: str) -> tuple[str, str]:
    """The op and member to report for a difference at *where*: inside a batch, the
    element's op (``batch>OP``) and its path within the element."""
    op = request.get("op") if isinstance(request, dict) else "<raw line>"
    if isinstance(request, dict) and "$damage" in request:
        op = "$damage"
    if op == "batch" and where.startswith(".result.responses["):
        k = int(where.split("[", 1)[1].split("]", 1)[0])
        inner = request["args"]["requests"]
        inner_op = inner[k].get("op") if k < len(inner) and isinstance(inner[k], dict) else "?"
        op = f"batch>{inner_op}"
        where = re.sub(r"^\.result\.responses\[\d+\]", "", where)
    return str(op), where


DELTA = "delta.jsonl"


def _deltas_differ(request: Json, a: Json, b: Json) -> bool:
    """Whether a damage step found the two directories laid out differently while one holds
    a delta generation: writing deltas is free (FREE-024), so what damage does to the
    generations, and everything after it, is no longer the same damage."""
    if not isinstance(request, dict):
        return False
    if request.get("op") == "state.trace_checkpoint" and a.get("ok") and b.get("ok"):
        ops = [str(o) for o in a["result"].get("ops", []) + b["result"].get("ops", [])]
        return a["result"].get("ops") != b["result"].get("ops") and any(DELTA in o for o in ops)
    if "$damage" not in request:
        return False
    la, lb = a["result"]["layout"], b["result"]["layout"]
    return la != lb and any(entry.endswith("/" + DELTA) for entry in la + lb)


def compare_case(
    case: list[Json], ra: list[Json], rb: list[Json], context: dict[str, Json]
) -> tuple[int, str, str] | None:
    """The index, op and member of the first response pair that disagrees, or None."""
    on_store = _opens_on_store(case)
    context = dict(context, lived=False, soaked=False)
    for i, (request, a, b) in enumerate(zip(case, ra, rb, strict=False)):
        if on_store and _lived(request, a, b):
            context["lived"] = True
        if isinstance(request, dict) and request.get("op") == "state.soak":
            context["soaked"] = bool(context["soaked"] or a.get("ok") or b.get("ok"))
        if _deltas_differ(request, a, b):
            return None
        if is_algebra(request, a, b):
            member = _algebra_member(request, a, b)
            if member is not None:
                return i, str(request.get("op")), member
            continue
        where = first_difference(normalise(request, a, context), normalise(request, b, context))
        if where is not None:
            return (i, *_named(request, where))
    return None
