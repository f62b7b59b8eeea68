"""Exact oracles for every algebra op, on multivectors with structure.

Each op's answer is compared with the exact value the suite computes
(:mod:`conformance.algebra_oracle`), within the spec's stated ULP bound, never through an
invariant a wrong operand order or a dropped grade would also keep: ``V X rev(V)`` and
``rev(V) X V`` both keep a vector's square, and every rotor has a versor condition near 0
whether it is computed from ``V rev(V)``, ``rev(V) V`` or the scalar part alone.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st

from conformance.algebra_oracle import (
    GRADES,
    SIZE,
    blade,
    exact_condition,
    exact_product,
    exact_sandwich,
    expected_rotor,
    grade_part,
    reverse,
    simplicity,
    squared_norm,
    vector,
    wedge,
    within_ulps,
)
from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient, EngineRefused
from conformance.multivectors import (
    EXPONENTS,
    GRADE_MIXES,
    grade_mix,
    multivectors,
    on_the_wire,
    plain_vectors,
    simple_bivectors,
    versors,
)
from conformance.requirements.registry import requirement

SPEC = "docs/spec.md § Algebra"
PRODUCT_ULPS = 64
"""A product coefficient may be off by 64 ULPs of the sum of its terms' magnitudes."""
SANDWICH_ULPS = 128
"""A sandwich coefficient may be off by 128 ULPs of the sum of its triple terms' magnitudes."""
CONDITION_ERROR = 2.0**-46
"""The versor condition may be off by this (64 ULPs of 1) times the norm of the residue's
term magnitudes plus the condition itself."""
ROTOR_ULPS = 8
"""A rotor coefficient may be off by 8 ULPs of max(1, |exact coefficient|)."""


def _numbers(value: object, what: str) -> list[float]:
    assert isinstance(value, list) and len(value) == SIZE, f"{what}: not a list of {SIZE} numbers"
    assert all(type(x) in (int, float) for x in value), f"{what}: a coefficient is not a number"
    return [float(x) for x in value]


def _call_mv(engine: EngineClient, op: str, args: dict[str, Any]) -> list[float]:
    return _numbers(engine.call(op, args).get("multivector"), op)


def _compare(
    got: list[float], exact: list[Fraction], size: list[Fraction], ulps: int, what: str
) -> None:
    for k in range(SIZE):
        assert within_ulps(got[k], exact[k], size[k], ulps), (
            f"{what}[{k}] = {got[k]!r}, exact {float(exact[k])!r} (allowed {ulps} ULPs of "
            f"{float(size[k]):.3g}, the sum of its terms' magnitudes)"
        )


def _mix_name(grades: tuple[int, ...]) -> str:
    return "+".join(str(r) for r in grades)


BLADE_COEFFICIENT = -2.75
"""The one coefficient of a single-blade case: neither 1 nor positive, so a shortcut for a
unit blade shows as well."""


def _blade_name(mask: int) -> str:
    return "e" + "".join(str(i + 1) for i in range(5) if mask >> i & 1) if mask else "1"


def _single_blades() -> list[tuple[str, list[float]]]:
    """Every basis blade alone, times :data:`BLADE_COEFFICIENT`: a shortcut an op takes for a
    multivector of one coefficient (one plane taken for a Euclidean one, say) shows here."""
    return [(_blade_name(m), blade(m, BLADE_COEFFICIENT)) for m in range(SIZE)]


def _mixes_alone(salt: str) -> Plan:
    """One multivector of every grade mix, and every basis blade alone."""
    cases = tuple(
        Case(grade_mix(mix, salt), (("grade mixes", _mix_name(mix)),)) for mix in GRADE_MIXES
    ) + tuple(Case(mv, (("single blades", name),)) for name, mv in _single_blades())
    return Plan(cases, (("grade mixes", len(GRADE_MIXES)), ("single blades", SIZE)))


def _mixes_with_all(salt: str) -> Plan:
    """A multivector of every grade mix as the first operand, beside one of every grade, and
    as the second, and every basis blade alone in either place: a shortcut an op takes for
    one operand of one grade, or of one coefficient, shows either way."""
    every = grade_mix(tuple(range(6)), f"{salt}|all")
    first = tuple(
        Case([grade_mix(mix, salt), every], (("first operand's grade mix", _mix_name(mix)),))
        for mix in GRADE_MIXES
    )
    second = tuple(
        Case(
            [every, grade_mix(mix, f"{salt}|second")],
            (("second operand's grade mix", _mix_name(mix)),),
        )
        for mix in GRADE_MIXES
    )
    blades = tuple(
        Case(pair, ((axis, name),))
        for name, mv in _single_blades()
        for axis, pair in (
            ("first operand a single blade", [mv, every]),
            ("second operand a single blade", [every, mv]),
        )
    )
    axes = ("first operand's grade mix", "second operand's grade mix")
    counts = tuple((axis, len(GRADE_MIXES)) for axis in axes)
    single = tuple((f"{which} operand a single blade", SIZE) for which in ("first", "second"))
    return Plan(first + second + blades, counts + single)


