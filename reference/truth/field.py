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
    IDENTITY,
    blade,
    geometric_product,
    grade,
    norm,
    rotor,
    versor_apply,
    versor_condition,
)
from reference.canonical import digest as canonical_digest
from reference.canonical import quantize

E1 = blade(0b00001)
E1.setflags(write=False)

PARALLEL_TOLERANCE = 1e-12
"""Below this wedge norm two unit axes count as (anti)parallel and no pull is applied."""


def field_axis(versor: np.ndarray) -> np.ndarray:
    """Return the grade-1 part of ``V e1 reverse(V)``: where the versor sends e1."""
    return grade(versor_apply(versor, E1), 1)


@functools.lru_cache(maxsize=4096)
def _anchor_axis(anchor_bytes: bytes) -> np.ndarray:
    """Return the read-only e1 axis of the anchor rotor stored in ``anchor_bytes``."""
    axis = field_axis(np.frombuffer(anchor_bytes))
    axis.setflags(write=False)
    return axis


def angle_between(a: np.ndarray, b: np.ndarray) -> float:
    """Return the angle in [0, pi] between two Euclidean grade-1 multivectors."""
    product = geometric_product(a, b)
    return math.atan2(norm(grade(product, 2)), float(product[0]))


def pull_rotor(axis: np.ndarray, target: np.ndarray, fraction: float) -> np.ndarray | None:
    """Return the rotor turning unit ``axis`` toward unit ``target`` by ``fraction`` of their angle.

    Returns None when the two are (anti)parallel, where the turning plane is undefined.
    """
    product = geometric_product(axis, target)
    wedge = grade(product, 2)
    wedge_norm = norm(wedge)
    if wedge_norm < PARALLEL_TOLERANCE:
        return None
    angle = math.atan2(wedge_norm, float(product[0]))
    return rotor(wedge, fraction * angle)


class SessionField:
    """The session's field: a rotor F, starting at the identity."""

    ANCHOR_PULL = 0.05

    def __init__(self) -> None:
        self._rotor = IDENTITY

    @property
    def state(self) -> np.ndarray:
        """The current rotor F as a read-only array."""
        return self._rotor

    def step(self, turn_rotor: np.ndarray, anchor: np.ndarray | None) -> None:
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
        return versor_condition(self._rotor)

    def digest(self) -> str:
        """Return the SHA-256 hex of the canonical JSON of F's quantized coefficients."""
        return canonical_digest([quantize(c) for c in self._rotor.tolist()])
