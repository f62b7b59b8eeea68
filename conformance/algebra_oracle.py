"""The suite's own exact oracle of Cl(4,1), written from docs/spec.md § Algebra.

Blade ``m`` has bitmask ``m`` (bit i set: ``e_{i+1}`` is a factor), ``e1..e4`` square to
+1 and ``e5`` to -1, and ``e_A e_B = sign(A, B) e_{A xor B}``. Every operation here is
exact: inputs (doubles or fractions) are read as rationals, products are summed in
integers, and a result is rounded at most once, so each tolerance of the spec is
measured against the true value. Each result comes with its *size*: per coefficient,
the sum of its terms' magnitudes, the scale the spec's ULP bounds are stated in.
``lanes/algebra/test_independent_oracle.py`` cross-checks every function here against
an independent geometric-algebra library (kingdon).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

SIZE = 32
METRIC = (1, 1, 1, 1, -1)

Number = float | int | Fraction
"""A coefficient: a double from the wire, an integer, or an exact rational."""


def _factors(mask: int) -> list[int]:
    return [i for i in range(5) if mask >> i & 1]


def blade_sign(left: int, right: int) -> int:
    """``e_left e_right = blade_sign * e_(left ^ right)``: swaps to sort, then the metric."""
    swaps = sum(1 for i in _factors(left) for j in _factors(right) if i > j)
    sign = -1 if swaps % 2 else 1
    for i in _factors(left & right):
        sign *= METRIC[i]
    return sign


SIGNS = tuple(tuple(blade_sign(a, b) for b in range(SIZE)) for a in range(SIZE))
GRADES = tuple(bin(m).count("1") for m in range(SIZE))
REVERSE = tuple(-1 if (g * (g - 1) // 2) % 2 else 1 for g in GRADES)


def _integers(values: Sequence[Number]) -> tuple[list[int], int]:
    """Integers n and one denominator d with ``values[k] == n[k] / d`` exactly."""
    ratios = [Fraction(x).as_integer_ratio() for x in values]
    denominator = math.lcm(*(d for _, d in ratios))
    return [n * (denominator // d) for n, d in ratios], denominator


def exact_product(
    a: Sequence[Number], b: Sequence[Number]
) -> tuple[list[Fraction], list[Fraction]]:
    """The exact product ``a b`` and, per coefficient, the sum of its terms' magnitudes.

    Summed in integers over the product of the two common denominators, so each result
    is the exact rational, built once.
    """
    out, size = [0] * SIZE, [0] * SIZE
    ia, da = _integers(a)
    ib, db = _integers(b)
    for i, x in enumerate(ia):
        if x:
            for j, y in enumerate(ib):
                if y:
                    term = x * y
                    out[i ^ j] += SIGNS[i][j] * term
                    size[i ^ j] += abs(term)
    scale = da * db
    return [Fraction(v, scale) for v in out], [Fraction(v, scale) for v in size]


def product(a: Sequence[Number], b: Sequence[Number]) -> list[Fraction]:
    """The exact product of two multivectors."""
    return exact_product(a, b)[0]


def reverse(a: Sequence[float]) -> list[float]:
    """Each grade-r coefficient times ``(-1)^(r(r-1)/2)``."""
    return [REVERSE[m] * x for m, x in enumerate(a)]


def grade_part(a: Sequence[float], r: int) -> list[float]:
    """The grade-r coefficients of *a*, every other one 0."""
    return [x if GRADES[m] == r else 0.0 for m, x in enumerate(a)]


def exact_sandwich(
    v: Sequence[Number], x: Sequence[Number]
) -> tuple[list[Fraction], list[Fraction]]:
    """The exact ``V X rev(V)`` and, per coefficient, the sum of its triple terms' magnitudes
    ``Σ |V_i X_j V_l|`` (whatever the grouping, an engine sums exactly these terms)."""
    left, left_size = exact_product(v, x)
    out = product(left, [REVERSE[m] * Fraction(c) for m, c in enumerate(v)])
    size = exact_product(left_size, [abs(Fraction(c)) for c in v])[1]
    return out, size


def exact_residue(v: Sequence[Number]) -> tuple[list[Fraction], list[Fraction]]:
    """``V rev(V) - 1`` exactly, and per coefficient the magnitudes summed to get it (the 1
    included)."""
    vv, size = exact_product(v, [REVERSE[m] * Fraction(c) for m, c in enumerate(v)])
    vv[0] -= 1
    size[0] += 1
    return vv, size


def squared_norm(mv: Sequence[Number]) -> Fraction:
    """``Σ_m mv[m]²`` exactly."""
    return sum((Fraction(x) * Fraction(x) for x in mv), Fraction(0))


def _root_of(square: Fraction) -> float:
    """``sqrt`` of an exact non-negative rational, within an ULP or two."""
    return math.sqrt(float(square))


def exact_condition(v: Sequence[Number]) -> tuple[float, float]:
    """The versor condition ``√(Σ_m ((V rev(V))[m] - δ_m0)²)`` from the exact residue,
    rounded once at the end, and the Euclidean norm of the residue's magnitudes."""
    residue, size = exact_residue(v)
    return _root_of(squared_norm(residue)), _root_of(squared_norm(size))


