"""Figures in README.md and docs/ are the ones tools/docfigures.py computes: a marked
block that is stale fails here (run ``python -m tools.docfigures`` to rewrite it)."""

from __future__ import annotations

import pytest

from tools import docfigures


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