@requirement(
    "ALG-PROD-002",
    "product, reverse and grade are exact (the product within 64 ULPs) on multivectors of "
    "every grade mix and magnitude: null vectors, simple bivectors up to 2^100, odd and even "
    "versors, non-versors; whole coefficients sent as JSON integers too",
    family="algebra",
    capabilities=("algebra",),
    seed=f"{SPEC} (geometric product, reverse, grade projection); docs/protocol.md § Algebra "
    "ops (a multivector: 32 numbers, integers or not)",
    strategy=lambda ctx: st.tuples(on_the_wire(multivectors()), on_the_wire(multivectors())).map(
        list
    ),
    cover=lambda ctx: _mixes_with_all("ALG-PROD-002"),
)
def structured_products(engine: EngineClient, pair: list[Any]) -> None:
    a, b = pair
    got = _call_mv(engine, "algebra.product", {"a": a, "b": b})
    exact, sizes = exact_product(a, b)
    _compare(got, exact, sizes, PRODUCT_ULPS, "(a b)")
    floats = [float(x) for x in a]
    assert _call_mv(engine, "algebra.reverse", {"a": a}) == reverse(floats), "reverse(a)"
    for r in range(6):
        projected = _call_mv(engine, "algebra.grade", {"a": a, "grade": r})
        assert projected == grade_part(floats, r), f"grade {r} of a: {projected}"


@st.composite
def _rotors(draw: st.DrawFn) -> list[float]:
    """A rotor the suite builds in closed form (a unit versor up to rounding)."""
    bivector = draw(simple_bivectors(bits=10).filter(_clear_branch))
    return expected_rotor(bivector, draw(st.floats(-math.pi, math.pi)))


@requirement(
    "ALG-APPLY-001",
    "versor_apply is V X rev(V) within 128 ULPs of its triple terms' magnitudes, for any V "
    "(rotors, odd and even versors, null vectors, non-versors) and X of any grades",
    family="algebra",
    capabilities=("algebra",),
    seed=f"{SPEC} (versor apply V X rev(V)); docs/protocol.md § Algebra ops",
    strategy=lambda ctx: st.tuples(
        on_the_wire(st.one_of(multivectors(), _rotors())), on_the_wire(multivectors())
    ).map(list),
    cover=lambda ctx: _mixes_with_all("ALG-APPLY-001"),
)
def sandwich_exact(engine: EngineClient, pair: list[Any]) -> None:
    versor, x = pair
    got = _call_mv(engine, "algebra.versor_apply", {"versor": versor, "x": x})
    exact, sizes = exact_sandwich(versor, x)
    _compare(got, exact, sizes, SANDWICH_ULPS, "V X rev(V)")


@requirement(
    "ALG-COND-001",
    "versor_condition is √(Σ((V rev(V))[m] - δ_m0)²) within 2^-46 of its scale on any V, not "
    "only rotors: unit and scaled versors, odd versors, null vectors, non-versors",
    family="algebra",
    capabilities=("algebra",),
    seed=f"{SPEC} (versor condition, zero exactly for a unit versor)",
    strategy=lambda ctx: on_the_wire(st.one_of(multivectors(), _rotors(), versors(st.just(1)))),
    cover=lambda ctx: _mixes_alone("ALG-COND-001"),
)
def condition_exact(engine: EngineClient, versor: list[Any]) -> None:
    reported: object = engine.call("algebra.versor_condition", {"versor": versor}).get("condition")
    assert isinstance(reported, int | float) and not isinstance(reported, bool), (
        f"condition {reported!r} is not a number"
    )
    exact, scale = exact_condition(versor)
    allowed = CONDITION_ERROR * (scale + exact)
    assert abs(reported - exact) <= allowed, (
        f"versor_condition {reported!r}, exact {exact!r} (allowed {allowed:.3g})"
    )


NULL_RATIO = Fraction(1e-12)
SIMPLE_RATIO = Fraction(1e-10)


def _clear_branch(bivector: list[float]) -> bool:
    """σ = (B B)[0] is 0 or clearly past ±1e-12 |B|² (no case sits on a branch boundary).

    Only for bivectors whose square is exact in doubles: an engine's σ is then the exact
    one, so the closed form's tolerance holds on a hyperbolic plane too.
    """
    square = exact_product(bivector, bivector)[0][0]
    size = squared_norm(bivector)
    return square == 0 or abs(square) > 100 * NULL_RATIO * size


