"""docs/traceability.md § Orderings: every numbered list of docs/ has a row, and every row
cites requirements that exist or says why not (a `gap:` counted, never growing)."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.requirements import REGISTRY
from conformance.requirements.registry import ID_PATTERN

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TABLE = DOCS / "traceability.md"
SECTION = re.compile(r"^## Orderings$(.*?)^## ", re.MULTILINE | re.DOTALL)
ROW = re.compile(r"O-\d\d")
CITATION = re.compile(r"docs/([a-z-]+\.md) § ([^;]+)")
FURTHER = re.compile(r"; § ([^;]+)")
STEP = re.compile(r"^\d+\. ")
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{2,4}) (.+)$")
NOT_AN_ORDER = "not an engine order:"
GAP = "gap:"
ALLOWED = re.compile(r"^ordering gaps allowed: (\d+)$", re.MULTILINE)


def _section() -> str:
    found = SECTION.search(TABLE.read_text(encoding="utf-8"))
    assert found, "docs/traceability.md has no '## Orderings' section"
    return found.group(1)


def _rows() -> list[list[str]]:
    rows = []
    for line in _section().splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells and ROW.fullmatch(cells[0]):
            rows.append(cells)
    return rows


def _cited_sections(sentence: str) -> set[tuple[str, str]]:
    """Every (document, heading) a sentence cell names: ``docs/x.md § A; § B; docs/y.md § C``."""
    found = set()
    for part in re.split(r"; (?=docs/)", sentence):
        match = CITATION.match(part.strip())
        if not match:
            continue
        doc = match.group(1)
        found.add((doc, match.group(2).strip()))
        found |= {(doc, more.strip()) for more in FURTHER.findall(part)}
    return found


def numbered_lists(text: str) -> set[str]:
    """The headings of *text* (a Markdown document) under which a numbered list starts,
    outside code fences."""
    found, heading, fenced = set(), "", False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        match = HEADING.match(line)
        if match:
            heading = match.group(2).strip()
        elif STEP.match(line) and heading:
            found.add(heading)
    return found


def _headings(doc: str) -> set[str]:
    text = (DOCS / doc).read_text(encoding="utf-8")
    return {m.group(2).strip() for m in map(HEADING.match, text.splitlines()) if m}


def test_rows_are_numbered_once_and_whole() -> None:
    rows = _rows()
    assert rows, "no O-NN rows"
    names = [cells[0] for cells in rows]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    for cells in rows:
        assert len(cells) == 5, f"{cells[0]}: {len(cells)} cells, expected 5"
        assert all(cells), f"{cells[0]}: an empty cell"


def test_every_numbered_list_has_a_row() -> None:
    cited = set().union(*(_cited_sections(cells[2]) for cells in _rows()))
    missing = sorted(
        (doc.name, heading)
        for doc in sorted(DOCS.glob("*.md"))
        for heading in numbered_lists(doc.read_text(encoding="utf-8"))
        if (doc.name, heading) not in cited
    )
    assert not missing, f"numbered lists no row of § Orderings cites: {missing}"


def test_every_cited_section_exists() -> None:
    for cells in _rows():
        sections = _cited_sections(cells[2])
        assert sections, f"{cells[0]}: {cells[2]!r} names no docs section"
        for doc, heading in sections:
            assert (DOCS / doc).is_file(), f"{cells[0]}: no docs/{doc}"
            assert heading in _headings(doc), f"{cells[0]}: docs/{doc} has no § {heading}"


def test_every_row_cites_requirements_or_says_why() -> None:
    for cells in _rows():
        row, checked_by = cells[0], cells[4]
        if checked_by.startswith(NOT_AN_ORDER):
            assert checked_by[len(NOT_AN_ORDER) :].strip(), f"{row}: a reason word alone"
            continue
        ids_part, _, gap = checked_by.partition(f"; {GAP}")
        ids = ID_PATTERN.findall(ids_part)
        assert ids, f"{row}: cites no requirement"
        leftover = ID_PATTERN.sub("", ids_part).replace(",", "").strip()
        assert not leftover, f"{row}: unexpected text {leftover!r} among the ids"
        unknown = sorted(set(ids) - set(REGISTRY))
        assert not unknown, f"{row}: cites unknown requirements {unknown}"
        if f"; {GAP}" in checked_by:
            assert gap.strip(), f"{row}: a gap without saying what is unchecked"


def test_ordering_gaps_do_not_grow() -> None:
    gaps = [cells[0] for cells in _rows() if f"; {GAP}" in cells[4]]
    allowed = ALLOWED.search(_section())
    assert allowed, "the 'ordering gaps allowed: N' line is missing"
    assert len(gaps) <= int(allowed.group(1)), f"{len(gaps)} ordering gaps: {gaps}"
    assert len(gaps) == int(allowed.group(1)), "a gap was closed: lower 'ordering gaps allowed'"


ORDER_WORD = re.compile(r"\b(before|after|then)\b")
ORDER_DOCS = ("state.md", "protocol.md", "registers.md")
NO_ORDER_STATED = {
    ("state.md", "The life"): "values (`null before any`, the field after the latest turn)",
    ("protocol.md", "`register.ratify`"): 'a position in text (`": "` after keys)',
    ("protocol.md", "`variation.decorate`"): "a position in text (a space before the closing)",
    ("protocol.md", "In-process engines"): "the suite's host process, not an engine",
    (
        "protocol.md",
        "Responses",
    ): "a position in text (no cut before character 200)",
}
"""Sections of ORDER_DOCS whose *before*, *after* or *then* orders nothing an engine does."""


def ordering_sections(text: str) -> set[str]:
    """The headings of *text* under which a sentence says *before*, *after* or *then*,
    outside code fences and tables."""
    found, heading, fenced = set(), "", False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = HEADING.match(line)
        if fenced or line.startswith("|"):
            continue
        if match:
            heading = match.group(2).strip()
        elif ORDER_WORD.search(line) and heading:
            found.add(heading)
    return found


def test_every_section_stating_an_order_has_a_row() -> None:
    cited = set().union(*(_cited_sections(cells[2]) for cells in _rows()))
    stating = {
        (doc, heading)
        for doc in ORDER_DOCS
        for heading in ordering_sections((DOCS / doc).read_text(encoding="utf-8"))
    }
    missing = sorted(stating - cited - set(NO_ORDER_STATED))
    assert not missing, (
        f"sections saying before/after/then that no row of § Orderings cites: {missing}"
    )
    stale = sorted(set(NO_ORDER_STATED) - (stating - cited))
    assert not stale, f"NO_ORDER_STATED names sections that are cited or say no order: {stale}"


def test_a_new_numbered_list_is_found() -> None:
    text = "## A\n\nprose\n\n```\n1. fenced\n```\n\n### B\n\n1. one\n2. two\n"
    assert numbered_lists(text) == {"B"}
