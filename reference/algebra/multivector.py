"""Multivectors of Cl(4,1) as float64 arrays of shape (32,), and the operations on them.

The geometric product is table-driven: elementwise products summed with
``np.add.reduce``, never a BLAS kernel, so results are identical on every CPU.
Rotors are built in closed form and never renormalised afterwards.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from reference.algebra.basis import (
    DIM,
    GRADE,
    METRIC,
    PRODUCT_LEFT,
    PRODUCT_SIGN,
    REVERSE_SIGN,
    SIZE,
    Multivector,
)

NULL_TOLERANCE = 1e-12
"""A bivector whose square is below this fraction of its squared norm counts as null."""

SIMPLE_TOLERANCE = 1e-10
"""A bivector is simple when the grade-4 part of its square is below this fraction of it."""

_Scalar = TypeVar("_Scalar", bound=np.generic)

_VECTOR_BLADES = np.array([1 << i for i in range(DIM)])
_GRADE_BLADES = tuple(np.flatnonzero(r == GRADE) for r in range(DIM + 1))
_NON_BIVECTOR_BLADES = np.flatnonzero(GRADE != 2)


def _read_only(mv: NDArray[_Scalar]) -> NDArray[_Scalar]:
    mv.setflags(write=False)
    return mv


def scalar(x: float) -> Multivector:
    """Return the multivector ``x`` (grade 0 only)."""
    out = np.zeros(SIZE)
    out[0] = x
    return out


def vector(coeffs: Sequence[float]) -> Multivector:
    """Return ``sum_i coeffs[i] e_{i+1}`` for exactly five coefficients."""
    if len(coeffs) != DIM:
        raise ValueError(f"a vector needs {DIM} coefficients, got {len(coeffs)}")
    out = np.zeros(SIZE)
    out[_VECTOR_BLADES] = coeffs
    return out


def blade(mask: int, coeff: float = 1.0) -> Multivector:
    """Return ``coeff`` times the basis blade with bitmask ``mask`` (0 <= mask < 32)."""
    if not 0 <= mask < SIZE:
        raise ValueError(f"blade mask must lie in [0, {SIZE}), got {mask}")
    out = np.zeros(SIZE)
    out[mask] = coeff
    return out


IDENTITY = _read_only(scalar(1.0))


def geometric_product(a: Multivector, b: Multivector) -> Multivector:
    """Return the geometric product ``a b`` of two float64 multivectors of shape (32,).

    ``out[k] = sum_j PRODUCT_SIGN[k, j] * a[k ^ j] * b[j]``, summed the same way on every CPU.
    """
    terms = a[PRODUCT_LEFT]
    terms *= b
    terms *= PRODUCT_SIGN
    out: Multivector = np.add.reduce(terms, axis=1)
    return out


@functools.lru_cache(maxsize=64)
def _grade_rows(
    grades: tuple[int, ...],
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """The blades of *grades* and their rows of the product tables, read-only."""
    blades = np.flatnonzero(np.isin(GRADE, grades))
    return _read_only(blades), _read_only(PRODUCT_LEFT[blades]), _read_only(PRODUCT_SIGN[blades])


def product_grades(a: Multivector, b: Multivector, grades: tuple[int, ...]) -> Multivector:
    """Return the parts of the geometric product ``a b`` of the given *grades* (others zero).

    Only those coefficients are computed, each summed exactly as :func:`geometric_product`
    sums it, so they equal its coefficients bit for bit.
    """
    blades, left, sign = _grade_rows(grades)
    terms = a[left]
    terms *= b
    terms *= sign
    out = np.zeros(SIZE)
    out[blades] = np.add.reduce(terms, axis=1)
    return out


@functools.lru_cache(maxsize=64)
def _sandwich_rows(
    mask: int, grades: tuple[int, ...]
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]:
    """For ``V blade(mask) reverse(V)``: the blades of *grades*, the index of V's left factor
    in each term and each term's sign, read-only.

    Term ``(k, j)`` is ``PRODUCT_SIGN[k, j] * (V blade(mask))[k ^ j] * reverse(V)[j]``, and
    ``(V blade(mask))[i] = PRODUCT_SIGN[i, mask] * V[i ^ mask]``: the signs fold into one table.
    """
    blades, left, sign = _grade_rows(grades)
    folded = sign * PRODUCT_SIGN[left, mask] * REVERSE_SIGN
    return blades, _read_only(left ^ mask), _read_only(folded)


def sandwich_grades(versor: Multivector, mask: int, grades: tuple[int, ...]) -> Multivector:
    """Return the parts of ``V blade(mask) reverse(V)`` of the given *grades* (others zero).

    They equal ``product_grades(blade_product(V, mask), reverse(V), grades)`` bit for bit: the
    same terms, differing only by exact sign changes, summed in the same order.
    """
    if not 0 <= mask < SIZE:
        raise ValueError(f"blade mask must lie in [0, {SIZE}), got {mask}")
    blades, left, sign = _sandwich_rows(mask, grades)
    terms = versor[left]
    terms *= versor
    terms *= sign
    out = np.zeros(SIZE)
    out[blades] = np.add.reduce(terms, axis=1)
    return out


def blade_product(a: Multivector, mask: int) -> Multivector:
    """Return ``a blade(mask)``: a signed permutation of ``a``'s coefficients.

    Every non-zero coefficient equals that of ``geometric_product(a, blade(mask))``.
    """
    if not 0 <= mask < SIZE:
        raise ValueError(f"blade mask must lie in [0, {SIZE}), got {mask}")
    return a[PRODUCT_LEFT[:, mask]] * PRODUCT_SIGN[:, mask]


def reverse(a: Multivector) -> Multivector:
    """Return the reversion of ``a``: each grade-r part times ``(-1)^(r(r-1)/2)``."""
    return a * REVERSE_SIGN


def grade(a: Multivector, r: int) -> Multivector:
    """Return the grade-``r`` part of ``a`` (zero when ``r`` is not a grade of the algebra)."""
    out = np.zeros(SIZE)
    if 0 <= r <= DIM:
        blades = _GRADE_BLADES[r]
        out[blades] = a[blades]
    return out


def scalar_part(a: Multivector) -> float:
    """Return the grade-0 coefficient of ``a``."""
    return float(a[0])


def _squared_norm(a: Multivector) -> float:
    return math.fsum((a * a).tolist())


def norm(a: Multivector) -> float:
    """Return the Euclidean norm of the coefficients of ``a``, from an exactly rounded sum."""
    return math.sqrt(_squared_norm(a))


def _checked_square(bivector: Multivector) -> tuple[float, float]:
    """Return (scalar part of B*B, squared norm of B) after checking B is a simple bivector."""
    if np.count_nonzero(bivector[_NON_BIVECTOR_BLADES]):
        raise ValueError("rotor needs a pure grade-2 bivector; project with grade(B, 2)")
    size = _squared_norm(bivector)
    if size == 0.0:
        raise ValueError("rotor needs a non-zero bivector")
    square = product_grades(bivector, bivector, (0, 4))
    if norm(square[_GRADE_BLADES[4]]) > SIMPLE_TOLERANCE * size:
        raise ValueError("rotor needs a simple bivector (B wedge B must vanish)")
    return float(square[0]), size


def rotor(bivector: Multivector, angle: float) -> Multivector:
    """Return ``exp(-angle/2 * B_hat)`` for a simple non-zero bivector B, in closed form.

    Elliptic (B*B < 0), hyperbolic (B*B > 0) and null (B*B = 0) planes are all handled;
    ValueError if B has non-bivector parts, is zero, or is not simple.
    """
    square, size = _checked_square(bivector)
    return simple_rotor(bivector, angle, square=square, size=size)


def simple_rotor(bivector: Multivector, angle: float, *, square: float, size: float) -> Multivector:
    """Return :func:`rotor` of a bivector B known to be simple, non-zero and pure grade 2,
    given the scalar part of B*B and B's squared norm (nothing is checked)."""
    half = 0.5 * angle
    if square < -NULL_TOLERANCE * size:
        out = bivector * (-math.sin(half) / math.sqrt(-square))
        out[0] = math.cos(half)
    elif square > NULL_TOLERANCE * size:
        out = bivector * (-math.sinh(half) / math.sqrt(square))
        out[0] = math.cosh(half)
    else:
        out = bivector * -half
        out[0] = 1.0
    return out


