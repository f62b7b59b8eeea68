"""Laws of Cl(4,1): the product table, closed-form rotors, conformal points, lemma versors."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from reference.algebra import (
    BLADE_NAMES,
    DIM,
    E_INF,
    E_ORIGIN,
    GRADE,
    IDENTITY,
    METRIC,
    PRODUCT_SIGN,
    REVERSE_SIGN,
    SIZE,
    blade,
    cga_inner,
    conformal_point,
    geometric_product,
    grade,
    norm,
    plane_rotor,
    reverse,
    rotor,
    scalar,
    scalar_part,
    vector,
    versor_apply,
    versor_condition,
)
from reference.canonical import digest, quantize
from reference.lexicon.versors import LEMMA_VERSOR_CHAIN_LENGTH, lemma_versor

coefficients = st.floats(-8.0, 8.0, allow_nan=False, allow_infinity=False)
multivectors = st.lists(coefficients, min_size=SIZE, max_size=SIZE).map(np.array)
angles = st.floats(-math.pi, math.pi, allow_nan=False)
coordinates = st.floats(-10.0, 10.0, allow_nan=False)
points = st.tuples(coordinates, coordinates, coordinates)


def euclidean_vectors(span: int = 4, bound: float = 8.0) -> st.SearchStrategy[np.ndarray]:
    """Grade-1 multivectors with random coefficients on e1..e_span."""
    parts = st.lists(st.floats(-bound, bound, allow_nan=False), min_size=span, max_size=span)
    return parts.map(lambda c: vector(list(c) + [0.0] * (DIM - span)))


def wedge(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The outer product of two vectors: the grade-2 part of their geometric product."""
    return grade(geometric_product(u, v), 2)


def euclidean_rotors(span: int = 4) -> st.SearchStrategy[np.ndarray]:
    """Products of up to four rotors in random planes among e1..e_span."""
    planes = list(itertools.combinations(range(1, span + 1), 2))
    factors = st.lists(st.tuples(st.sampled_from(planes), angles), min_size=1, max_size=4)

    def compose(chain: list[tuple[tuple[int, int], float]]) -> np.ndarray:
        out = IDENTITY
        for (i, j), angle in chain:
            out = geometric_product(out, plane_rotor(i, j, angle))
        return out

    return factors.map(compose)


