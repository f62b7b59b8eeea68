"""Figures in README.md and docs/ are the ones tools/docfigures.py computes: a marked
block that is stale fails here (run ``python -m tools.docfigures`` to rewrite it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools import benchfigures, benchrecord, docfigures

LEGACY = {"scale"}
"""Recorded before runs carried their command and machine (docs/campaigns.md renders it)."""
RUN_LISTS = {"budget": "budget-table", "node-mutation": "node-mutation"}
"""Files that keep several runs, each naming its own command, date, commit and load, with
the figure that renders them (``tools.bench_budget`` keeps one run per budget and wait)."""


def test_no_marked_figure_is_stale() -> None:
    cache: dict[str, str] = {}
    stale = []
    for path in docfigures.documents():
        _, changed = docfigures.rewrite(path.read_text(encoding="utf-8"), cache)
        stale += [f"{path.name}: {name}" for name in changed]
    assert not stale, f"stale figures (run python -m tools.docfigures): {stale}"


def test_every_figure_is_used_somewhere() -> None:
    used = set()
    for path in docfigures.documents():
        used |= {m[1] for m in docfigures.MARKED.finditer(path.read_text(encoding="utf-8"))}
    assert used == set(docfigures.FIGURES)


def test_a_hand_edited_figure_is_caught_and_rewritten() -> None:
    text = "The suite has <!-- figure:requirements -->61<!-- /figure --> requirements.\n"
    new, changed = docfigures.rewrite(text, {})
    assert changed == ["requirements"]
    assert f"-->{docfigures.requirement_count()}<!--" in new
    assert docfigures.rewrite(new, {})[1] == []


def test_a_block_figure_keeps_its_own_lines() -> None:
    text = "<!-- figure:kill-layout -->\nold\n<!-- /figure -->"
    new, _ = docfigures.rewrite(text, {})
    assert new == f"<!-- figure:kill-layout -->\n{docfigures.kill_layout()}\n<!-- /figure -->"


def test_an_unknown_figure_is_an_error() -> None:
    with pytest.raises(SystemExit):
        docfigures.rewrite("<!-- figure:no-such -->x<!-- /figure -->", {})


def test_every_recorded_run_names_its_command_date_commit_and_machine() -> None:
    skipped = LEGACY | set(RUN_LISTS)
    names = sorted(p.stem for p in benchrecord.RECORDED.glob("*.json") if p.stem not in skipped)
    assert names, "no recorded runs under docs/figures/"
    for name in names:
        document = benchrecord.load(name)
        assert document["name"] == name
        assert document["command"].startswith(("python -m ", "nice -n 10 python -m "))
        assert {"cpus", "python", "numpy"} <= set(document["machine"]), name
        assert isinstance(document["figures"], dict) and document["figures"], name


def test_every_recorded_run_is_rendered_somewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    read: set[str] = set()
    real = benchrecord.load

    def spy(name: str, root: Path = benchrecord.RECORDED) -> dict[str, Any]:
        read.add(name)
        return real(name, root)

    monkeypatch.setattr(benchfigures, "load", spy)
    for render in benchfigures.FIGURES.values():
        render()
    recorded = {p.stem for p in benchrecord.RECORDED.glob("*.json")} - LEGACY - set(RUN_LISTS)
    assert recorded <= read, f"recorded but never shown: {sorted(recorded - read)}"


def test_a_recorded_run_renders_into_its_block(tmp_path: Path) -> None:
    run = benchrecord.Recording("session", ["--turns", "10"])
    run.write(
        {
            "turns": 10,
            "samples": 4,
            "long_median_ms": 0.2,
            "fresh_median_ms": 0.1,
            "rss_first_mib": 30.0,
            "rss_growth_mib": 0.01,
        },
        target=tmp_path / "session.json",
    )
    document = benchrecord.load("session", tmp_path)
    assert document["command"].endswith("--turns 10")
    assert "load_average_start" in document["machine"]
    assert "`" in benchrecord.provenance(document)


def test_a_transcribed_run_says_it_was_not_measured_by_its_command() -> None:
    document = {
        "command": "python -m tools.bench_tests",
        "date": "d",
        "commit": "c",
        "machine": {"cpus": 2, "python": "3", "numpy": "2"},
        "transcribed": "`e0c71df`",
    }
    assert "not yet re-measured" in benchrecord.provenance(document)


@pytest.mark.parametrize("name", sorted(RUN_LISTS))
def test_every_run_of_a_run_list_names_its_command_and_is_rendered(name: str) -> None:
    runs = docfigures.recorded(f"{name}.json")["runs"]
    assert runs, name
    for run in runs:
        assert run["command"].startswith("python -m "), run
        assert {"date", "commit", "load_average"} <= set(run), run
    assert RUN_LISTS[name] in docfigures.FIGURES
    rendered = docfigures.FIGURES[RUN_LISTS[name]]()
    assert all(run["command"] in rendered for run in runs)
