"""Broken algebra ops: a flipped sign of the product table, argument bounds off by one, a
reversed sandwich, a sandwich kept to the grade of X, a condition of the scalar part, flushed
small products, absolute tolerances in the rotor's rules, a basis plane taken for a Euclidean
one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from reference.algebra import (
    IDENTITY,
    PRODUCT_LEFT,
    PRODUCT_SIGN,
    geometric_product,
    grade,
    norm,
    product_grades,
    reverse,
    simple_rotor,
)
from reference.protocol.algebra_ops import multivector_arg
from reference.protocol.envelope import bad_arg
from reference.serve import ProtocolHandler

E12, E23 = 0b00011, 0b00110
FLIPPED_SIGN = PRODUCT_SIGN.copy()
FLIPPED_SIGN[E12 ^ E23, E23] *= -1.0


def flipped_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The geometric product with ``e12 e23`` giving ``-e13`` instead of ``+e13``."""
    return (a[PRODUCT_LEFT] * b * FLIPPED_SIGN).sum(axis=1)


def _json(mv: np.ndarray) -> dict[str, Any]:
    return {"multivector": [float(c) + 0.0 for c in mv]}


class FlippedProductSign(ProtocolHandler):
    """One entry of the product sign table is flipped (e12 e23 = -e13)."""

    def op_algebra_product(self, args: dict[str, Any]) -> dict[str, Any]:
        return _json(flipped_product(multivector_arg(args, "a"), multivector_arg(args, "b")))

    def op_algebra_versor_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        versor, x = multivector_arg(args, "versor"), multivector_arg(args, "x")
        return _json(flipped_product(flipped_product(versor, x), reverse(versor)))

    def op_algebra_versor_condition(self, args: dict[str, Any]) -> dict[str, Any]:
        versor = multivector_arg(args, "versor")
        residue = flipped_product(versor, reverse(versor)) - IDENTITY
        return {"condition": float(np.sqrt(np.sum(residue * residue)))}


class GradeBoundLoose(ProtocolHandler):
    """algebra.grade accepts grade 6 (one past the top grade of Cl(4,1)) and answers zero."""

    def op_algebra_grade(self, args: dict[str, Any]) -> dict[str, Any]:
        grade = args.get("grade")
        if type(grade) is int and grade == 6:
            return _json(multivector_arg(args, "a") * 0.0)
        return super().op_algebra_grade(args)


class BoundsExclusive(ProtocolHandler):
    """A coefficient of magnitude exactly 1e50 or an angle of exactly 64 is refused."""

    def op_algebra_reverse(self, args: dict[str, Any]) -> dict[str, Any]:
        if any(abs(c) >= 1e50 for c in multivector_arg(args, "a")):
            bad_arg("a", "argument 'a' has a coefficient of magnitude 1e50 or more")
        return super().op_algebra_reverse(args)

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        angle = args.get("angle")
        if isinstance(angle, int | float) and abs(angle) >= 64:
            bad_arg("angle", "argument 'angle' is not below 64 in magnitude")
        return super().op_algebra_rotor(args)


class SandwichReversed(ProtocolHandler):
    """versor_apply computes rev(V) X V instead of V X rev(V).

    A vector stays a vector of the same square, so every rotor chain still passes; only the
    exact sandwich tells."""

    def op_algebra_versor_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        versor, x = multivector_arg(args, "versor"), multivector_arg(args, "x")
        return _json(geometric_product(geometric_product(reverse(versor), x), versor))


class SandwichKeepsGradeOfX(ProtocolHandler):
    """versor_apply keeps only X's grade of V X rev(V) when X has a single grade.

    A port's fast path: a versor's sandwich keeps a blade's grade, so nothing else is
    computed. Every rotor and versor hides it; a V that is no versor (which versor_apply
    takes too) shows it, but only beside an X of one grade."""

    def op_algebra_versor_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        versor, x = multivector_arg(args, "versor"), multivector_arg(args, "x")
        out = geometric_product(geometric_product(versor, x), reverse(versor))
        grades = {r for r in range(6) if np.any(grade(x, r))}
        return _json(grade(out, grades.pop()) if len(grades) == 1 else out)


class ConditionFromScalarPart(ProtocolHandler):
    """versor_condition is |<V rev(V)>_0 - 1|, dropping the grade 1, 4 and 5 parts.

    No rotor shows it: their V rev(V) has no such parts."""

    def op_algebra_versor_condition(self, args: dict[str, Any]) -> dict[str, Any]:
        versor = multivector_arg(args, "versor")
        square = geometric_product(versor, reverse(versor))
        return {"condition": abs(float(square[0]) - 1.0)}


