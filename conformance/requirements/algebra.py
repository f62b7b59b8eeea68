"""The algebra substrate: Cl(4,1) products, reversion, grades, rotors and versor closure.

Every expected value comes from the suite's own exact oracle
(:mod:`conformance.algebra_oracle`), written from docs/spec.md § Algebra.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance.algebra_oracle import (
    GRADES,
    METRIC,
    SIGNS,
    SIZE,
    condition,
    exact_product,
    expected_rotor,
    reverse,
    wedge,
)
from conformance.algebra_oracle import blade as _blade
from conformance.algebra_oracle import vector as _vector
from conformance.driver import many
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement

SPEC = "docs/spec.md § Algebra (Cl(4,1) substrate parity)"
CLOSURE = "L10 brief § Decision 0 (versor_condition < 1e-6 by construction)"
PRODUCT_ULPS = 64
"""A product coefficient may be off by 64 ULPs of the sum of its terms' magnitudes."""

ROTOR_ULPS = 8
"""A rotor coefficient may be off by 8 ULPs of max(1, |exact coefficient|)."""

CONDITION_BOUND = 1e-6
"""docs/spec.md § Normative formulas: the closure bound on every composed versor."""


def _floats(mv: object, what: str) -> list[float]:
    assert isinstance(mv, list) and len(mv) == SIZE, f"{what}: not a list of {SIZE} numbers"
    assert all(type(x) in (int, float) for x in mv), f"{what}: a coefficient is not a number"
    return [float(x) for x in mv]


def _mv(result: dict[str, Any], what: str) -> list[float]:
    return _floats(result.get("multivector"), what)


# Strategies ---------------------------------------------------------------------------------

coefficients = st.one_of(
    st.just(0.0),
    st.floats(-4.0, 4.0, allow_subnormal=False),
    st.floats(-1e6, 1e6, allow_subnormal=False),
)
float_mvs = st.lists(coefficients, min_size=SIZE, max_size=SIZE)
int_mvs = st.lists(st.integers(-8, 8), min_size=SIZE, max_size=SIZE)
small_coords = st.lists(st.integers(-4, 4), min_size=5, max_size=5)


@st.composite
def simple_bivectors(draw: st.DrawFn, euclidean: bool = False) -> list[float]:
    """``a ^ b`` for integer vectors (a null plane now and then), never zero."""
    if not euclidean and draw(st.integers(0, 3)) == 0:
        a = draw(st.lists(st.integers(-4, 4), min_size=3, max_size=3))
        t, c = draw(st.integers(-4, 4)), draw(st.integers(1, 3))
        bivector = wedge(_vector([*a, t, t]), _vector([0, 0, 0, c, c]))
    else:
        size = 4 if euclidean else 5
        a = draw(st.lists(st.integers(-4, 4), min_size=size, max_size=size))
        b = draw(st.lists(st.integers(-4, 4), min_size=size, max_size=size))
        bivector = wedge(_vector(a), _vector(b))
    if not any(bivector):
        bivector = _blade(0b00011)
    return bivector


angles = st.floats(-8.0, 8.0, allow_subnormal=False)


def _chain_step(seed: int) -> list[Any]:
    """One rotor generator from *seed*: twice a Euclidean plane with an angle in
    [-pi, pi], once a plane of the whole space (a null plane now and then) with a small
    boost; the same on every machine (``random.Random`` of an integer seed)."""
    rng = random.Random(seed)
    coords = [rng.randint(-4, 4) for _ in range(10)]
    if rng.randrange(3) < 2:
        bivector = wedge(_vector([*coords[:4], 0]), _vector([*coords[4:8], 0]))
        angle = rng.uniform(-math.pi, math.pi)
    else:
        if rng.randrange(4) == 0:
            t, c = coords[3], rng.randint(1, 3)
            bivector = wedge(_vector([*coords[:3], t, t]), _vector([0, 0, 0, c, c]))
        else:
            bivector = wedge(_vector(coords[:5]), _vector(coords[5:]))
        angle = rng.uniform(-1 / 32, 1 / 32)
    return [bivector if any(bivector) else _blade(0b00011), angle]


