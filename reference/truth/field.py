"""The session field: a rotor composed turn by turn and pulled gently toward semantic anchors.

The field only ever changes by multiplying it with closed-form rotors, so it stays on the
rotor manifold by construction and is never renormalised. Turn rotors and anchors are
expected to be rotors over e1..e4 (compact Spin(4)), like lemma versors.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference.algebra import (
    DIM,
    IDENTITY,
    METRIC,
    SIZE,
    Multivector,
    geometric_product,
    sandwich_grades,
    simple_rotor,
    versor_condition,
)
from reference.canonical import MAX_CANONICAL_INTEGER, QUANTUM
from reference.canonical import digest as canonical_digest

E1_MASK = 0b00001
"""The blade e1, whose image under the field is the field's axis."""

PARALLEL_TOLERANCE = 1e-12
"""Below this wedge norm two unit axes count as (anti)parallel and no pull is applied."""

_VECTOR_BLADES = np.array([1 << i for i in range(DIM)])
_METRIC = METRIC.tolist()
_PLANES = tuple((i, j) for i in range(DIM) for j in range(i + 1, DIM))
_PLANE_BLADES = np.array([(1 << i) | (1 << j) for i, j in _PLANES])
_PLANE_SQUARES = [-_METRIC[i] * _METRIC[j] for i, j in _PLANES]
"""The blades e_i e_j (i < j) and their squares ``-m_i m_j`` under the metric."""


def field_axis(versor: Multivector) -> Multivector:
    """Return the grade-1 part of ``V e1 reverse(V)``: where the versor sends e1.

    Only the grade-1 coefficients of the sandwich are computed; they equal those of
    ``grade(versor_apply(versor, blade(E1_MASK)), 1)`` bit for bit.
    """
    return sandwich_grades(versor, E1_MASK, (1,))


@functools.lru_cache(maxsize=4096)
def _anchor_axis(anchor_bytes: bytes) -> Multivector:
    """Return the read-only e1 axis of the anchor rotor stored in ``anchor_bytes``."""
    axis = field_axis(np.frombuffer(anchor_bytes))
    axis.setflags(write=False)
    return axis


def _inner_and_wedge(a: Multivector, b: Multivector) -> tuple[float, list[float]]:
    """Return ``a . b`` and the coefficients of ``a ^ b`` on :data:`_PLANE_BLADES` for
    grade-1 ``a`` and ``b``: the grade-0 and grade-2 parts of their product ``a b``."""
    x = a[_VECTOR_BLADES].tolist()
    y = b[_VECTOR_BLADES].tolist()
    inner = math.fsum([m * p * q for m, p, q in zip(_METRIC, x, y, strict=True)])
    return inner, [x[i] * y[j] - x[j] * y[i] for i, j in _PLANES]


def angle_between(a: Multivector, b: Multivector) -> float:
    """Return the angle in [0, pi] between two Euclidean grade-1 multivectors."""
    inner, wedge = _inner_and_wedge(a, b)
    return math.atan2(math.sqrt(math.fsum([w * w for w in wedge])), inner)


def pull_rotor(axis: Multivector, target: Multivector, fraction: float) -> Multivector | None:
    """Return the rotor turning unit ``axis`` toward unit ``target`` by ``fraction`` of their angle.

    The wedge of two vectors is a simple bivector, and its square is the signed sum of its
    squared coefficients. Returns None when the two are (anti)parallel, where the turning
    plane is undefined.
    """
    inner, coefficients = _inner_and_wedge(axis, target)
    size = math.fsum([w * w for w in coefficients])
    wedge_norm = math.sqrt(size)
    if wedge_norm < PARALLEL_TOLERANCE:
        return None
    square = math.fsum([s * w * w for s, w in zip(_PLANE_SQUARES, coefficients, strict=True)])
    wedge = np.zeros(SIZE)
    wedge[_PLANE_BLADES] = coefficients
    angle = math.atan2(wedge_norm, inner)
    return simple_rotor(wedge, fraction * angle, square=square, size=size)


def quantized(mv: Multivector) -> list[int]:
    """Return ``[quantize(c) for c in mv]``, computed on the whole array at once.

    ``rint`` rounds half to even as Python's ``round`` does, after the same IEEE-754 product
    by ``1e9``; ValueError if a coefficient is not finite or leaves the integer range of
    canonical JSON.
    """
    scaled = mv * QUANTUM
    if not np.abs(scaled).max() <= MAX_CANONICAL_INTEGER:
        raise ValueError(f"cannot quantize {mv.tolist()!r}: not finite or too large")
    integers: list[int] = np.rint(scaled).astype(np.int64).tolist()
    return integers


class SessionField:
    """The session's field: a rotor F, starting at the identity."""

    ANCHOR_PULL = 0.05

    def __init__(self) -> None:
        self._rotor = IDENTITY
        self._figures_of: Multivector | None = None
        self._figures_value = ("", 0.0)

    @property
    def state(self) -> Multivector:
        """The current rotor F as a read-only array."""
        return self._rotor

    @classmethod
    def restored(cls, rotor: Multivector) -> SessionField:
        """The field whose rotor is *rotor* (bit for bit what :attr:`state` held)."""
        field = cls()
        value = np.array(rotor, dtype=np.float64)
        if value.shape != (SIZE,):
            raise ValueError(f"a field rotor has {SIZE} coefficients, got {value.shape}")
        value.setflags(write=False)
        field._rotor = value
        return field

    def step(self, turn_rotor: Multivector, anchor: Multivector | None) -> None:
        """Compose ``F <- turn_rotor F``, then pull F's e1 axis toward the anchor's e1 axis.

        The pull turns the axis by ``ANCHOR_PULL`` of the angle between them; it is skipped
        when there is no anchor or the two axes are (anti)parallel.
        """
        field = geometric_product(turn_rotor, self._rotor)
        if anchor is not None:
            target = _anchor_axis(np.ascontiguousarray(anchor, dtype=np.float64).tobytes())
            pull = pull_rotor(field_axis(field), target, self.ANCHOR_PULL)
            if pull is not None:
                field = geometric_product(pull, field)
        field.setflags(write=False)
        self._rotor = field

    def versor_condition(self) -> float:
        """Return ``norm(F reverse(F) - 1)``, zero for an exact rotor."""
        return self._figures()[1]

    def digest(self) -> str:
        """Return the SHA-256 hex of the canonical JSON of F's quantized coefficients."""
        return self._figures()[0]

    def _figures(self) -> tuple[str, float]:
        """F's digest and versor condition, computed once for each value of F (a turn that
        grounds nothing leaves F, and both, as they were)."""
        if self._figures_of is not self._rotor:
            rotor = self._rotor
            self._figures_value = (canonical_digest(quantized(rotor)), versor_condition(rotor))
            self._figures_of = rotor
        return self._figures_value
