"""Bucket uniformity and the independence of openings from closings (chi-square)."""

from __future__ import annotations

import hashlib

from conformance.driver import many
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.oracle import MAX_BUCKET
from conformance.requirements.registry import requirement
from conformance.stats import goodness_of_fit, independence

ALPHA = 0.001
"""Significance level of every chi-square test in this module (declared in docs/spec.md)."""
SAMPLES_PER_ENTRY = 60
SEED = "ADR-0071 § The seed; § The new pack — convivial_v1 (uniform over the bucket)"


def _fixed_hashes(label: str, count: int) -> list[str]:
    return [hashlib.sha256(f"{label}|{i}".encode()).hexdigest() for i in range(count)]


def _selections(
    engine: EngineClient, bucket: list[str], hashes: list[str], bucket_name: str
) -> list[int]:
    args = [
        {
            "bucket": bucket,
            "trace_hash": trace_hash,
            "register_id": "conformance_v1",
            "turn_idx": i % 7,
            "bucket_name": bucket_name,
        }
        for i, trace_hash in enumerate(hashes)
    ]
    picked = []
    for result in many(engine, "variation.select", args):
        index = member(result, "index", "integer")
        assert 0 <= index < len(bucket), f"index {index} is outside a bucket of {len(bucket)}"
        picked.append(index)
    return picked


@requirement(
    "VAR-UNIF-001",
    f"selections are uniform for every bucket size 1..{MAX_BUCKET} (chi-square, alpha {ALPHA})",
    family="variation",
    capabilities=("variation",),
    seed=SEED,
)
def bucket_uniformity(engine: EngineClient, _: object) -> None:
    for size in range(1, MAX_BUCKET + 1):
        bucket = [f"entry-{j}" for j in range(size)]
        hashes = _fixed_hashes(f"uniformity-{size}", SAMPLES_PER_ENTRY * size)
        picks = _selections(engine, bucket, hashes, "openings")
        assert all(isinstance(p, int) and 0 <= p < size for p in picks), (
            f"size {size}: index out of range"
        )
        if size == 1:
            continue
        counts = [picks.count(j) for j in range(size)]
        statistic, p_value = goodness_of_fit(counts)
        assert p_value >= ALPHA, (
            f"bucket size {size}: chi-square {statistic:.1f}, p = {p_value:.2e} < {ALPHA}; "
            f"counts {counts}"
        )


@requirement(
    "VAR-UNIF-002",
    f"the opening picked is independent of the closing picked (chi-square, alpha {ALPHA})",
    family="variation",
    capabilities=("variation",),
    seed=SEED,
)
def openings_independent_of_closings(engine: EngineClient, _: object) -> None:
    for rows, cols in ((3, 3), (4, 5), (2, 7)):
        hashes = _fixed_hashes(f"independence-{rows}x{cols}", 120 * rows * cols)
        openings = _selections(engine, [f"o{i}" for i in range(rows)], hashes, "openings")
        closings = _selections(engine, [f"c{i}" for i in range(cols)], hashes, "closings")
        table = [[0] * cols for _ in range(rows)]
        for o, c in zip(openings, closings, strict=True):
            table[o][c] += 1
        statistic, p_value = independence(table)
        assert p_value >= ALPHA, (
            f"{rows}x{cols}: openings and closings are dependent: chi-square {statistic:.1f}, "
            f"p = {p_value:.2e} < {ALPHA}; table {table}"
        )