@st.composite
def chains(draw: st.DrawFn) -> dict[str, Any]:
    """A long chain of rotor generators, one integer seed each (a long walk shrinks in
    seconds that way), and a vector to carry through it."""
    seeds = draw(st.lists(st.integers(0, 2**32 - 1), min_size=48, max_size=96))
    return {"steps": [_chain_step(seed) for seed in seeds], "x": _vector(draw(small_coords))}


# Coverage plans -----------------------------------------------------------------------------

PARITIES = ("even", "odd", "mixed")
"""The parts of a multivector the docs tell apart by grade: the even versors' grades 0, 2
and 4, the odd grades 1, 3 and 5, and both. A random dense multivector is always mixed."""


def _int_mv(parity: str, salt: int) -> list[int]:
    """A fixed integer multivector of *parity*, non-zero in every blade it may hold."""
    keep = {"even": (0, 2, 4), "odd": (1, 3, 5), "mixed": (0, 1, 2, 3, 4, 5)}[parity]
    return [((5 * m + 3 * salt) % 15) - 7 or 8 if GRADES[m] in keep else 0 for m in range(SIZE)]


def _int_homogeneous(r: int, salt: int) -> list[int]:
    """A fixed integer multivector of grade *r* alone, non-zero in each of its blades."""
    return [((3 * m + salt) % 13) - 6 or 7 if GRADES[m] == r else 0 for m in range(SIZE)]


def _parity_triples(ctx: object) -> coverage.Plan:
    """a, b and c each even, odd or mixed: 27 triples, each parity in each place."""
    cases = tuple(
        coverage.Case(
            [_int_mv(pa, 1), _int_mv(pb, 2), _int_mv(pc, 3)],
            (("operand parities", f"{pa} {pb} {pc}"),),
        )
        for pa in PARITIES
        for pb in PARITIES
        for pc in PARITIES
    )
    return coverage.Plan(cases, (("operand parities", len(PARITIES) ** 3),))


def _grade_pairs(ctx: object) -> coverage.Plan:
    """a of one grade and b of one grade, every pair of the six grades: each sign of the
    reverse, (-1)^(r(r-1)/2), on each side of every product."""
    cases = tuple(
        coverage.Case(
            [_int_homogeneous(r, 1), _int_homogeneous(s, 4)], (("grade pairs", f"{r} {s}"),)
        )
        for r in range(6)
        for s in range(6)
    )
    return coverage.Plan(cases, (("grade pairs", 36),))


# Requirements --------------------------------------------------------------------------------


@requirement(
    "ALG-TABLE-001",
    "every product of two basis blades is exactly +-1 times the blade of their xor (1024 pairs)",
    family="algebra",
    capabilities=("algebra",),
    seed=SPEC,
)
def basis_table(engine: EngineClient, _: object) -> None:
    pairs = [(i, j) for i in range(SIZE) for j in range(SIZE)]
    args = [{"a": _blade(i), "b": _blade(j)} for i, j in pairs]
    for (i, j), result in zip(pairs, many(engine, "algebra.product", args), strict=True):
        expected = _blade(i ^ j, float(SIGNS[i][j]))
        got = _mv(result, f"e[{i}] e[{j}]")
        assert got == expected, f"blade {i} times blade {j}: {got}, spec gives {expected}"


def _ulp_check(got: float, exact: Fraction, size: Fraction, ulps: int, where: str) -> None:
    bound = ulps * math.ulp(float(size)) if size else 0.0
    error = abs(Fraction(got) - exact)
    assert error <= Fraction(bound), (
        f"{where}: {got!r} is off the exact {float(exact)!r} by {float(error):.3g} "
        f"(allowed {ulps} ULPs of {float(size):.3g}: {bound:.3g})"
    )


def _table_rows(ctx: object) -> coverage.Plan:
    """Each basis blade times a multivector whose coefficients are distinct powers of two:
    every entry of the product's sign table shows exactly, one row per case."""
    powers = [float(2**j) for j in range(SIZE)]
    cases = tuple(
        coverage.Case(
            [[1.0 if m == i else 0.0 for m in range(SIZE)], powers], (("table rows", str(i)),)
        )
        for i in range(SIZE)
    )
    return coverage.Plan(cases, (("table rows", SIZE),))


