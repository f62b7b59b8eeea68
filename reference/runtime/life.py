"""A session's life as core records (docs/state.md § The life): the ``life`` record and one
``vault`` record per address, and back.

Floats are written as the big-endian bit patterns of their IEEE-754 binary64 values in 16
lowercase hex digits, so the bytes (and the state identity hashed over them) are the same
on every machine, and reading them back gives the same doubles bit for bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import compress
from operator import is_not
from typing import Any

import numpy as np

from reference.truth.pipeline import Life
from reference.truth.vault import Said, VaultHit

LIFE_KEY = ("life", "life")


def rotor_bits(rotor: np.ndarray) -> list[str]:
    """Each coefficient's big-endian IEEE-754 binary64 bit pattern, 16 hex digits each."""
    raw = np.asarray(rotor, dtype=">f8").tobytes().hex()
    return [raw[i : i + 16] for i in range(0, len(raw), 16)]


def rotor_of(bits: list[str]) -> np.ndarray:
    """The rotor whose coefficients have the bit patterns *bits*."""
    return np.frombuffer(bytes.fromhex("".join(bits)), dtype=">f8").astype(np.float64)


def life_record(life: Life) -> dict[str, Any]:
    """The ``life`` record: turns lived, the latest subject and the field's rotor."""
    return {
        "context": life.context,
        "key": "life",
        "kind": "life",
        "rotor": rotor_bits(life.rotor),
        "turns": life.turns,
    }


def vault_record(hit: VaultHit) -> dict[str, Any]:
    """The ``vault`` record of one tally, keyed by its address."""
    return {
        "count": hit.count,
        "first_turn": hit.first_turn,
        "key": hit.address,
        "kind": "vault",
        "last_turn": hit.last_turn,
        "latest_claim": hit.latest_claim,
        "lemma": hit.lemma,
        "said": [said.as_json() for said in hit.said],
    }


def hit_of(record: Mapping[str, Any]) -> VaultHit:
    """The tally a ``vault`` record holds."""
    said = tuple(Said(s["turn_idx"], s["text"], s["claim"]) for s in record["said"])
    return VaultHit(
        address=record["key"],
        lemma=record["lemma"],
        count=record["count"],
        first_turn=record["first_turn"],
        last_turn=record["last_turn"],
        latest_claim=record["latest_claim"],
        said=said,
    )


def life_of(records: Mapping[tuple[str, str], Mapping[str, Any]]) -> Life | None:
    """The life the core *records* hold, or None when they hold none (a fresh life)."""
    found = records.get(LIFE_KEY)
    if found is None:
        return None
    hits = tuple(hit_of(r) for (kind, _), r in records.items() if kind == "vault")
    return Life(found["turns"], found["context"], rotor_of(found["rotor"]), hits)


def life_records(life: Life, changed: Iterable[VaultHit]) -> list[dict[str, Any]]:
    """Puts that bring a core up to *life*: its ``life`` record and the *changed* tallies."""
    return [life_record(life), *(vault_record(hit) for hit in changed)]


def unwritten(hits: tuple[VaultHit, ...], written: tuple[VaultHit, ...]) -> list[VaultHit]:
    """The tallies of *hits* to put, when the tallies *written* are in the core already.

    A tally that is the same object as the one in its place in *written* is in the core;
    every other one is put (putting a tally the core holds changes nothing). A vault keeps
    its tallies in their places (the order of their first turn; a store replaces one in
    place, a new one comes last), so only the tallies a turn touched are put.
    """
    return [*compress(hits, map(is_not, hits, written)), *hits[len(written) :]]
