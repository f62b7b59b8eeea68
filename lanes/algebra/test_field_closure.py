"""The session field stays a rotor under long walks, and its anchor pull turns the right way."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from reference.algebra import IDENTITY, geometric_product, grade, norm, plane_rotor, rotor
from reference.canonical import digest, quantize
from reference.lexicon.versors import EUCLIDEAN_PLANES, lemma_versor
from reference.truth.field import (
    SessionField,
    angle_between,
    field_axis,
    pull_rotor,
    quantized,
)

WALK_STEPS = 100_000
WALK_SEED = 20_240_601
ANCHOR_WORDS = ("light", "water", "stone", "tree", "river", "fire", "wind", "salt")

angles = st.floats(-math.pi, math.pi, allow_nan=False)
euclidean_rotors = st.lists(
    st.tuples(st.sampled_from(EUCLIDEAN_PLANES), angles), min_size=1, max_size=4
).map(lambda chain: compose([plane_rotor(i, j, angle) for (i, j), angle in chain]))


def compose(rotors: list[np.ndarray]) -> np.ndarray:
    """The ordered geometric product of a list of rotors."""
    out = IDENTITY
    for factor in rotors:
        out = geometric_product(out, factor)
    return out


def lemma_like_rotors(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Chains of four rotors in random Euclidean planes with lemma-like angles."""
    pool = []
    for _ in range(count):
        planes = rng.integers(len(EUCLIDEAN_PLANES), size=4)
        turns = rng.uniform(0.05, math.pi / 2 + 0.05, size=4)
        pairs = zip(planes, turns, strict=True)
        pool.append(compose([plane_rotor(*EUCLIDEAN_PLANES[p], float(a)) for p, a in pairs]))
    return pool


def anchors() -> list[np.ndarray]:
    return [lemma_versor(word, "NOUN", ("nature",)) for word in ANCHOR_WORDS]


def test_long_walk_stays_on_the_rotor_manifold(record_property) -> None:
    rng = np.random.default_rng(WALK_SEED)
    turns = lemma_like_rotors(rng, 64)
    pool = anchors()
    turn_picks = rng.integers(len(turns), size=WALK_STEPS).tolist()
    anchor_picks = rng.integers(len(pool), size=WALK_STEPS).tolist()
    field = SessionField()
    worst = 0.0
    for turn, anchor in zip(turn_picks, anchor_picks, strict=True):
        field.step(turns[turn], pool[anchor])
        worst = max(worst, field.versor_condition())
    record_property("max_versor_condition", worst)
    print(f"max versor_condition over {WALK_STEPS} steps: {worst:.3e}")
    assert worst < 1e-6


@given(euclidean_rotors, euclidean_rotors)
def test_anchor_pull_turns_the_axis_toward_the_anchor(start: np.ndarray, anchor: np.ndarray):
    target = field_axis(anchor)
    before = angle_between(field_axis(start), target)
    assume(norm(grade(geometric_product(field_axis(start), target), 2)) > 1e-9)
    field = SessionField()
    field.step(start, anchor)
    after = angle_between(field_axis(field.state), target)
    assert after < before
    assert after == pytest.approx((1.0 - SessionField.ANCHOR_PULL) * before, abs=1e-9)


@pytest.mark.parametrize("anchor", [IDENTITY, plane_rotor(1, 2, math.pi)], ids=["same", "opposite"])
def test_anchor_pull_is_skipped_for_parallel_axes(anchor: np.ndarray) -> None:
    field = SessionField()
    field.step(IDENTITY, anchor)
    assert np.array_equal(field.state, IDENTITY)


@given(euclidean_rotors, euclidean_rotors)
def test_step_without_anchor_composes_on_the_left(first: np.ndarray, second: np.ndarray):
    field = SessionField()
    field.step(first, None)
    field.step(second, None)
    expected = geometric_product(second, geometric_product(first, IDENTITY))
    assert np.array_equal(field.state, expected)


def test_state_is_read_only() -> None:
    field = SessionField()
    field.step(plane_rotor(1, 3, 0.4), None)
    with pytest.raises(ValueError):
        field.state[0] = 1.0


def test_digest_is_deterministic_and_tracks_the_state() -> None:
    fresh = SessionField()
    assert fresh.digest() == digest([quantize(c) for c in IDENTITY.tolist()])
    walks = [SessionField(), SessionField()]
    for field in walks:
        for word in ANCHOR_WORDS:
            field.step(lemma_versor(word, "VERB", ()), lemma_versor(word, "NOUN", ()))
    assert walks[0].digest() == walks[1].digest()
    assert walks[0].digest() != fresh.digest()
    before = walks[0].digest()
    walks[0].step(plane_rotor(2, 4, 0.01), None)
    assert walks[0].digest() != before


coefficients = st.one_of(
    st.floats(-1.0, 1.0),
    st.integers(-1024, 1023).map(lambda k: (2 * k + 1) / 1024),
    st.floats(-9e6, 9e6),
)
"""Rotor-sized coefficients, exact ties (``(2k + 1) / 1024`` times ``1e9`` ends in ``.5``)
and magnitudes near the end of the range."""


@given(st.lists(coefficients, min_size=32, max_size=32))
def test_quantized_is_quantize_of_each_coefficient(values: list[float]) -> None:
    assert quantized(np.array(values)) == [quantize(x) for x in values]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e7])
def test_quantized_refuses_what_canonical_json_cannot_hold(bad: float) -> None:
    values = np.zeros(32)
    values[5] = bad
    with pytest.raises(ValueError, match="cannot quantize"):
        quantized(values)


@given(euclidean_rotors, euclidean_rotors, st.floats(0.0, 1.0))
def test_pull_rotor_is_the_rotor_of_the_wedge(start: np.ndarray, anchor: np.ndarray, t: float):
    axis, target = field_axis(start), field_axis(anchor)
    wedge = grade(geometric_product(axis, target), 2)
    assume(norm(wedge) > 1e-6)
    expected = rotor(wedge, t * angle_between(axis, target))
    assert np.allclose(pull_rotor(axis, target, t), expected, rtol=0.0, atol=1e-14)
