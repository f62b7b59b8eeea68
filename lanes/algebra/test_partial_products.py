"""Partial products agree with the full geometric product bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.algebra import (
    DIM,
    GRADE,
    SIZE,
    blade,
    blade_product,
    geometric_product,
    product_grades,
    reverse,
    sandwich_grades,
    versor_apply,
)

coefficients = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
multivectors = st.lists(coefficients, min_size=SIZE, max_size=SIZE).map(np.array)
grade_sets = st.sets(st.integers(0, DIM), min_size=1).map(lambda s: tuple(sorted(s)))


@given(multivectors, multivectors, grade_sets)
def test_product_grades_are_the_product_coefficients_of_those_grades(a, b, grades):
    kept = np.isin(GRADE, grades)
    expected = np.zeros(SIZE)
    expected[kept] = geometric_product(a, b)[kept]
    assert product_grades(a, b, grades).tobytes() == expected.tobytes()


@given(multivectors, st.integers(0, SIZE - 1))
def test_blade_product_is_the_product_with_that_blade(a, mask):
    got = blade_product(a, mask)
    full = geometric_product(a, blade(mask))
    nonzero = full != 0.0
    assert np.array_equal(got, full)
    assert got[nonzero].tobytes() == full[nonzero].tobytes()


@pytest.mark.parametrize("mask", [-1, SIZE])
def test_blade_product_refuses_a_mask_outside_the_algebra(mask):
    with pytest.raises(ValueError, match="blade mask"):
        blade_product(np.zeros(SIZE), mask)


@given(multivectors, st.integers(0, SIZE - 1), grade_sets)
def test_sandwich_grades_are_the_partial_product_of_the_blade_product(v, mask, grades):
    expected = product_grades(blade_product(v, mask), reverse(v), grades)
    assert sandwich_grades(v, mask, grades).tobytes() == expected.tobytes()


@given(multivectors, st.integers(0, SIZE - 1), grade_sets)
def test_sandwich_grades_are_those_grades_of_the_sandwich(v, mask, grades):
    kept = np.isin(GRADE, grades)
    expected = np.zeros(SIZE)
    expected[kept] = versor_apply(v, blade(mask))[kept]
    got = sandwich_grades(v, mask, grades)
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-12 * float(np.abs(v).max()) ** 2)


@pytest.mark.parametrize("mask", [-1, SIZE])
def test_sandwich_grades_refuse_a_mask_outside_the_algebra(mask):
    with pytest.raises(ValueError, match="blade mask"):
        sandwich_grades(np.zeros(SIZE), mask, (1,))
