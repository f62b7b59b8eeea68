"""Freedoms are written: every mutation review cites what grants it.

docs/spec.md § Freedoms is one table of what an engine is free to do, each row with a
stable id ``FREE-NNN`` and its reason. Every line of the mutation review list
(``selftest/mutation/equivalent.txt``) is well formed and says why: an ``equivalent`` or
``unreachable`` review gives its reason; a ``not normative`` review cites a row of the
freedoms table, or a spec gap of ``selftest/mutation/open-gaps.txt`` that waits on a
sentence of the docs.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from selftest.mutation import reviews

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "spec.md"
ROW = re.compile(r"^\| `(FREE-\d{3})` \| (?P<what>[^|]+\S) \| (?P<why>[^|]+\S) \|$", re.MULTILINE)


def freedoms_section() -> str:
    text = SPEC.read_text("utf-8")
    assert "\n## Freedoms\n" in text, "docs/spec.md has no § Freedoms"
    return text.split("\n## Freedoms\n", 1)[1].split("\n## ", 1)[0]


def freedom_ids() -> list[str]:
    return [m.group(1) for m in ROW.finditer(freedoms_section())]


def test_the_freedoms_table_has_unique_ids_each_with_a_reason():
    section = freedoms_section()
    ids = freedom_ids()
    assert ids, "§ Freedoms holds no FREE-NNN row"
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    rows = [line for line in section.splitlines() if line.startswith("| `FREE-")]
    assert len(rows) == len(ids), "a FREE row lacks its two cells (what, reason)"


def test_every_review_line_is_well_formed():
    assert reviews.load(), "the review list is empty"


def test_every_not_normative_review_cites_a_freedom_or_an_open_gap():
    known = set(freedom_ids()) | reviews.gap_ids()
    uncited = [r.target for r in reviews.load() if r.kind == "not normative" and not r.cite]
    dangling = [f"{r.target}: {r.cite}" for r in reviews.load() if r.cite and r.cite not in known]
    assert uncited == [], "not normative reviews citing nothing"
    assert dangling == [], "citations that resolve to no FREE row and no open gap"


def test_only_not_normative_reviews_cite():
    wrong = [r.target for r in reviews.load() if r.cite and r.kind != "not normative"]
    assert wrong == []


def test_no_gap_id_is_defined_twice():
    defined = re.findall(r"^(GAP-\d{3})\b", reviews.GAPS.read_text("utf-8"), re.MULTILINE)
    twice = sorted({gap for gap in defined if defined.count(gap) > 1})
    assert twice == [], "open-gaps.txt defines these ids more than once (ids are never reused)"


def test_no_open_gap_reuses_a_closed_id():
    text = reviews.GAPS.read_text("utf-8")
    closed = re.search(r"^# closed:(.*)$", text, re.MULTILINE)
    assert closed is not None, "open-gaps.txt lacks its '# closed:' line"
    reused = set(closed[1].split()) & set(re.findall(r"^(GAP-\d{3})\b", text, re.MULTILINE))
    assert reused == set(), "an open gap reuses the id of a closed one"


def test_every_open_gap_is_cited_and_says_what_is_missing():
    text = reviews.GAPS.read_text("utf-8")
    cited = {r.cite for r in reviews.load() if r.cite}
    for gap in reviews.gap_ids():
        block = text.split(gap, 1)[1].split("\nGAP-", 1)[0]
        assert "missing:" in block and "mutants:" in block, gap
        assert gap in cited, f"{gap} is cited by no review line"


def test_targets_are_mutant_keys_or_functions():
    bad = [r.target for r in reviews.load() if "__mutmut_" in r.target]
    assert bad == [], "a review names a mutant by mutmut's number, which an edit can reassign"