class ConditionEvenGradesOnly(ProtocolHandler):
    """versor_condition sums grades 0 and 4 of V rev(V) only, dropping grades 1 and 5.

    No versor shows it: its V rev(V) is a scalar. Only a V mixing odd and even grades has
    the parts it drops."""

    def op_algebra_versor_condition(self, args: dict[str, Any]) -> dict[str, Any]:
        versor = multivector_arg(args, "versor")
        square = geometric_product(versor, reverse(versor))
        even = [c if bin(m).count("1") in (0, 4) else 0.0 for m, c in enumerate(square)]
        return {"condition": norm(np.array(even) - IDENTITY)}


class TinyProductsFlushed(ProtocolHandler):
    """algebra.product cleans its result: coefficients below 1e-12 in magnitude become 0."""

    def op_algebra_product(self, args: dict[str, Any]) -> dict[str, Any]:
        out = geometric_product(multivector_arg(args, "a"), multivector_arg(args, "b"))
        return _json(np.where(np.abs(out) < 1e-12, 0.0, out))


def _rotor_judged(
    args: dict[str, Any], not_simple: Callable[[np.ndarray, float], bool]
) -> dict[str, Any] | None:
    """algebra.rotor with *not_simple* (the grade-4 part of ``B B`` and ``|B|²``) in place
    of the spec's simplicity test; None for arguments the reference's own checks refuse."""
    bivector = multivector_arg(args, "bivector")
    angle = args.get("angle")
    if not isinstance(angle, int | float) or isinstance(angle, bool):
        return None
    square = product_grades(bivector, bivector, (0, 4))
    size = float(np.sum(bivector * bivector))
    pure = not np.any(bivector - grade(bivector, 2))
    if not (pure and size > 0 and abs(angle) <= 64):
        return None
    if not_simple(grade(square, 4), size):
        bad_arg("bivector", "rotor needs a simple bivector")
    return _json(simple_rotor(bivector, float(angle), square=float(square[0]), size=size))


class AbsoluteSimplicityTolerance(ProtocolHandler):
    """algebra.rotor calls a bivector simple when |<B B>_4| <= 1e-10, not 1e-10 |B|².

    A small non-simple bivector is accepted and a large one whose square rounds is refused."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = _rotor_judged(args, lambda part, size: norm(part) > 1e-10)
        return answer if answer is not None else super().op_algebra_rotor(args)


class SimplicityByLargestPart(ProtocolHandler):
    """algebra.rotor bounds the largest coefficient of <B B>_4, not its Euclidean norm.

    A bivector whose grade-4 square has two parts each inside the bound but together past
    it is accepted."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = _rotor_judged(args, lambda part, size: float(np.max(np.abs(part))) > 1e-10 * size)
        return answer if answer is not None else super().op_algebra_rotor(args)


class SinglePlaneElliptic(ProtocolHandler):
    """algebra.rotor takes a bivector of one coefficient for a Euclidean plane (B B = -|B|²).

    A port's shortcut for a basis plane: e_i e5 squares to +1, so its rotor is hyperbolic
    (cosh, sinh), yet it gets cos and sin. Every plane of two or more coefficients is right."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        bivector = multivector_arg(args, "bivector")
        if np.count_nonzero(bivector) != 1 or not np.any(grade(bivector, 2)):
            return super().op_algebra_rotor(args)
        size = float(norm(bivector)) ** 2
        angle = float(args["angle"])
        return _json(simple_rotor(bivector, angle, square=-size, size=size))


class StrayPartTolerated(ProtocolHandler):
    """algebra.rotor drops a coefficient outside grade 2 below 1e-9 of the bivector's size.

    The spec refuses every non-zero one."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        bivector = args.get("bivector")
        if isinstance(bivector, list) and len(bivector) == 32:
            mv = multivector_arg(args, "bivector")
            stray = mv - grade(mv, 2)
            if 0 < norm(stray) < 1e-9 * norm(mv):
                return super().op_algebra_rotor({**args, "bivector": grade(mv, 2).tolist()})
        return super().op_algebra_rotor(args)


class EvenProductFastPath(ProtocolHandler):
    """algebra.product takes a rotor fast path for two even operands that keeps grades 0, 2.

    A port's shortcut for rotor products assumes an even multivector is scalar plus bivector
    and drops its grade-4 part; two odd or mixed operands take the full product."""

    def op_algebra_product(self, args: dict[str, Any]) -> dict[str, Any]:
        a, b = multivector_arg(args, "a"), multivector_arg(args, "b")
        if not np.any(a - grade(a, 0) - grade(a, 2) - grade(a, 4)) and not np.any(
            b - grade(b, 0) - grade(b, 2) - grade(b, 4)
        ):
            a, b = grade(a, 0) + grade(a, 2), grade(b, 0) + grade(b, 2)
        return _json(geometric_product(a, b))