def condition(v: Sequence[Number]) -> float:
    """``norm(V reverse(V) - 1)`` from the exact product, rounded once at the end."""
    return exact_condition(v)[0]


def blade(mask: int, coeff: float = 1.0) -> list[float]:
    """``coeff`` times the basis blade *mask*."""
    out = [0.0] * SIZE
    out[mask] = coeff
    return out


def vector(coords: Sequence[float]) -> list[float]:
    """``Σ coords[i] e_{i+1}`` (up to five coordinates)."""
    out = [0.0] * SIZE
    for i, c in enumerate(coords):
        out[1 << i] = float(c)
    return out


def wedge(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """``(a b - b a) / 2`` for vectors a and b: their bivector, whose ``e_i e_j`` (i < j)
    coefficient is ``a_i b_j - a_j b_i`` (the metric parts cancel), taken exactly and
    rounded once."""
    out = [0.0] * SIZE
    for i in range(5):
        for j in range(i + 1, 5):
            left, right = Fraction(a[1 << i]), Fraction(b[1 << j])
            out[1 << i | 1 << j] = float(left * right - Fraction(a[1 << j]) * Fraction(b[1 << i]))
    return out


def expected_rotor(bivector: Sequence[float], angle: float) -> list[float]:
    """``exp(-angle/2 * B_hat)`` in closed form, with ``σ = (B B)[0]`` taken exactly.

    The branch follows the spec: elliptic when ``σ < -1e-12 |B|²``, hyperbolic when
    ``σ > 1e-12 |B|²``, null otherwise.
    """
    square = product(bivector, bivector)[0]
    size = squared_norm(bivector)
    half = angle / 2
    if square < -Fraction(1e-12) * size:
        factor, scalar = -math.sin(half) / math.sqrt(-float(square)), math.cos(half)
    elif square > Fraction(1e-12) * size:
        factor, scalar = -math.sinh(half) / math.sqrt(float(square)), math.cosh(half)
    else:
        factor, scalar = -half, 1.0
    out = [x * factor for x in bivector]
    out[0] = scalar
    return out


def simplicity(bivector: Sequence[float]) -> Fraction:
    """``(|<B B>_4| / |B|²)²`` exactly: the square of the spec's simplicity ratio."""
    square = product(bivector, bivector)
    four = sum((c * c for m, c in enumerate(square) if GRADES[m] == 4), Fraction(0))
    size = squared_norm(bivector)
    return four / (size * size)


def within_ulps(got: float, exact: Fraction, size: Fraction, ulps: int) -> bool:
    """``|got - exact| <= ulps * ulp(size)``; exact equality when *size* is 0."""
    bound = ulps * math.ulp(float(size)) if size else 0.0
    return abs(Fraction(got) - exact) <= Fraction(bound)
