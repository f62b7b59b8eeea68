"""Figures in README.md and docs/*.md, rewritten from what computes them.

A figure is a marked block in a Markdown file::

    <!-- figure:NAME -->TEXT<!-- /figure -->

(inline, inside a sentence) or the same with TEXT on lines of its own between the
markers (a block). ``python -m tools.docfigures`` rewrites every TEXT from
:data:`FIGURES` [NAME]; ``--check`` rewrites nothing and exits 1 naming every stale
block (``lanes/docs/test_docfigures.py`` runs it). Cheap figures (requirement counts,
the kill layout, task counts) are computed here from the suite; measured figures are
read from the JSON files the bench scripts record under ``docs/figures/`` (for
example ``python -m tools.bench_scale`` writes ``docs/figures/scale.json``), so
checking them costs nothing and refreshing them is one bench run.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.campaign.plan import CampaignSpec, tasks
from conformance.requirements import REGISTRY
from conformance.requirements.state_crash import KILLS_PER_EXAMPLE
from conformance.runner import PROFILES
from conformance.shard import Shard, window
from tools import benchfigures, nodefigures

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "docs" / "figures"
MARKED = re.compile(r"<!-- figure:([a-z0-9-]+) -->(.*?)<!-- /figure -->", re.DOTALL)
KILL_ID = "STATE-KILL-001"


def recorded(name: str) -> dict[str, Any]:
    """A measured figure file under docs/figures/ (written by a bench script)."""
    document: dict[str, Any] = json.loads((RECORDED / name).read_text(encoding="utf-8"))
    return document


def requirement_count() -> str:
    return str(len(REGISTRY))


def ci_kill_examples() -> int:
    return -(-PROFILES["ci"].kills // KILLS_PER_EXAMPLE)


def kill_layout() -> str:
    kills = PROFILES["ci"].kills
    return f"{kills} SIGKILLs in {ci_kill_examples()} examples of {KILLS_PER_EXAMPLE} kills"


def shard_example() -> str:
    total = ci_kill_examples()
    middle = [*window(total, Shard(2, 3)), total]
    windows = json.dumps({KILL_ID: middle})
    return (
        "```json\n"
        '"shard": {"index": 2, "count": 3, "selection": ["ALG-APPLY-001", "..."],\n'
        f'          "requirements": ["..."], "windows": {windows}}}\n'
        "```"
    )


def shard_windows() -> str:
    total = ci_kill_examples()
    return ", ".join(f"[{a}, {b})" for a, b in (window(total, Shard(k, 3)) for k in (1, 2, 3)))


@functools.cache
def paper_tasks() -> list[dict[str, Any]]:
    """The tasks, for one engine, of ``campaign --seed 1 --seeds 40 --kills 1000000``."""
    spec = CampaignSpec(
        engines=({"command": "engine"},),
        requirements=tuple(sorted(REGISTRY)),
        kills=1_000_000,
        kills_per_task=200,
        seed=1,
        seeds=40,
    )
    return tasks(spec)


def paper_campaign() -> str:
    """The task counts of the seeded million-kill campaign on 100 engines."""
    found = paper_tasks()
    kill_tasks = sum(t["requirement"] == KILL_ID for t in found)
    others = len(found) - kill_tasks
    generated = sum(1 for r in REGISTRY.values() if r.generated and r.id != KILL_ID)
    return (
        f"{KILL_ID} becomes {kill_tasks:,} seeded chunks of 200 kills per engine: "
        f"{kill_tasks * 100:,} kill tasks. With `--seeds 40` the other {len(REGISTRY) - 1} "
        f"requirements add {others:,} tasks per engine ({generated} generated ones under 40 "
        f"seeds each, the rest once), {others * 100:,} on 100 engines"
    )


def paper_task_files() -> str:
    """How many task files the million-kill campaign leaves, and about how large."""
    files = len(paper_tasks()) * 100
    return f"{files:,} task files (about {files * 2 / 1e6:.1f} GB at 2 KB each)"


SKIPPED_EXAMPLE_MS = 2.5
"""What drawing one skipped example of the kill soak cost, measured at commit c4c9373."""


def skip_cost() -> str:
    """What a derandomized window at the end of a million kills would draw first."""
    per_task = 200 // KILLS_PER_EXAMPLE
    skipped = 1_000_000 // KILLS_PER_EXAMPLE - per_task
    minutes = skipped * SKIPPED_EXAMPLE_MS / 1000 / 60
    return (
        f"{per_task} examples; derandomized windows would each draw the sequence up to "
        f"their end (about {SKIPPED_EXAMPLE_MS} ms per skipped example at `c4c9373`, so "
        f"{minutes:.0f} minutes for the last window of a million kills: {skipped:,} examples of "
        f"{KILLS_PER_EXAMPLE} kills"
    )


def scale_digest() -> str:
    figures = recorded("scale.json")
    runs = figures["runs"]
    same = len({r["verdict_digest"] for r in runs}) == 1
    words = " and ".join(f"`-n {r['workers']}`" for r in runs)
    agreement = "give the same digest" if same else "give DIFFERENT digests"
    return (
        f"{words} {agreement} (`python -m tools.bench_scale`, suite "
        f"{figures['suite_version']}, {figures['requirements']} requirements: "
        f"`{runs[0]['verdict_digest'][:12]}…`)"
    )


def scale_table() -> str:
    figures = recorded("scale.json")
    rows = [
        "| run | wall time | verdict | verdict digest |",
        "|---|---:|---|---|",
    ]
    rows += [
        f"| `certify -n {r['workers']}` | {r['wall_s']:.1f} s | {r['verdict']} "
        f"| `{r['verdict_digest'][:12]}…` |"
        for r in figures["runs"]
    ]
    load = ", ".join(f"{x:.1f}" for x in figures["load_average"])
    rows += [
        "",
        f"Suite {figures['suite_version']} ({figures['requirements']} requirements) at commit "
        f"`{figures['commit'][:7]}`, reference engine over stdio, ci profile; load average "
        f"{load} when the run started.",
    ]
    return "\n".join(rows)


def _planted_cell(planted: dict[str, Any]) -> str:
    """A planted defect's verdict, when its failing step (case and shrinking) ended, and
    the time spent on its requirement."""
    ended = f"step ended at {planted['found_s']:.0f} s, " if planted.get("found_s") else ""
    return f"{planted['outcome']} ({ended}{planted['ms'] / 1000:.0f} s on it)"


def budget_table() -> str:
    """The budgeted runs of the slow planted engine (``python -m tools.bench_budget``)."""
    runs = recorded("budget.json")["runs"]
    rows = ["| figure | " + " | ".join(f"`--chat {r['chat_s']:g}`" for r in runs) + " |"]
    rows.append("|---|" + "---|" * len(runs))

    def row(label: str, cell: Callable[[dict[str, Any]], str]) -> None:
        rows.append(f"| {label} | " + " | ".join(cell(r) for r in runs) + " |")

    row("budget", lambda r: f"{r['budget_s']:g} s")
    row(
        "wall time of the whole `certify` (start-up and report included)",
        lambda r: f"{r['wall_s']:.1f} s ({r['wall_s'] / r['budget_s']:.2f}x the budget)",
    )
    row("time the budget accounts (calibration included)", lambda r: f"{r['spent_s']:.1f} s")
    row("calibration (a few requests per op)", lambda r: f"{r['calibration_s']:.2f} s")
    row("measured chat turn", lambda r: f"{(r['rates_ms'] or {}).get('chat', 0) / 1000:.2f} s")
    row(
        "time per tier of steps",
        lambda r: ", ".join(f"{tier} {s:.0f} s" for tier, s in r["tiers_s"].items()),
    )
    row("verdict, exit status", lambda r: f"{r['verdict']}, {r['exit_status']}")
    row("requirements run / selected", lambda r: f"{r['ran']} / {r['selected']}")
    row("cut short / not run", lambda r: f"{r['cut']} / {r['not_run']}")
    for index, planted in enumerate(runs[0]["planted"]):
        row(
            f"planted {planted['defect']}: `{planted['id']}`",
            lambda r, i=index: _planted_cell(r["planted"][i]),
        )
    row("other requirements not passing", lambda r: ", ".join(r["others_not_passing"]) or "none")
    rows.append("")
    for r in runs:
        load = ", ".join(f"{x:.1f}" for x in r["load_average"]) or "not recorded"
        rows.append(
            f"`{r['command']}` at `{r['commit'][:7]}`, {r['date']}; load average {load} "
            "when it started."
        )
    return "\n".join(rows)


FIGURES: dict[str, Callable[[], str]] = {
    "requirements": requirement_count,
    "kill-layout": kill_layout,
    "shard-example": shard_example,
    "shard-windows": shard_windows,
    "paper-campaign": paper_campaign,
    "paper-task-files": paper_task_files,
    "skip-cost": skip_cost,
    "scale-digest": scale_digest,
    "scale-table": scale_table,
    "budget-table": budget_table,
    "node-mutation": nodefigures.table,
    **benchfigures.FIGURES,
}


def documents(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def rewrite(text: str, cache: dict[str, str]) -> tuple[str, list[str]]:
    """*text* with every marked block rewritten, and the names of blocks that changed."""
    changed: list[str] = []

    def fill(match: re.Match[str]) -> str:
        name, old = match[1], match[2]
        if name not in FIGURES:
            raise SystemExit(f"error: unknown figure {name!r}")
        if name not in cache:
            cache[name] = FIGURES[name]()
        new = f"\n{cache[name]}\n" if old.startswith("\n") else cache[name]
        if new != old:
            changed.append(name)
        return f"<!-- figure:{name} -->{new}<!-- /figure -->"

    return MARKED.sub(fill, text), changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.docfigures", description=__doc__)
    parser.add_argument("--check", action="store_true", help="rewrite nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    cache: dict[str, str] = {}
    stale = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        new, changed = rewrite(text, cache)
        where = path.relative_to(ROOT)
        stale += [f"{where}: figure {name} is stale" for name in changed]
        if changed and not args.check:
            path.write_text(new, encoding="utf-8")
    for line in stale:
        print(line if args.check else line.replace("is stale", "rewritten"))
    if args.check and stale:
        print("run `python -m tools.docfigures` (or `nox -s docfigures`) to rewrite them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
