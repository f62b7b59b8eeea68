"""docs/normative.json: every normative sentence of docs/ has an entry saying what checks it.

The rule that makes a sentence normative and its stable key are in ``tools/normative.py``.
An entry cites requirements that exist, a row of docs/spec.md § Freedoms, an informative
reason, a gap the ledger describes, or the counted ``unreviewed`` backlog; a new sentence
with no entry fails here until ``python -m tools.normative --add-unreviewed`` (or a review)
gives it one. See docs/traceability.md § Normative sentences.
"""

from __future__ import annotations

import pytest

from conformance.requirements import REGISTRY
from tools import normative

LEDGER = normative.load()


def test_the_ledger_matches_the_docs() -> None:
    found = normative.problems(LEDGER, set(REGISTRY))
    assert not found, (
        "docs/normative.json is out of step with docs/ (python -m tools.normative "
        "--add-unreviewed for new sentences, --prune for gone ones, then review):\n"
        + "\n".join(found)
    )


def test_every_entry_holds_its_text_and_one_status() -> None:
    for key, entry in LEDGER["sentences"].items():
        assert set(entry) == {"text", "checked_by"}, f"{key}: members {sorted(entry)}"
        assert normative.status(entry["checked_by"]) in normative.STATUSES, key


def test_traceability_section_is_current() -> None:
    current = normative.TRACEABILITY.read_text(encoding="utf-8")
    assert normative.BEGIN in current and normative.END in current
    stale = "docs/traceability.md § Normative sentences is stale: run python -m tools.gen_spec"
    assert normative.render(current) == current, stale


def test_a_new_sentence_without_an_entry_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = normative.sentences()
    extra = normative.extract("state.md", "## Invented\n\nA port must never do this.\n")
    monkeypatch.setattr(normative, "sentences", lambda docs=normative.DOCS: real + extra)
    found = normative.problems(LEDGER, set(REGISTRY))
    assert any(line.startswith(f"no entry: {extra[0].key}") for line in found), found


def test_an_unknown_id_and_a_gone_sentence_fail() -> None:
    key = next(iter(LEDGER["sentences"]))
    broken = {
        **LEDGER,
        "sentences": {
            **LEDGER["sentences"],
            key: {**LEDGER["sentences"][key], "checked_by": ["NOPE-NONE-001"]},
            "state.md#gone#0000000000": {"text": "A gone sentence.", "checked_by": "unreviewed"},
        },
    }
    found = normative.problems(broken, set(REGISTRY))
    assert f"{key}: unknown requirement NOPE-NONE-001" in found
    assert any(line.startswith("sentence gone: state.md#gone#0000000000") for line in found)


@pytest.mark.parametrize(
    "text",
    [
        "An engine must answer every line.",
        "A denial is read as a CORRECTION.",
        "The subject is the noun after the verb.",
        "A RECALL answers with the turns that named its subject.",
        "See the table below for an example.",
    ],
)
def test_every_sentence_is_a_ledger_sentence(text: str) -> None:
    assert [s.text for s in normative.extract("x.md", f"## S\n\n{text}\n")] == [text]


def test_a_paragraph_is_split_into_sentences_and_a_list_number_is_none() -> None:
    found = normative.extract("x.md", "## S\n\nOne rule. Two rules; `three` too.\n\n1. Four.\n")
    assert [s.text for s in found] == ["One rule.", "Two rules;", "`three` too.", "Four."]


def test_a_section_marked_informative_is_left_out_with_its_subsections() -> None:
    text = (
        "## Rules\n\nA rule.\n\n## Overview\n\n<!-- informative -->\n\nAn overview.\n\n"
        "| a | b |\n|---|---|\n| row | x |\n\n### Inside\n\nStill informative.\n\n"
        "## Back\n\nAnother rule.\n"
    )
    assert [s.text for s in normative.extract("x.md", text)] == ["A rule.", "Another rule."]


def test_the_mark_counts_only_right_under_a_heading() -> None:
    text = "## Rules\n\nA rule.\n\n<!-- informative -->\n\nStill a rule.\n"
    assert [s.text for s in normative.extract("x.md", text)] == ["A rule.", "Still a rule."]


def test_table_body_rows_are_sentences_and_headers_are_not() -> None:
    found = normative.extract("x.md", "## S\n\n| a | b |\n|---|---|\n| one | two |\n")
    assert [(s.text, s.row) for s in found] == [("| one | two |", True)]


def test_keys_do_not_move_when_other_text_changes() -> None:
    text = "## S\n\nA key is never empty. Another sentence must hold.\n"
    before = {s.text: s.key for s in normative.extract("x.md", text)}
    edited = "## S\n\nAn inserted sentence.\n\n" + text.replace("Another", "A changed")
    after = {s.text: s.key for s in normative.extract("x.md", edited)}
    assert after["A key is never empty."] == before["A key is never empty."]


def test_the_same_sentence_twice_gets_two_keys() -> None:
    found = normative.extract("x.md", "## S\n\nIt must hold.\n\nIt must hold.\n")
    assert len({s.key for s in found}) == 2


def test_the_mark_is_documented() -> None:
    documented = " ".join((normative.__doc__ or "").split())
    assert ":data:`INFORMATIVE`" in documented
    assert normative.INFORMATIVE == "<!-- informative -->"