@requirement(
    "ALG-PROD-001",
    "the geometric product is within 64 ULPs of the exact table; reverse and grade "
    "projection are exact",
    family="algebra",
    capabilities=("algebra",),
    seed=SPEC,
    strategy=lambda ctx: st.tuples(float_mvs, float_mvs).map(list),
    cover=_table_rows,
)
def product_within_ulps(engine: EngineClient, pair: list[Any]) -> None:
    a, b = pair
    got = _mv(engine.call("algebra.product", {"a": a, "b": b}), "product")
    exact, sizes = exact_product(a, b)
    for k in range(SIZE):
        _ulp_check(got[k], exact[k], sizes[k], PRODUCT_ULPS, f"(a b)[{k}]")
    assert _mv(engine.call("algebra.reverse", {"a": a}), "reverse") == reverse(a), "reverse(a)"
    for r in range(6):
        projected = _mv(engine.call("algebra.grade", {"a": a, "grade": r}), f"grade {r}")
        expected = [x if GRADES[m] == r else 0.0 for m, x in enumerate(a)]
        assert projected == expected, f"grade({r}) of a: {projected}, expected {expected}"


@requirement(
    "ALG-LAW-001",
    "the product is associative and distributes over addition, exactly on integer multivectors",
    family="algebra",
    capabilities=("algebra",),
    seed=SPEC,
    strategy=lambda ctx: st.tuples(int_mvs, int_mvs, int_mvs).map(list),
    cover=_parity_triples,
)
def associative_and_distributive(engine: EngineClient, triple: list[Any]) -> None:
    a, b, c = ([float(x) for x in mv] for mv in triple)

    def mul(x: list[float], y: list[float]) -> list[float]:
        return _mv(engine.call("algebra.product", {"a": x, "b": y}), "product")

    left, right = mul(mul(a, b), c), mul(a, mul(b, c))
    assert left == right, f"(a b) c != a (b c): {left} vs {right}"
    summed = [x + y for x, y in zip(b, c, strict=True)]
    spread = [x + y for x, y in zip(mul(a, b), mul(a, c), strict=True)]
    assert mul(a, summed) == spread, "a (b + c) != a b + a c"
    spread = [x + y for x, y in zip(mul(b, a), mul(c, a), strict=True)]
    assert mul(summed, a) == spread, "(b + c) a != b a + c a"


@requirement(
    "ALG-LAW-002",
    "reversion is an involutive anti-automorphism: rev(a b) = rev(b) rev(a), exactly on "
    "integer multivectors",
    family="algebra",
    capabilities=("algebra",),
    seed=SPEC,
    strategy=lambda ctx: st.tuples(int_mvs, int_mvs).map(list),
    cover=_grade_pairs,
)
def reverse_anti_automorphism(engine: EngineClient, pair: list[Any]) -> None:
    a, b = ([float(x) for x in mv] for mv in pair)

    def rev(x: list[float]) -> list[float]:
        return _mv(engine.call("algebra.reverse", {"a": x}), "reverse")

    def mul(x: list[float], y: list[float]) -> list[float]:
        return _mv(engine.call("algebra.product", {"a": x, "b": y}), "product")

    assert rev(rev(a)) == a, "rev(rev(a)) != a"
    left, right = rev(mul(a, b)), mul(rev(b), rev(a))
    assert left == right, f"rev(a b) != rev(b) rev(a): {left} vs {right}"


def _refused(engine: EngineClient, bivector: list[float], why: str) -> None:
    try:
        engine.call("algebra.rotor", {"bivector": bivector, "angle": 1.0})
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_BAD_ARGS", f"{why}: refused with {refusal.code}"
        assert refusal.field == "bivector", f"{why}: field {refusal.field!r}"
    else:
        raise AssertionError(f"{why}: algebra.rotor answered ok")


