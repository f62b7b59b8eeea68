"""An exact, content-addressed session vault with recall of the exact CGA hit.

Each lemma owns a conformal point whose coordinates are dyadic rationals drawn
from SHA-256, so every point, inner product and address is exact in IEEE-754
arithmetic on every machine. An entry's address is the SHA-256 of its point's
big-endian IEEE-754 bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from reference.algebra import Multivector, conformal_point

COORD_BITS = 10
"""Coordinates lie on a 2**-9 grid in [-1, 1): small enough that every product is exact."""

SAID_KEPT = 3
"""How many of the latest things said about a lemma its tally keeps."""

SAID_CHARS = 160
"""How many characters of one thing said are kept (a longer text is cut there)."""


@dataclass(frozen=True)
class Said:
    """One thing the user said about a lemma: the turn, its normalised words, and the
    claim a correction made (None for any other turn)."""

    turn_idx: int
    text: str
    claim: str | None

    def as_json(self) -> dict[str, object]:
        return {"claim": self.claim, "text": self.text, "turn_idx": self.turn_idx}


@dataclass(frozen=True)
class VaultEntry:
    """One stored observation about a lemma."""

    address: str
    lemma: str
    turn_idx: int
    claim: str | None


@dataclass(frozen=True)
class VaultHit:
    """What recall found at one address: how often, when, the latest claim made, and the
    latest things said (at most :data:`SAID_KEPT`, the latest first)."""

    address: str
    lemma: str
    count: int
    first_turn: int
    last_turn: int
    latest_claim: str | None
    said: tuple[Said, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {
            "address": self.address,
            "count": self.count,
            "first_turn": self.first_turn,
            "last_turn": self.last_turn,
            "latest_claim": self.latest_claim,
            "lemma": self.lemma,
            "said": [entry.as_json() for entry in self.said],
        }


@lru_cache(maxsize=4096)
def lemma_point(lemma: str) -> Multivector:
    """The exact conformal point of a lemma, seeded by SHA-256 of its text."""
    seed = hashlib.sha256(f"vault-point|{lemma}".encode()).digest()
    half = 2 ** (COORD_BITS - 1)
    coords = [
        ((int.from_bytes(seed[2 * i : 2 * i + 2], "big") >> (16 - COORD_BITS)) - half) / half
        for i in range(3)
    ]
    point = conformal_point(*coords)
    point.setflags(write=False)
    return point


def point_address(point: Multivector) -> str:
    """SHA-256 hex of the point's 32 coefficients as big-endian IEEE-754 doubles."""
    return hashlib.sha256(np.asarray(point, dtype=">f8").tobytes()).hexdigest()


@lru_cache(maxsize=4096)
def lemma_address(lemma: str) -> str:
    """The vault address of *lemma*: :func:`point_address` of its :func:`lemma_point`."""
    return point_address(lemma_point(lemma))


class Vault:
    """Append-only store of observations, kept as one running tally per address.

    Recall returns the exact hit for a query point: a stored point whose CGA inner
    product with the query is exactly 0. Points lie on an exact grid, so that inner
    product is 0 only for the identical point, and the identical point has the
    identical address: recall is one lookup by address. Each address keeps what a hit
    reports (count, first and last turn, latest claim, first lemma), so the work of a
    store or a recall and the vault's memory do not grow with the number of turns.
    """

    def __init__(self) -> None:
        self._hits: dict[str, VaultHit] = {}
        self._size = 0

    @classmethod
    def restored(cls, hits: Iterable[VaultHit]) -> Vault:
        """The vault whose tallies are *hits* (what :meth:`hits` of a vault returned): it
        stores and recalls from then on exactly as that vault would. Tallies are held in the
        order of their first turn, the order in which a living vault created them."""
        vault = cls()
        for hit in sorted(hits, key=lambda hit: (hit.first_turn, hit.address)):
            vault._hits[hit.address] = hit
            vault._size += hit.count
        return vault

    def hits(self) -> tuple[VaultHit, ...]:
        """Every tally held, in the order of their first turn: the whole of the vault."""
        return tuple(self._hits.values())

    def __len__(self) -> int:
        """The number of observations stored."""
        return self._size

    @property
    def addresses(self) -> int:
        """The number of distinct addresses held (what the vault's memory grows with)."""
        return len(self._hits)

    def store(
        self, lemma: str, turn_idx: int, claim: str | None = None, text: str | None = None
    ) -> VaultEntry:
        """Record an observation of *lemma* at *turn_idx*; *text* (what the user said, if it
        is to be recalled) joins the latest things said."""
        entry = VaultEntry(lemma_address(lemma), lemma, turn_idx, claim)
        tally = self._hits.get(entry.address)
        if tally is None:
            tally = VaultHit(entry.address, lemma, 0, turn_idx, turn_idx, None)
        said = tally.said
        if text is not None:
            said = (Said(turn_idx, text[:SAID_CHARS], claim), *said[: SAID_KEPT - 1])
        self._hits[entry.address] = VaultHit(
            address=entry.address,
            lemma=tally.lemma,
            count=tally.count + 1,
            first_turn=tally.first_turn,
            last_turn=turn_idx,
            latest_claim=claim if claim is not None else tally.latest_claim,
            said=said,
        )
        self._size += 1
        return entry

    def recall(self, lemma: str) -> VaultHit | None:
        """The exact hit for *lemma*'s point (inner product exactly 0), or None."""
        return self._hits.get(lemma_address(lemma))

    def latest(self, count: int) -> tuple[VaultHit, ...]:
        """The *count* hits with something said, the one said to most recently first."""
        said = [hit for hit in self._hits.values() if hit.said]
        said.sort(key=lambda hit: -hit.said[0].turn_idx)
        return tuple(said[:count])
