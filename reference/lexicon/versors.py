"""Deterministic lemma versors: a SHA-256-seeded chain of rotors in the Euclidean planes."""

from __future__ import annotations

import functools
import math

from reference.algebra import IDENTITY, Multivector, geometric_product, plane_rotor
from reference.canonical import canonical_bytes, sha256_hex
from reference.lexicon.model import Lemma

LEMMA_VERSOR_CHAIN_LENGTH = 4
"""Number of plane rotors multiplied together to form one lemma versor."""

EUCLIDEAN_PLANES = ((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
"""The planes a lemma rotor may turn in; only e1..e4, so lemma versors stay in compact Spin(4)."""

_BYTES_PER_ROTOR = 4
_ANGLE_RESOLUTION = 1 << 24
_MIN_ANGLE = 0.05


def lemma_seed(lemma: str, pos: str, domains: tuple[str, ...]) -> bytes:
    """Return the 32-byte SHA-256 of the canonical JSON of the lemma's features."""
    features = {"domains": list(domains), "lemma": lemma, "pos": pos}
    return bytes.fromhex(sha256_hex(canonical_bytes(features)))


def _seeded_rotor(chunk: bytes) -> Multivector:
    """Return the rotor named by four seed bytes: a plane, then a 24-bit angle."""
    i, j = EUCLIDEAN_PLANES[chunk[0] % len(EUCLIDEAN_PLANES)]
    fraction = int.from_bytes(chunk[1:4], "big") / _ANGLE_RESOLUTION
    return plane_rotor(i, j, math.pi * fraction * 0.5 + _MIN_ANGLE)


@functools.lru_cache(maxsize=4096)
def lemma_versor(lemma: str, pos: str, domains: tuple[str, ...]) -> Multivector:
    """Return the read-only rotor of a lemma: the ordered product of its seeded plane rotors.

    The same (lemma, pos, domains) always yields the same bytes; the result is R_0 R_1 R_2 R_3.
    """
    seed = lemma_seed(lemma, pos, domains)
    versor = IDENTITY
    for t in range(LEMMA_VERSOR_CHAIN_LENGTH):
        chunk = seed[_BYTES_PER_ROTOR * t : _BYTES_PER_ROTOR * (t + 1)]
        versor = geometric_product(versor, _seeded_rotor(chunk))
    versor.setflags(write=False)
    return versor


@functools.lru_cache(maxsize=4096)
def turn_rotor(lemmas: tuple[Lemma, ...]) -> Multivector:
    """Return the read-only ordered product of the versors of one or more *lemmas*."""
    versors = (lemma_versor(e.lemma, e.pos, e.domains) for e in lemmas)
    rotor = functools.reduce(geometric_product, versors)
    rotor.setflags(write=False)
    return rotor
