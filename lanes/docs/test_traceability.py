"""docs/traceability.md ties every normative statement to the requirements that check it.

Every requirement must be cited by some statement, every cited id must exist, and a
statement that cites none must say why (not checkable, engine-specific, or a counted gap).
"""

from __future__ import annotations

import re
from pathlib import Path

from conformance.requirements import REGISTRY
from conformance.requirements.registry import ID_PATTERN

DOC = Path(__file__).resolve().parents[2] / "docs" / "traceability.md"
STATEMENT = re.compile(r"[a-z0-9]+(\.[a-z0-9_]+)+")
REASONS = ("not checkable:", "engine-specific:", "gap:")
ALLOWED = re.compile(r"^gaps allowed: (\d+)$", re.MULTILINE)


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 3 and STATEMENT.fullmatch(cells[0]):
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def _cited(checked_by: str) -> list[str]:
    return ID_PATTERN.findall(checked_by)


def test_statement_names_are_unique() -> None:
    names = [name for name, _, _ in _rows()]
    assert names, "no statement rows found"
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


def test_every_row_cites_requirements_or_gives_a_reason() -> None:
    for name, passage, checked_by in _rows():
        assert passage, f"{name}: no passage"
        if checked_by.startswith(REASONS):
            reason = checked_by.split(":", 1)[1].strip()
            assert reason, f"{name}: a reason word without a reason"
            continue
        ids = _cited(checked_by)
        assert ids, f"{name}: cites no requirement and gives no reason"
        leftover = ID_PATTERN.sub("", checked_by).replace(",", "").strip()
        assert not leftover, f"{name}: unexpected text {leftover!r} among the ids"


def test_every_cited_id_is_a_requirement() -> None:
    unknown = sorted({i for _, _, c in _rows() for i in _cited(c) if i not in REGISTRY})
    assert not unknown, f"traceability cites unknown ids: {unknown}"


def test_every_requirement_cites_a_statement() -> None:
    cited = {i for _, _, c in _rows() if not c.startswith(REASONS) for i in _cited(c)}
    missing = sorted(set(REGISTRY) - cited)
    assert not missing, f"requirements no statement cites: {missing}"


def test_gaps_do_not_grow() -> None:
    gaps = [name for name, _, c in _rows() if c.startswith("gap:")]
    allowed = ALLOWED.search(DOC.read_text(encoding="utf-8"))
    assert allowed, "the 'gaps allowed: N' line is missing"
    assert len(gaps) <= int(allowed.group(1)), f"{len(gaps)} gaps: {gaps}"
    assert len(gaps) == int(allowed.group(1)), "a gap was closed: lower 'gaps allowed'"


NORMATIVE_DOCS = ("spec.md", "registers.md", "state.md", "protocol.md", "intents.md")
"""The documents whose every section heading is normative unless marked otherwise."""
SECTION_REASONS = ("informative:", "suite:")
SECTION_ROW = re.compile(r"^\| docs/(\S+\.md) § (.+?) \| (.+) \|$")
FENCE = re.compile(r"^(```|~~~)")


def _headings(name: str) -> list[str]:
    """The ``##`` and ``###`` headings of docs/*name*, outside code fences."""
    found, fenced = [], False
    for line in (DOC.parent / name).read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and re.match(r"^#{2,3} ", line):
            found.append(line.lstrip("#").strip())
    return found


def _sections() -> dict[tuple[str, str], str]:
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        match = SECTION_ROW.match(line.strip())
        if match:
            key = (match.group(1), match.group(2))
            assert key not in rows, f"section {key} listed twice"
            rows[key] = match.group(3).strip()
    return rows


def test_every_normative_heading_has_a_row() -> None:
    sections = _sections()
    headings = {(name, h) for name in NORMATIVE_DOCS for h in _headings(name)}
    missing = sorted(headings - set(sections))
    assert not missing, f"headings with no row in docs/traceability.md § Sections: {missing}"
    gone = sorted(set(sections) - headings)
    assert not gone, f"§ Sections names headings that are gone: {gone}"


def test_every_section_names_statements_or_says_why_not() -> None:
    names = {name for name, _, _ in _rows()}
    for (doc, heading), cell in _sections().items():
        if cell.startswith(SECTION_REASONS):
            assert cell.split(":", 1)[1].strip(), f"{doc} § {heading}: a reason word alone"
            continue
        cited = [c.strip() for c in cell.split(",")]
        unknown = [c for c in cited if c not in names]
        assert cited and not unknown, f"{doc} § {heading}: not statements above: {unknown}"


def test_ratify_atomicity_is_traced() -> None:
    cell = _sections()[("registers.md", "Atomic commit of the pair")]
    assert "registers.commit.pair" in [c.strip() for c in cell.split(",")]
    cited = {n: c for n, _, c in _rows()}
    assert "LOAD-COMMIT-001" in cited["registers.commit.pair"]
