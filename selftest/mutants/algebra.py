"""Broken algebra ops: a flipped sign of the product table, argument bounds off by one."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.algebra import IDENTITY, PRODUCT_LEFT, PRODUCT_SIGN, reverse
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
