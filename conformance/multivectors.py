"""Generated multivectors of Cl(4,1) with the structure the algebra ops must respect.

Every grade mix at any magnitude (each grade scaled by its own power of two, from
``2^-100`` to ``2^100``), null vectors (conformal points, ``e∞``, ``e₀``), simple
bivectors small and large, versors (products of one to four vectors: odd and even,
with null and negative-square factors), and non-versors (a versor plus a stray part).
A wrong operand order, a dropped or extra grade, or a sign convention of another
library changes these answers; a multivector with every coefficient filled may hide
such a mistake in rounding noise. Coefficients are dyadic (an integer of at most 21 bits
times a power of two), so generation and shrinking are exact on every machine, and
integral ones travel now and then as JSON integers (the protocol takes both).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from conformance.algebra_oracle import GRADES, SIZE, product, vector, wedge

MANTISSA = 2**20
EXPONENTS = st.integers(-100, 100)
"""Powers of two a grade or a whole multivector is scaled by: products of three stay
finite and normal, and every coefficient stays far below the 1e50 bound."""


def _dyadic(numerator: int, exponent: int) -> float:
    return math.ldexp(numerator, exponent)


def _as_wire(mv: list[float], integral: bool) -> list[Any]:
    """*mv* as JSON numbers: whole coefficients as integers when *integral*."""
    if not integral:
        return mv
    return [int(x) if x == int(x) and abs(x) < 2**63 else x for x in mv]


@st.composite
def graded(draw: st.DrawFn) -> list[float]:
    """Some grades (at least one), each filled at its own magnitude; others exactly 0."""
    grades = draw(st.sets(st.integers(0, 5), min_size=1, max_size=6))
    out = [0.0] * SIZE
    for r in sorted(grades):
        exponent = draw(EXPONENTS)
        for m in range(SIZE):
            if GRADES[m] == r:
                out[m] = _dyadic(draw(st.integers(-MANTISSA, MANTISSA)), exponent - 20)
    return out


def _coordinates(draw: st.DrawFn, size: int = 5, bits: int = 20) -> list[float]:
    exponent = draw(st.integers(-20, 20))
    return [_dyadic(draw(st.integers(-(2**bits), 2**bits)), exponent - bits) for _ in range(size)]


@st.composite
def plain_vectors(draw: st.DrawFn) -> list[float]:
    """A vector of five dyadic coordinates at one magnitude (its square of any sign)."""
    return vector(_coordinates(draw))


@st.composite
def null_vectors(draw: st.DrawFn) -> list[float]:
    """A null vector: a conformal point ``p + p²/2 e∞ + e₀``, ``e∞`` or ``e₀``, scaled."""
    kind = draw(st.sampled_from(("point", "infinity", "origin")))
    scale = math.ldexp(1.0, draw(st.integers(-40, 40)))
    if kind == "infinity":
        out = vector([0, 0, 0, 1, 1])
    elif kind == "origin":
        out = vector([0, 0, 0, -0.5, 0.5])
    else:
        x, y, z = (_dyadic(draw(st.integers(-4096, 4096)), -6) for _ in range(3))
        half = (x * x + y * y + z * z) / 2
        out = vector([x, y, z, half - 0.5, half + 0.5])
    return [c * scale for c in out]


@st.composite
def simple_bivectors(draw: st.DrawFn, bits: int = 20, size: int = 5) -> list[float]:
    """``a ∧ b`` of two vectors in the first *size* axes, scaled by ``2^-100..2^100``; never
    zero. With coordinates of at most 10 bits, ``B B`` is exact in doubles (summed in any
    order); with 20, its products round."""
    a = vector(_coordinates(draw, size, bits))
    b = vector(_coordinates(draw, size, bits))
    bivector = wedge(a, b)
    if not any(bivector):
        bivector = [1.0 if m == 0b00011 else 0.0 for m in range(SIZE)]
    scale = math.ldexp(1.0, draw(EXPONENTS))
    return [c * scale for c in bivector]


@st.composite
def versors(draw: st.DrawFn, count: st.SearchStrategy[int] | None = None) -> list[float]:
    """The product of one to four vectors (a null one now and then), exact and rounded
    once: an odd versor for an odd count, an even one otherwise."""
    factors = draw(count if count is not None else st.integers(1, 4))
    out: list[Fraction] = [Fraction(1)] + [Fraction(0)] * (SIZE - 1)
    for _ in range(factors):
        out = product(out, draw(st.one_of(plain_vectors(), null_vectors())))
    return [float(c) for c in out]


@st.composite
def non_versors(draw: st.DrawFn) -> list[float]:
    """A versor with a stray part of other grades added: ``V rev(V)`` is then not scalar."""
    base, stray = draw(versors()), draw(graded())
    return [x + y for x, y in zip(base, stray, strict=True)]


def multivectors() -> st.SearchStrategy[list[float]]:
    """Any of the structured families above."""
    return st.one_of(graded(), null_vectors(), simple_bivectors(), versors(), non_versors())


def on_the_wire(strategy: st.SearchStrategy[list[float]]) -> st.SearchStrategy[list[Any]]:
    """*strategy*'s multivectors, whole coefficients sent as JSON integers now and then."""
    return st.tuples(strategy, st.booleans()).map(lambda pair: _as_wire(*pair))


GRADE_MIXES: tuple[tuple[int, ...], ...] = tuple(
    mix for count in range(1, 7) for mix in itertools.combinations(range(6), count)
)
"""Every non-empty set of grades 0..5 (63): the grade mixes a coverage plan tries one by one,
so a part an op drops for one mix (grade 1 of ``V rev(V)`` exists only when V mixes odd and
even grades) is never left to chance."""


def grade_mix(grades: tuple[int, ...], salt: str) -> list[float]:
    """A multivector with a non-zero coefficient, a multiple of 1/16 in [-8, 8], on every blade
    of *grades* and 0 elsewhere; the same for the same *salt* on every machine."""
    out = []
    for m in range(SIZE):
        if GRADES[m] not in grades:
            out.append(0.0)
            continue
        digest = hashlib.sha256(f"{salt}|{m}".encode()).digest()
        magnitude = 1 + digest[0] % 128
        out.append(_dyadic(magnitude if digest[1] % 2 else -magnitude, -4))
    return out
