"""An exact, content-addressed session vault with recall by CGA inner product.

Each lemma owns a conformal point whose coordinates are dyadic rationals drawn
from SHA-256, so every point, inner product and address is exact in IEEE-754
arithmetic on every machine. An entry's address is the SHA-256 of its point's
big-endian IEEE-754 bytes.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from reference.algebra import conformal_point

COORD_BITS = 10
"""Coordinates lie on a 2**-9 grid in [-1, 1): small enough that every product is exact."""


@dataclass(frozen=True)
class VaultEntry:
    """One stored observation about a lemma."""

    address: str
    lemma: str
    turn_idx: int
    claim: str | None


@dataclass(frozen=True)
class VaultHit:
    """What recall found at one address: how often, when, and the latest claim made."""

    address: str
    lemma: str
    count: int
    first_turn: int
    last_turn: int
    latest_claim: str | None

    def as_json(self) -> dict[str, object]:
        return {
            "address": self.address,
            "count": self.count,
            "first_turn": self.first_turn,
            "last_turn": self.last_turn,
            "latest_claim": self.latest_claim,
            "lemma": self.lemma,
        }


@lru_cache(maxsize=4096)
def lemma_point(lemma: str) -> np.ndarray:
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


def point_address(point: np.ndarray) -> str:
    """SHA-256 hex of the point's 32 coefficients as big-endian IEEE-754 doubles."""
    return hashlib.sha256(np.asarray(point, dtype=">f8").tobytes()).hexdigest()


_VECTOR_METRIC = np.zeros(32)
for _bit, _sign in enumerate((1.0, 1.0, 1.0, 1.0, -1.0)):
    _VECTOR_METRIC[1 << _bit] = _sign


class Vault:
    """Append-only store; recall returns the exact hits for a query point."""

    def __init__(self) -> None:
        self._entries: dict[str, list[VaultEntry]] = {}
        self._size = 0
        self._addresses: list[str] = []
        self._weighted = np.zeros((0, 32))

    def __len__(self) -> int:
        return self._size

    def store(self, lemma: str, turn_idx: int, claim: str | None = None) -> VaultEntry:
        """Record an observation of *lemma* at *turn_idx*."""
        point = lemma_point(lemma)
        entry = VaultEntry(point_address(point), lemma, turn_idx, claim)
        if entry.address not in self._entries:
            self._index_point(entry.address, point)
        self._entries.setdefault(entry.address, []).append(entry)
        self._size += 1
        return entry

    def _index_point(self, address: str, point: np.ndarray) -> None:
        slot = bisect.bisect(self._addresses, address)
        self._addresses.insert(slot, address)
        self._weighted = np.insert(self._weighted, slot, point * _VECTOR_METRIC, axis=0)

    def nearest(self, query: np.ndarray) -> tuple[str, float] | None:
        """The stored address maximising the CGA inner product with *query*, and that product.

        Ties break by the smaller address, so the answer never depends on
        insertion order.
        """
        if not self._addresses:
            return None
        scores = (self._weighted * query).sum(axis=1)
        best = int(np.argmax(scores))
        return self._addresses[best], float(scores[best])

    def recall(self, lemma: str) -> VaultHit | None:
        """The exact hit for *lemma*'s point (inner product exactly 0), or None."""
        found = self.nearest(lemma_point(lemma))
        if found is None or found[1] != 0.0:
            return None
        entries = self._entries[found[0]]
        claims = [entry.claim for entry in entries if entry.claim is not None]
        return VaultHit(
            address=found[0],
            lemma=entries[0].lemma,
            count=len(entries),
            first_turn=entries[0].turn_idx,
            last_turn=entries[-1].turn_idx,
            latest_claim=claims[-1] if claims else None,
        )
