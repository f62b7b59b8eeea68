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
