"""The algebra ops of ``core-engine/1``: ``algebra.*`` over Cl(4,1) (docs/protocol.md).

Mixed into :class:`~reference.protocol.handler.ProtocolHandler`. A multivector travels
as a JSON list of 32 finite numbers in blade-bitmask order (docs/spec.md § Algebra).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeGuard

from reference.protocol.envelope import OpSpec, bad_arg

if TYPE_CHECKING:
    from reference.algebra import Multivector

# The algebra (and numpy, most of a cold start) is imported by the first algebra op,
# so an engine that never computes a product starts fast.

ALGEBRA_CAPABILITIES = ("algebra",)
SIZE = 32
"""Coefficients of a multivector on the wire (:data:`reference.algebra.SIZE`)."""
MAX_COEFFICIENT = 1e50
"""Largest coefficient magnitude an op accepts: triple products and their squares stay finite."""

MAX_ANGLE = 64.0
"""Largest rotor angle magnitude: ``cosh(32)`` stays far from overflow."""

ALGEBRA_OPS: Mapping[str, OpSpec] = {
    "algebra.product": OpSpec("op_algebra_product", ("a", "b")),
    "algebra.reverse": OpSpec("op_algebra_reverse", ("a",)),
    "algebra.grade": OpSpec("op_algebra_grade", ("a", "grade")),
    "algebra.rotor": OpSpec("op_algebra_rotor", ("bivector", "angle")),
    "algebra.versor_apply": OpSpec("op_algebra_versor_apply", ("versor", "x")),
    "algebra.versor_condition": OpSpec("op_algebra_versor_condition", ("versor",)),
}


def _is_number(value: object) -> TypeGuard[int | float]:
    return type(value) in (int, float)


def number_arg(args: Mapping[str, Any], name: str, bound: float) -> float:
    """The finite number argument *name*, at most *bound* in magnitude."""
    value = args.get(name)
    if not _is_number(value) or abs(value) > bound or not math.isfinite(value):
        bad_arg(name, f"argument {name!r} must be a finite number of magnitude <= {bound:g}")
    return float(value)


def multivector_arg(args: Mapping[str, Any], name: str) -> Multivector:
    """The argument *name* as a multivector: a list of 32 finite numbers within the bound."""
    value = args.get(name)
    if not isinstance(value, list) or len(value) != SIZE:
        bad_arg(name, f"argument {name!r} must be a list of {SIZE} numbers")
    for index, item in enumerate(value):
        if not _is_number(item) or abs(item) > MAX_COEFFICIENT or not math.isfinite(item):
            bad_arg(name, f"{name}[{index}] must be a finite number of magnitude <= 1e50")
    import numpy

    return numpy.array([float(item) for item in value])


def _multivector_json(mv: Multivector) -> dict[str, Any]:
    return {"multivector": [float(c) + 0.0 for c in mv]}


class AlgebraOps:
    """``algebra.*`` ops over :mod:`reference.algebra`."""

    def op_algebra_product(self, args: dict[str, Any]) -> dict[str, Any]:
        """The geometric product ``a b``."""
        from reference.algebra import geometric_product

        a, b = multivector_arg(args, "a"), multivector_arg(args, "b")
        return _multivector_json(geometric_product(a, b))

    def op_algebra_reverse(self, args: dict[str, Any]) -> dict[str, Any]:
        """The reversion of ``a``."""
        from reference.algebra import reverse

        return _multivector_json(reverse(multivector_arg(args, "a")))

    def op_algebra_grade(self, args: dict[str, Any]) -> dict[str, Any]:
        """The grade-r part of ``a`` for r in 0..5."""
        from reference.algebra import grade

        a = multivector_arg(args, "a")
        r = args.get("grade")
        if type(r) is not int or not 0 <= r <= 5:
            bad_arg("grade", "argument 'grade' must be an integer in 0..5")
        return _multivector_json(grade(a, r))

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        """``exp(-angle/2 * B_hat)`` for a simple non-zero bivector B."""
        from reference.algebra import rotor

        bivector = multivector_arg(args, "bivector")
        angle = number_arg(args, "angle", MAX_ANGLE)
        try:
            return _multivector_json(rotor(bivector, angle))
        except ValueError as exc:
            bad_arg("bivector", str(exc))

    def op_algebra_versor_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        """The sandwich ``V X reverse(V)``."""
        from reference.algebra import versor_apply

        versor, x = multivector_arg(args, "versor"), multivector_arg(args, "x")
        return _multivector_json(versor_apply(versor, x))

    def op_algebra_versor_condition(self, args: dict[str, Any]) -> dict[str, Any]:
        """``norm(V reverse(V) - 1)``."""
        from reference.algebra import versor_condition

        return {"condition": versor_condition(multivector_arg(args, "versor"))}
