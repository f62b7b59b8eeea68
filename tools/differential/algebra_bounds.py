"""Whether two engines' algebra results agree within the ULP bounds of docs/spec.md
§ Algebra."""

from __future__ import annotations

import math

from tools.differential.shared import Json


def _abs_product(a: list[float], b: list[float]) -> list[float]:
    """The geometric product's blade magnitudes with every term's sign made positive."""
    out = [0.0] * 32
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i ^ j] += abs(x * y)
    return out


def _ulp(x: float) -> float:
    return math.ulp(abs(x)) if x else math.ulp(0.0)


def _condition_agrees(args: Json, a: Json, b: Json) -> bool:
    v = [float(x) for x in args["versor"]]
    s = _abs_product([abs(x) for x in v], [abs(x) for x in v])
    s[0] += 1.0
    bound = 2.0**-46 * (math.sqrt(sum(x * x for x in s)) + max(a["condition"], b["condition"]))
    return bool(abs(a["condition"] - b["condition"]) <= 2 * bound)


def _sizes_and_ulps(
    op: str, args: Json, ma: list[float], mb: list[float]
) -> tuple[list[float], int]:
    """The magnitude each blade's bound scales with, and the bound in ULPs, for *op*."""
    if op in ("algebra.reverse", "algebra.grade"):
        return [0.0] * 32, 0  # exact (FREE-015: -0.0 == 0.0)
    if op == "algebra.product":
        a, b = [abs(float(x)) for x in args["a"]], [abs(float(x)) for x in args["b"]]
        return _abs_product(a, b), 64
    if op == "algebra.versor_apply":
        v = [abs(float(x)) for x in args["versor"]]
        return _abs_product(_abs_product(v, [abs(float(x)) for x in args["x"]]), v), 128
    # algebra.rotor: 8 ULPs of max(1, |exact|)
    return [max(1.0, abs(x), abs(y)) for x, y in zip(ma, mb, strict=False)], 8


def algebra_agrees(request: Json, a: Json, b: Json) -> bool:
    """Both algebra results lie within twice the spec's bound of each other (each engine
    may be off the exact value by the bound, in either direction)."""
    op, args = request["op"], request["args"]
    if op == "algebra.versor_condition":
        return _condition_agrees(args, a, b)
    ma, mb = a["multivector"], b["multivector"]
    sizes, ulps = _sizes_and_ulps(op, args, ma, mb)
    return all(
        abs(x - y) <= 2 * ulps * _ulp(size) * (1 + 2**-20)
        for x, y, size in zip(ma, mb, sizes, strict=False)
    )


def is_algebra(request: Json, a: Json, b: Json) -> bool:
    """Whether *request* is an algebra call both engines answered."""
    return (
        isinstance(request, dict)
        and str(request.get("op", "")).startswith("algebra.")
        and a.get("ok") is True
        and b.get("ok") is True
    )