@st.composite
def _null_planes(draw: st.DrawFn) -> list[float]:
    """``x ∧ c e∞`` for a Euclidean x: a null plane (B B = 0), scaled."""
    x = draw(plain_vectors())
    bivector = wedge(vector([x[1], x[2], x[4], 0, 0]), vector([0, 0, 0, 1, 1]))
    if not any(bivector):
        bivector = wedge(vector([1, 0, 0, 0, 0]), vector([0, 0, 0, 1, 1]))
    scale = math.ldexp(1.0, draw(EXPONENTS))
    return [c * scale for c in bivector]


@st.composite
def _non_simple(draw: st.DrawFn) -> list[float]:
    """``a ∧ b + c ∧ d``, clearly not simple, scaled by ``2^-100..2^100``."""
    first, second = draw(simple_bivectors()), draw(simple_bivectors())
    total = [x + y for x, y in zip(first, second, strict=True)]
    if not any(total) or simplicity(total) <= 10**6 * SIMPLE_RATIO**2:
        total = [1.0 if m in (0b00011, 0b01100) else 0.0 for m in range(SIZE)]
    scale = math.ldexp(1.0, draw(EXPONENTS))
    return [c * scale for c in total]


@st.composite
def _stray_part(draw: st.DrawFn) -> list[float]:
    """A simple bivector plus one coefficient outside grade 2, 2^-60 of its size."""
    bivector = draw(simple_bivectors())
    stray = draw(st.sampled_from([m for m in range(SIZE) if GRADES[m] != 2]))
    bivector[stray] = math.ldexp(max(abs(c) for c in bivector), -60)
    return bivector


def _rotor_cases() -> st.SearchStrategy[dict[str, Any]]:
    accepted = st.one_of(
        simple_bivectors(bits=10).filter(_clear_branch),
        simple_bivectors(bits=20, size=4),
        _null_planes(),
    )
    refused = st.one_of(_non_simple(), _stray_part())
    angle = st.floats(-64.0, 64.0, allow_subnormal=False)
    return st.one_of(
        st.fixed_dictionaries({"kind": st.just("simple"), "bivector": accepted, "angle": angle}),
        st.fixed_dictionaries({"kind": st.just("refused"), "bivector": refused, "angle": angle}),
    )