@requirement(
    "ALG-ROTOR-001",
    "algebra.rotor gives exp(-angle/2 B_hat) within 8 ULPs, its versor condition is at "
    "rounding level, and bad bivectors are refused",
    family="algebra",
    capabilities=("algebra",),
    seed=SPEC,
    strategy=lambda ctx: st.tuples(simple_bivectors(), angles).map(list),
)
def rotor_closed_form(engine: EngineClient, case: list[Any]) -> None:
    bivector, angle = case
    got = _mv(engine.call("algebra.rotor", {"bivector": bivector, "angle": angle}), "rotor")
    for k, exact in enumerate(expected_rotor(bivector, angle)):
        bound = ROTOR_ULPS * math.ulp(max(1.0, abs(exact)))
        assert abs(got[k] - exact) <= bound, f"rotor[{k}] = {got[k]!r}, closed form {exact!r}"
    scale = max(1.0, sum(x * x for x in got))
    reported: object = engine.call("algebra.versor_condition", {"versor": got}).get("condition")
    assert isinstance(reported, int | float) and not isinstance(reported, bool), (
        f"versor_condition {reported!r} is not a number"
    )
    own = condition(got)
    assert own <= 1e-12 * scale, f"rotor is not a unit versor: condition {own:.3g}"
    assert abs(reported - own) <= 1e-12 * scale, f"versor_condition {reported!r}, exact {own!r}"
    _refused(engine, [0.0] * SIZE, "the zero bivector")
    _refused(engine, _blade(0b00001), "a vector")
    _refused(engine, [x + y for x, y in zip(_blade(3), _blade(12), strict=True)], "e12 + e34")


@requirement(
    "ALG-CLOSE-001",
    "a chain of 48 to 96 composed rotors keeps versor_condition below 1e-06 at every step, "
    "and its sandwich keeps a vector a vector of the same square",
    family="algebra",
    capabilities=("algebra",),
    seed=CLOSURE,
    strategy=lambda ctx: chains(),
    max_examples=10,
)
def versor_chain_closure(engine: EngineClient, chain: dict[str, Any]) -> None:
    args = [{"bivector": b, "angle": angle} for b, angle in chain["steps"]]
    rotors = [_mv(r, "rotor") for r in many(engine, "algebra.rotor", args)]
    versor = _blade(0)
    for step, r in enumerate(rotors):
        versor = _mv(engine.call("algebra.product", {"a": versor, "b": r}), "product")
        reported = engine.call("algebra.versor_condition", {"versor": versor})["condition"]
        assert reported < CONDITION_BOUND, f"step {step}: versor_condition {reported!r}"
    own = condition(versor)
    assert own < CONDITION_BOUND, f"the composed versor has exact condition {own:.3g}"
    x = chain["x"]
    y = _mv(engine.call("algebra.versor_apply", {"versor": versor, "x": x}), "versor_apply")
    scale = max(1.0, sum(c * c for c in y))
    stray = max(abs(c) for m, c in enumerate(y) if GRADES[m] != 1)
    assert stray <= CONDITION_BOUND * scale, f"V x rev(V) has non-vector parts up to {stray:.3g}"
    square_x = sum(METRIC[i] * x[1 << i] ** 2 for i in range(5))
    square_y = sum(METRIC[i] * y[1 << i] ** 2 for i in range(5))
    assert abs(square_x - square_y) <= CONDITION_BOUND * scale, (
        f"the sandwich changed the vector's square: {square_x} -> {square_y}"
    )


