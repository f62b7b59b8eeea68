"""docs/traceability.md § Bounds: every stated limit of docs/ has a row, and every row
cites requirements that exist (or, for a bound of the suite itself, a test file that does).
"""

from __future__ import annotations

import re
from pathlib import Path

from conformance.requirements import REGISTRY
from conformance.requirements.registry import ID_PATTERN

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "traceability.md"
SECTION = re.compile(r"^## Bounds$(.*?)^## ", re.MULTILINE | re.DOTALL)
ENGINE_ROW = re.compile(r"B-\d\d")
SUITE_ROW = re.compile(r"S-\d\d")
SENTENCE = re.compile(r"docs/[a-z-]+\.md § \S")


def _rows() -> list[list[str]]:
    found = SECTION.search(DOC.read_text(encoding="utf-8"))
    assert found, "docs/traceability.md has no '## Bounds' section"
    rows = []
    for line in found.group(1).splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells and (ENGINE_ROW.fullmatch(cells[0]) or SUITE_ROW.fullmatch(cells[0])):
            rows.append(cells)
    return rows


def test_rows_are_numbered_once() -> None:
    names = [cells[0] for cells in _rows()]
    assert any(ENGINE_ROW.fullmatch(n) for n in names), "no B-NN rows"
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


def test_every_bound_row_cites_existing_requirements() -> None:
    for cells in _rows():
        if not ENGINE_ROW.fullmatch(cells[0]):
            continue
        assert len(cells) == 5, f"{cells[0]}: {len(cells)} cells, expected 5"
        row, bound, sentence, cited, forms = cells
        assert bound and forms, f"{row}: a bound and its forms are required"
        assert SENTENCE.search(sentence), f"{row}: {sentence!r} names no docs section"
        ids = ID_PATTERN.findall(cited)
        assert ids, f"{row}: cites no requirement"
        leftover = ID_PATTERN.sub("", cited).replace(",", "").strip()
        assert not leftover, f"{row}: unexpected text {leftover!r} among the ids"
        unknown = sorted(set(ids) - set(REGISTRY))
        assert not unknown, f"{row}: cites unknown requirements {unknown}"


def test_every_suite_bound_row_names_a_test_file() -> None:
    for cells in _rows():
        if not SUITE_ROW.fullmatch(cells[0]):
            continue
        assert len(cells) == 4, f"{cells[0]}: {len(cells)} cells, expected 4"
        row, _, sentence, checked_by = cells
        assert SENTENCE.search(sentence), f"{row}: {sentence!r} names no docs section"
        assert (ROOT / checked_by).is_file(), f"{row}: {checked_by} is not a file"


CITATION = re.compile(r"docs/([a-z-]+\.md) § ([^;(]+)")


def _headings(name: str) -> set[str]:
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    return {m.group(1).strip() for m in re.finditer(r"^#{2,4} (.+)$", text, re.MULTILINE)}


def test_every_cited_section_exists() -> None:
    for cells in _rows():
        for doc, section in CITATION.findall(cells[2]):
            assert (ROOT / "docs" / doc).is_file(), f"{cells[0]}: no docs/{doc}"
            heading = section.strip()
            found = any(h == heading or h.startswith(f"{heading}:") for h in _headings(doc))
            assert found, f"{cells[0]}: docs/{doc} has no section {heading!r}"