E_INFINITY = vector([0, 0, 0, 1, 1])
ROTOR_KINDS: dict[str, tuple[str, list[float]]] = {
    "a plane holding e5": ("simple", wedge(vector([3, 1, 0, 0, 2]), vector([0, 2, 5, 1, 1]))),
    "a Euclidean plane whose square rounds": (
        "simple",
        wedge(vector([0.1, 0.7, 1 / 3, 0.3, 0]), vector([0.9, -0.2, 0.6, 1 / 7, 0])),
    ),
    "a null plane": ("simple", wedge(vector([1, 2, 0, 0, 0]), E_INFINITY)),
    "e12 + 5e-11 e34, on the simplicity bound": (
        "simple",
        [1.0 if m == 0b00011 else 1e-10 / 2 if m == 0b01100 else 0.0 for m in range(SIZE)],
    ),
    "e12 + 6e-11 e34, just past the simplicity bound": (
        "refused",
        [1.0 if m == 0b00011 else 6e-11 if m == 0b01100 else 0.0 for m in range(SIZE)],
    ),
    "e12 + 3.5e-11 (e34 + e35), two grade-4 parts inside the bound together (9.9e-11)": (
        "simple",
        [1.0 if m == 0b00011 else 3.5e-11 if m in (0b01100, 0b10100) else 0.0 for m in range(SIZE)],
    ),
    "e12 + 4e-11 (e34 + e35), each grade-4 part inside the bound, together past it": (
        "refused",
        [1.0 if m == 0b00011 else 4e-11 if m in (0b01100, 0b10100) else 0.0 for m in range(SIZE)],
    ),
    "e1 ^ (2^-20 e2 + e4 + e5), σ inside the null band (|σ| ≈ 4.5e-13 |B|²)": (
        "simple",
        wedge(vector([1, 0, 0, 0, 0]), vector([0, 2.0**-20, 0, 1, 1])),
    ),
    "e1 ^ (2^-19 e2 + e4 + e5), σ just past the null band (|σ| ≈ 1.8e-12 |B|²)": (
        "simple",
        wedge(vector([1, 0, 0, 0, 0]), vector([0, 2.0**-19, 0, 1, 1])),
    ),
    "a hyperbolic plane (σ = 40, |B|² = 50)": (
        "simple",
        wedge(vector([2, 1, 0, 0, 0]), vector([0, 0, 1, 0, 3])),
    ),
    "e1 ^ (1454 e2 + 1057058 e4 + 1057059 e5), σ = +1 inside the null band (≈ 4.5e-13 |B|²)": (
        "simple",
        wedge(vector([1, 0, 0, 0, 0]), vector([0, 1454, 0, 1057058, 1057059])),
    ),
    "e1 ^ (1024 e2 + 524288 e4 + 524289 e5), σ = +1 just past the null band (≈ 1.8e-12 |B|²)": (
        "simple",
        wedge(vector([1, 0, 0, 0, 0]), vector([0, 1024, 0, 524288, 524289])),
    ),
    **{
        f"the basis plane {_blade_name(m)} alone": ("simple", blade(m, BLADE_COEFFICIENT))
        for m in range(SIZE)
        if GRADES[m] == 2
    },
    "not simple": ("refused", [1.0 if m in (0b00011, 0b01100) else 0.0 for m in range(SIZE)]),
    "a part outside grade 2": (
        "refused",
        [1.0 if m == 0b00011 else 2.0**-60 if m == 0b00001 else 0.0 for m in range(SIZE)],
    ),
}
"""The bivectors of the coverage sample, each with what the spec makes of it. The two with parts
along e34 and e35 have ``<B B>_4 = 2a (e1234 + e1235)``: its Euclidean norm ``2a√2`` is what the
bound holds, not its largest part (``2a``) nor their sum (``4a``). On the bound, ``|<B B>_4| =
1e-10`` and ``|B|² = 1 + 2.5e-21``: simple in exact arithmetic, and in doubles the two sides are
equal ("at most" accepts it); 6e-11 is past it. The two planes by the null band have ``σ = -d²``
exactly in doubles (``d`` a power of two), on either side of ``1e-12 |B|²``: the null form
inside, the elliptic one just past; the two on its hyperbolic side have ``σ = +1`` exactly
(``(2k²+1)² - (2k)² - (2k²)² = 1``, every product and sum an integer below 2^53): the null form
inside, the hyperbolic one just past."""
ROTOR_SCALES = (-100, -40, 0, 40, 100)
"""Powers of two each is scaled by: an absolute tolerance fails at one end or the other."""


def _rotor_plan(ctx: object) -> Plan:
    cases = tuple(
        Case(
            {"kind": kind, "bivector": [math.ldexp(c, power) for c in bivector], "angle": 0.75},
            (("bivector kinds", name), ("scales", f"2^{power}")),
        )
        for name, (kind, bivector) in ROTOR_KINDS.items()
        for power in ROTOR_SCALES
    )
    return Plan(cases, (("bivector kinds", len(ROTOR_KINDS)), ("scales", len(ROTOR_SCALES))))


@requirement(
    "ALG-ROTOR-002",
    "algebra.rotor's rules are relative and exact: a simple bivector scaled by 2^-100..2^100 "
    "(any plane, each basis plane alone, a Euclidean one whose square rounds, a null plane) "
    "gives the closed form; "
    "a non-simple one at any scale, or one with a coefficient outside grade 2 of 2^-60 its "
    "size, is refused (field bivector)",
    family="algebra",
    capabilities=("algebra",),
    seed=f"{SPEC} (rotor: every coefficient outside grade 2 exactly 0; simple: "
    "|<B B>_4| <= 1e-10 |B|²; branches at ±1e-12 |B|²)",
    strategy=lambda ctx: _rotor_cases(),
    cover=_rotor_plan,
)
def rotor_scales(engine: EngineClient, case: dict[str, Any]) -> None:
    bivector, angle = case["bivector"], case["angle"]
    args = {"bivector": bivector, "angle": angle}
    if case["kind"] == "refused":
        try:
            engine.call("algebra.rotor", args, checked=False)
        except EngineRefused as refusal:
            assert (refusal.code, refusal.field) == ("PROTOCOL_BAD_ARGS", "bivector"), (
                f"refused with {refusal.code}, field {refusal.field!r}; the spec gives "
                "PROTOCOL_BAD_ARGS naming bivector"
            )
            return
        raise AssertionError("a bivector the spec refuses (not simple, or not pure) was answered")
    got = _call_mv(engine, "algebra.rotor", args)
    for k, exact in enumerate(expected_rotor(bivector, angle)):
        bound = ROTOR_ULPS * math.ulp(max(1.0, abs(exact)))
        assert abs(got[k] - exact) <= bound, f"rotor[{k}] = {got[k]!r}, closed form {exact!r}"
