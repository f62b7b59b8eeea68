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
    Multivector,
    blade_product,
    geometric_product,
    grade,
    norm,
    product_grades,
    reverse,
    rotor,
    versor_condition,
)
from reference.canonical import digest as canonical_digest
from reference.canonical import quantize_all

E1_MASK = 0b00001
"""The blade e1, whose image under the field is the field's axis."""

PARALLEL_TOLERANCE = 1e-12
"""Below this wedge norm two unit axes count as (anti)parallel and no pull is applied."""


def field_axis(versor: Multivector) -> Multivector:
    """Return the grade-1 part of ``V e1 reverse(V)``: where the versor sends e1.

    Only the grade-1 coefficients of the sandwich are computed; they equal those of
    ``grade(versor_apply(versor, blade(E1_MASK)), 1)`` bit for bit.
    """
    return product_grades(blade_product(versor, E1_MASK), reverse(versor), (1,))


@functools.lru_cache(maxsize=4096)
def _anchor_axis(anchor_bytes: bytes) -> Multivector:
    """Return the read-only e1 axis of the anchor rotor stored in ``anchor_bytes``."""
    axis = field_axis(np.frombuffer(anchor_bytes))
    axis.setflags(write=False)
    return axis


def angle_between(a: Multivector, b: Multivector) -> float:
    """Return the angle in [0, pi] between two Euclidean grade-1 multivectors."""
    product = product_grades(a, b, (0, 2))
    return math.atan2(norm(grade(product, 2)), float(product[0]))


def pull_rotor(axis: Multivector, target: Multivector, fraction: float) -> Multivector | None:
    """Return the rotor turning unit ``axis`` toward unit ``target`` by ``fraction`` of their angle.

    Returns None when the two are (anti)parallel, where the turning plane is undefined.
    """
    product = product_grades(axis, target, (0, 2))
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
    def state(self) -> Multivector:
        """The current rotor F as a read-only array."""
        return self._rotor

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
        return versor_condition(self._rotor)

    def digest(self) -> str:
        """Return the SHA-256 hex of the canonical JSON of F's quantized coefficients."""
        return canonical_digest(quantize_all(self._rotor.tolist()))
