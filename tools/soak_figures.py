"""The no-drift soak's figures as a markdown table: printed by ``python -m tools.soak_life``
and rendered into docs/benchmarks.md from ``docs/figures/soak-life-*.json`` by
``python -m tools.docfigures``."""

from __future__ import annotations

from typing import Any


def table(found: dict[str, Any]) -> str:
    """The figures as a markdown table."""
    cpu, wall, window = found["cpu_ms"], found["wall_ms"], found["window"]
    rss, core, disk = found["rss_bytes"], found["core_bytes"], found["disk_bytes"]
    rows = [
        ("turns", f"{found['turns']:,}"),
        ("SIGKILLs (restarts)", f"{found['restarts']:,}"),
        ("worst versor_condition", f"{found['worst_versor_condition']:.3g}"),
        ("records unlike the uninterrupted life", f"{found['records_unlike_uninterrupted']}"),
        (
            f"median CPU per turn: a fresh life's first {window:,} / the life's last {window:,}",
            f"{cpu['fresh_first_window']:.2f} ms / {cpu['life_last_window']:.2f} ms",
        ),
        ("last / first, CPU (interleaved)", f"{found['ratio_cpu']:.3f}"),
        *(
            [
                (
                    f"median CPU per turn: the life copied at turn {found['settle']:,}, "
                    f"resumed for {window:,} turns (interleaved)",
                    f"{cpu['settled_window']:.2f} ms",
                ),
                ("last / settled, CPU (interleaved)", f"{found['ratio_cpu_settled']:.3f}"),
            ]
            if "settle" in found
            else []
        ),
        (
            "median wall per turn (fsyncs included), same windows",
            f"{wall['fresh_first_window']:.2f} ms / {wall['life_last_window']:.2f} ms",
        ),
        ("last / first, wall (interleaved)", f"{found['ratio_wall']:.3f}"),
        (
            f"median CPU / wall per turn, the life's own first {window:,} (not interleaved)",
            f"{cpu['life_first_window']:.2f} ms / {wall['life_first_window']:.2f} ms",
        ),
        (
            "engine RSS: first, last, max sample",
            f"{rss['first']:,} B, {rss['last']:,} B, {rss['max']:,} B",
        ),
        ("core.jsonl: first and last sample", f"{core['first']:,} B, {core['last']:,} B"),
        (
            "state directory: last, max sample",
            f"{disk['last']:,} B, {disk['max']:,} B ({found['generations']} generations)",
        ),
        ("wall time", f"{found['wall_s']:,} s"),
    ]
    lines = ["| measure | value |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    return "\n".join(lines)