def plane_rotor(i: int, j: int, angle: float) -> Multivector:
    """Return ``rotor(e_i e_j, angle)`` for 1-based ``i < j``.

    In a Euclidean plane the rotor turns e_i toward e_j by ``angle`` under :func:`versor_apply`.
    """
    if not 1 <= i < j <= DIM:
        raise ValueError(f"plane_rotor needs 1 <= i < j <= {DIM}, got ({i}, {j})")
    return rotor(blade((1 << (i - 1)) | (1 << (j - 1))), angle)


def versor_apply(versor: Multivector, x: Multivector) -> Multivector:
    """Return the sandwich ``V X reverse(V)`` (the action of an even versor or rotor)."""
    return geometric_product(geometric_product(versor, x), reverse(versor))


SELF_REVERSE_GRADES = (0, 1, 4, 5)
"""The grades that ``reverse`` leaves unchanged; ``V reverse(V)`` equals its own reverse,
so it has no other parts."""


def versor_condition(versor: Multivector) -> float:
    """Return ``norm(V reverse(V) - 1)``: zero exactly when V is a unit even versor."""
    return norm(sandwich_grades(versor, 0, SELF_REVERSE_GRADES) - IDENTITY)


E_INF = _read_only(blade(0b01000) + blade(0b10000))
E_ORIGIN = _read_only(0.5 * (blade(0b10000) - blade(0b01000)))


def conformal_point(x: float, y: float, z: float) -> Multivector:
    """Return the null conformal embedding ``p + |p|^2/2 E_INF + E_ORIGIN`` of the point p."""
    out = vector([x, y, z, 0.0, 0.0])
    out += (0.5 * (x * x + y * y + z * z)) * E_INF
    out += E_ORIGIN
    return out


def cga_inner(x: Multivector, y: Multivector) -> float:
    """Return the metric inner product of the grade-1 parts of X and Y.

    For conformal points this is ``-|p - q|^2 / 2``.
    """
    return math.fsum((METRIC * x[_VECTOR_BLADES] * y[_VECTOR_BLADES]).tolist())