def naive_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Geometric product by sorting factor lists with adjacent swaps and contracting pairs."""
    out = np.zeros(SIZE)
    for left, right in itertools.product(range(SIZE), repeat=2):
        if a[left] == 0.0 or b[right] == 0.0:
            continue
        mask, sign = naive_blade_product(left, right)
        out[mask] += sign * a[left] * b[right]
    return out


def naive_blade_product(left: int, right: int) -> tuple[int, float]:
    """Return (mask, sign) of blade(left) * blade(right), counting swaps one at a time."""
    factors = [i for i in range(DIM) if left >> i & 1] + [i for i in range(DIM) if right >> i & 1]
    sign = 1.0
    for end in range(len(factors) - 1, 0, -1):
        for k in range(end):
            if factors[k] > factors[k + 1]:
                factors[k], factors[k + 1] = factors[k + 1], factors[k]
                sign = -sign
    kept: list[int] = []
    for factor in factors:
        if kept and kept[-1] == factor:
            kept.pop()
            sign *= METRIC[factor]
        else:
            kept.append(factor)
    return sum(1 << i for i in kept), sign


def assert_close(actual: np.ndarray, expected: np.ndarray, scale: float = 1.0) -> None:
    """Coefficientwise closeness with a tolerance proportional to ``scale``."""
    np.testing.assert_allclose(actual, expected, rtol=0.0, atol=1e-12 * max(1.0, scale))


def test_basis_tables_describe_blades() -> None:
    assert SIZE == 32 and DIM == 5
    assert BLADE_NAMES[0] == "1" and BLADE_NAMES[0b11] == "e12" and BLADE_NAMES[31] == "e12345"
    assert [int(r) for r in GRADE] == [bin(mask).count("1") for mask in range(SIZE)]
    for mask in range(SIZE):
        r = int(GRADE[mask])
        assert REVERSE_SIGN[mask] == (-1.0) ** (r * (r - 1) // 2)
    for table in (GRADE, METRIC, PRODUCT_SIGN, REVERSE_SIGN, IDENTITY, E_INF, E_ORIGIN):
        assert not table.flags.writeable


def test_product_table_matches_naive_swaps_on_every_blade_pair() -> None:
    for left, right in itertools.product(range(SIZE), repeat=2):
        expected = np.zeros(SIZE)
        mask, sign = naive_blade_product(left, right)
        expected[mask] = sign
        assert np.array_equal(geometric_product(blade(left), blade(right)), expected)


@given(multivectors, multivectors)
def test_product_matches_naive_reference(a: np.ndarray, b: np.ndarray) -> None:
    assert_close(geometric_product(a, b), naive_product(a, b), norm(a) * norm(b))


@given(multivectors, multivectors)
def test_product_is_deterministic(a: np.ndarray, b: np.ndarray) -> None:
    first = geometric_product(a, b)
    assert first.tobytes() == geometric_product(a.copy(), b.copy()).tobytes()


def test_basis_vectors_square_to_metric() -> None:
    for i in range(DIM):
        e = blade(1 << i)
        assert np.array_equal(geometric_product(e, e), scalar(METRIC[i]))


def test_distinct_basis_vectors_anticommute() -> None:
    for i, j in itertools.permutations(range(DIM), 2):
        e_i, e_j = blade(1 << i), blade(1 << j)
        assert np.array_equal(geometric_product(e_i, e_j), -geometric_product(e_j, e_i))


@given(multivectors, multivectors, multivectors)
def test_product_is_associative(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
    left = geometric_product(geometric_product(a, b), c)
    right = geometric_product(a, geometric_product(b, c))
    assert_close(left, right, 100.0 * norm(a) * norm(b) * norm(c))


@given(multivectors, multivectors, multivectors)
def test_product_distributes_over_addition(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
    scale = 10.0 * norm(a) * (norm(b) + norm(c))
    assert_close(
        geometric_product(a, b + c),
        geometric_product(a, b) + geometric_product(a, c),
        scale,
    )
    assert_close(
        geometric_product(b + c, a),
        geometric_product(b, a) + geometric_product(c, a),
        scale,
    )


@given(multivectors, multivectors)
def test_reverse_is_an_anti_automorphism(a: np.ndarray, b: np.ndarray) -> None:
    assert_close(
        reverse(geometric_product(a, b)),
        geometric_product(reverse(b), reverse(a)),
        10.0 * norm(a) * norm(b),
    )


@given(multivectors)
def test_grade_projections_sum_to_identity(a: np.ndarray) -> None:
    parts = [grade(a, r) for r in range(DIM + 1)]
    assert np.array_equal(sum(parts), a)
    assert not grade(a, DIM + 1).any()
    assert scalar_part(a) == a[0]


@given(euclidean_vectors(), euclidean_vectors(), angles)
def test_euclidean_rotor_is_closed_and_invertible(u, v, angle) -> None:
    bivector = wedge(u, v)
    assume(norm(bivector) > 1e-3)
    forward = rotor(bivector, angle)
    assert versor_condition(forward) < 1e-12
    assert_close(geometric_product(forward, rotor(bivector, -angle)), IDENTITY)


@given(euclidean_vectors(), angles)
def test_hyperbolic_rotor_is_closed_and_invertible(u, angle) -> None:
    assume(norm(u) > 1e-3)
    bivector = wedge(u, blade(0b10000))
    forward = rotor(bivector, angle)
    assert versor_condition(forward) < 1e-12
    assert_close(geometric_product(forward, rotor(bivector, -angle)), IDENTITY)


@given(euclidean_vectors(span=3, bound=2.0), angles)
def test_null_rotor_is_closed_and_invertible(u, angle) -> None:
    assume(norm(u) > 1e-3)
    bivector = wedge(u, E_INF)
    assert scalar_part(geometric_product(bivector, bivector)) == 0.0
    forward = rotor(bivector, angle)
    assert versor_condition(forward) < 1e-12
    assert_close(geometric_product(forward, rotor(bivector, -angle)), IDENTITY)


@pytest.mark.parametrize("bivector", [blade(0b10001), wedge(blade(1), E_INF), blade(0b00011)])
@pytest.mark.parametrize("angle", [0.3, -1.7, 3.0])
def test_named_rotors_are_closed(bivector: np.ndarray, angle: float) -> None:
    assert versor_condition(rotor(bivector, angle)) < 1e-12


@pytest.mark.parametrize(
    "bivector",
    [np.zeros(SIZE), blade(1), blade(0b00011) + blade(0), blade(0b00011) + blade(0b01100)],
    ids=["zero", "vector", "with-scalar", "not-simple"],
)
def test_rotor_refuses_non_simple_bivectors(bivector: np.ndarray) -> None:
    with pytest.raises(ValueError):
        rotor(bivector, 0.5)


@given(angles)
def test_plane_rotor_turns_first_axis_toward_second(angle: float) -> None:
    turned = versor_apply(plane_rotor(1, 2, angle), blade(1))
    assert_close(turned, vector([math.cos(angle), math.sin(angle), 0.0, 0.0, 0.0]))


def test_plane_rotor_refuses_bad_planes() -> None:
    for i, j in [(2, 1), (0, 1), (1, 6), (3, 3)]:
        with pytest.raises(ValueError):
            plane_rotor(i, j, 0.1)


def test_constructors_build_the_named_blades() -> None:
    assert np.array_equal(vector([1, 2, 3, 4, 5])[[1, 2, 4, 8, 16]], [1, 2, 3, 4, 5])
    assert blade(0b101, 2.5)[0b101] == 2.5 and norm(blade(0b101, 2.5)) == 2.5
    assert np.array_equal(E_INF, blade(0b01000) + blade(0b10000))
    with pytest.raises(ValueError):
        vector([1.0, 2.0])
    with pytest.raises(ValueError):
        blade(SIZE)
    with pytest.raises(ValueError):
        IDENTITY[0] = 2.0


@given(points)
def test_conformal_points_are_null(p) -> None:
    point = conformal_point(*p)
    assert abs(cga_inner(point, point)) <= 1e-12 * (1.0 + sum(x * x for x in p))


@given(points, points)
def test_conformal_inner_product_is_half_squared_distance(p, q) -> None:
    distance_squared = sum((x - y) ** 2 for x, y in zip(p, q, strict=True))
    inner = cga_inner(conformal_point(*p), conformal_point(*q))
    assert inner == pytest.approx(-0.5 * distance_squared, abs=1e-9)


@given(euclidean_rotors(span=3), points, points)
def test_spatial_rotors_map_points_to_points_preserving_distance(versor, p, q) -> None:
    image_p = versor_apply(versor, conformal_point(*p))
    image_q = versor_apply(versor, conformal_point(*q))
    for image in (image_p, image_q):
        assert_close(image, conformal_point(image[1], image[2], image[4]), 1e3)
        assert abs(cga_inner(image, image)) <= 1e-9
    before = cga_inner(conformal_point(*p), conformal_point(*q))
    assert cga_inner(image_p, image_q) == pytest.approx(before, abs=1e-9)


def test_lemma_versor_is_deterministic_and_read_only() -> None:
    first = lemma_versor("light", "NOUN", ("physics",))
    lemma_versor.cache_clear()
    again = lemma_versor("light", "NOUN", ("physics",))
    assert first is not again and first.tobytes() == again.tobytes()
    assert not again.flags.writeable
    assert digest([quantize(c) for c in again.tolist()]) == (
        "609e827c540fc9590e38c628563a98b4c97ce69d0c11dd701276bd62f7a3d9aa"
    )
    assert LEMMA_VERSOR_CHAIN_LENGTH == 4


@given(st.text(max_size=12), st.text(max_size=12))
def test_lemma_versors_differ_between_lemmas(first: str, second: str) -> None:
    assume(first != second)
    a = lemma_versor(first, "NOUN", ())
    b = lemma_versor(second, "NOUN", ())
    assert not np.array_equal(a, b)


@given(st.text(max_size=12), st.sampled_from(["NOUN", "VERB"]), st.lists(st.text(max_size=6)))
def test_lemma_versors_are_euclidean_rotors(lemma: str, pos: str, domains: list[str]) -> None:
    versor = lemma_versor(lemma, pos, tuple(domains))
    assert versor_condition(versor) < 1e-12
    assert not versor[(GRADE % 2 == 1) | (np.arange(SIZE) >= 0b10000)].any()
    assert lemma_versor(lemma, "ADJ", tuple(domains)).tobytes() != versor.tobytes()
