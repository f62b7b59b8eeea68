"""``variation.select`` and ``variation.decorate`` cases, and the marker buckets and
trace hashes other areas draw too."""

from __future__ import annotations

import random

from tools.differential.material import Material
from tools.differential.shared import Json


def hex_digits(rng: random.Random, n: int = 64) -> str:
    """*n* random lower-case hex digits (a trace hash by default)."""
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def marker_bucket(rng: random.Random) -> Json:
    """Up to four discourse markers, some empty, decomposed, astral or multi-line."""
    pool = ["So,", "Right \u2014", "OK,", "", " So, ", "e\u0301", "\U0001f600", "a\nb", "x" * 40]
    return [rng.choice(pool) for _ in range(rng.randint(0, 4))]


def _select_args(rng: random.Random, register: str, turn: int) -> dict[str, Json]:
    return {
        "bucket": marker_bucket(rng),
        "trace_hash": hex_digits(rng),
        "register_id": register,
        "turn_idx": turn,
        "bucket_name": rng.choice(["openings", "closings", "transitions", "x"]),
    }


def _decorate_args(rng: random.Random, register: str, turn: int) -> dict[str, Json]:
    markers: Json = {"openings": marker_bucket(rng), "closings": marker_bucket(rng)}
    if rng.random() < 0.3:
        markers["transitions"] = marker_bucket(rng)
    if rng.random() < 0.1:
        del markers[rng.choice(["openings", "closings"])]
    if rng.random() < 0.05:
        markers["extra"] = []
    return {
        "surface": rng.choice(["Light is.", "", "a\u00a0b", "\U0001f600 x"]),
        "discourse_markers": markers,
        "register_id": register,
        "trace_hash": hex_digits(rng),
        "turn_idx": turn,
    }


def gen_variation(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """One variation request, one argument maybe of the wrong type; no context."""
    turn = rng.choice([0, 1, 7, 2**53 + 1, 10**25, rng.randrange(1000)])
    register = rng.choice(["convivial_v1", "terse_v1", "x", "", "\u00e9t\u00e9", "a|b"])
    if rng.random() < 0.5:
        args, op = _select_args(rng, register, turn), "variation.select"
    else:
        args, op = _decorate_args(rng, register, turn), "variation.decorate"
    if rng.random() < 0.1:
        key = rng.choice(sorted(args))
        args[key] = rng.choice([None, 1.0, "1", -1, True, [], {}])
    return [{"id": 1, "op": op, "args": args}], {}