ZERO: list[float] = [0.0] * SIZE
E12 = [1.0 if m == 0b00011 else 0.0 for m in range(SIZE)]
BAD_ALGEBRA_ARGS: dict[str, tuple[str, EncodableObject, str]] = {
    "grade 6": ("algebra.grade", {"a": ZERO, "grade": 6}, "grade"),
    "grade -1": ("algebra.grade", {"a": ZERO, "grade": -1}, "grade"),
    "grade true": ("algebra.grade", {"a": ZERO, "grade": True}, "grade"),
    "grade 2.0": ("algebra.grade", {"a": ZERO, "grade": 2.0}, "grade"),
    "grade a string": ("algebra.grade", {"a": ZERO, "grade": "2"}, "grade"),
    "grade null": ("algebra.grade", {"a": ZERO, "grade": None}, "grade"),
    "a of 31 numbers": ("algebra.reverse", {"a": ZERO[:31]}, "a"),
    "a of 33 numbers": ("algebra.grade", {"a": [*ZERO, 0.0], "grade": 1}, "a"),
    "b holding a string": ("algebra.product", {"a": ZERO, "b": [*ZERO[:31], "1"]}, "b"),
    "b holding true": ("algebra.product", {"a": ZERO, "b": [True, *ZERO[1:]]}, "b"),
    "x past 1e50": ("algebra.versor_apply", {"versor": E12, "x": [1e51, *ZERO[1:]]}, "x"),
    "versor not a list": ("algebra.versor_condition", {"versor": {"0": 1}}, "versor"),
    "angle past 64": ("algebra.rotor", {"bivector": E12, "angle": 64.5}, "angle"),
    "angle one double past 64": (
        "algebra.rotor",
        {"bivector": E12, "angle": math.nextafter(64.0, math.inf)},
        "angle",
    ),
    "angle past -64": ("algebra.rotor", {"bivector": E12, "angle": -64.5}, "angle"),
    "angle one double past -64": (
        "algebra.rotor",
        {"bivector": E12, "angle": math.nextafter(-64.0, -math.inf)},
        "angle",
    ),
    "b one double past 1e50": (
        "algebra.product",
        {"a": ZERO, "b": [*ZERO[:5], math.nextafter(1e50, math.inf), *ZERO[6:]]},
        "b",
    ),
    "a past -1e50": ("algebra.reverse", {"a": [*ZERO[:31], -1e51]}, "a"),
    "bivector one double past -1e50": (
        "algebra.rotor",
        {"bivector": [*E12[:3], math.nextafter(-1e50, -math.inf), *E12[4:]], "angle": 1.0},
        "bivector",
    ),
    "angle a string": ("algebra.rotor", {"bivector": E12, "angle": "1"}, "angle"),
}
"""Malformed algebra arguments, by what is wrong, with the argument each must name."""
AT_THE_BOUNDS: dict[str, tuple[str, EncodableObject]] = {
    "a at 1e50": ("algebra.reverse", {"a": [1e50, *ZERO[1:]]}),
    "a at -1e50": ("algebra.reverse", {"a": [*ZERO[:31], -1e50]}),
    "angle 64": ("algebra.rotor", {"bivector": E12, "angle": 64.0}),
    "angle -64": ("algebra.rotor", {"bivector": E12, "angle": -64}),
    "grade 0": ("algebra.grade", {"a": E12, "grade": 0}),
    "grade 5": ("algebra.grade", {"a": E12, "grade": 5}),
}
"""Arguments exactly at a bound: valid, so each must be answered."""


@requirement(
    "ALG-ARGS-001",
    "a malformed algebra argument (a multivector not 32 finite numbers of magnitude <= 1e50, "
    "a grade not an integer in 0..5, an angle past 64) is refused with PROTOCOL_BAD_ARGS "
    "naming it; arguments exactly at a bound (magnitude 1e50, |angle| 64) are answered",
    family="algebra",
    capabilities=("algebra",),
    seed="docs/protocol.md § Algebra ops",
    strategy=lambda ctx: st.sampled_from(sorted([*BAD_ALGEBRA_ARGS, *AT_THE_BOUNDS])),
    cover=coverage.each("algebra arguments", sorted([*BAD_ALGEBRA_ARGS, *AT_THE_BOUNDS])),
)
def bad_algebra_args(engine: EngineClient, name: str) -> None:
    if name in AT_THE_BOUNDS:
        op, valid = AT_THE_BOUNDS[name]
        try:
            engine.call(op, valid)
        except EngineRefused as refusal:
            raise AssertionError(f"{name}: {op} refused a valid argument: {refusal}") from None
        return
    op, args, field = BAD_ALGEBRA_ARGS[name]
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_BAD_ARGS", f"{name}: {op} refused with {refusal.code}"
        assert refusal.field == field, f"{name}: field {refusal.field!r}, expected {field!r}"
    else:
        raise AssertionError(f"{name}: {op} answered ok")
