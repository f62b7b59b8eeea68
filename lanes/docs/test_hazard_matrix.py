"""docs/hazards.json: every bound-like sentence of docs/ has a row, and every hazard of a
row is checked by a requirement (and, where cited, a broken engine that makes the mistake).

See docs/traceability.md § Hazards.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conformance.requirements import REGISTRY
from selftest.engines import BROKEN
from selftest.state_mutants import BROKEN_STATE
from tools import hazards

MATRIX = hazards.load()
ROWS: list[dict[str, Any]] = MATRIX["rows"]
REASONS = ("n/a:", "engine-specific:")
SCOPES = ("suite:", "not a bound:")
ENGINES = {**BROKEN, **BROKEN_STATE}


def _checks() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (row["row"], kind, check)
        for row in ROWS
        for kind, value in (row.get("hazards") or {}).items()
        if isinstance(value, list)
        for check in value
    ]


def test_rows_are_numbered_in_order() -> None:
    assert [row["row"] for row in ROWS] == [f"H-{i:02d}" for i in range(1, len(ROWS) + 1)]


@pytest.mark.parametrize("row", ROWS, ids=[row["row"] for row in ROWS])
def test_every_hazard_has_a_check(row: dict[str, Any]) -> None:
    found = row.get("hazards")
    if not found:
        scope = row.get("scope", "")
        assert scope.startswith(SCOPES) and scope.split(":", 1)[1].strip(), (
            f"{row['row']}: no hazards, and no scope saying why (one of {SCOPES})"
        )
        return
    assert "scope" not in row, f"{row['row']}: hazards and a scope at once"
    for kind, value in found.items():
        assert kind in MATRIX["kinds"], f"{row['row']}: unknown hazard kind {kind!r}"
        if isinstance(value, str):
            assert value.startswith(REASONS) and value.split(":", 1)[1].strip(), (
                f"{row['row']} {kind}: neither checks nor a reason ({REASONS})"
            )
            continue
        assert value, f"{row['row']} {kind}: a hazard with no check"
        for check in value:
            assert set(check) <= {"id", "case", "mutant"}, f"{row['row']} {kind}: {check}"
            assert check.get("case", "").strip(), f"{row['row']} {kind}: a check without a case"


@pytest.mark.parametrize("where,kind,check", _checks())
def test_checks_cite_requirements_and_broken_engines(
    where: str, kind: str, check: dict[str, Any]
) -> None:
    assert check["id"] in REGISTRY, f"{where} {kind}: no requirement {check['id']}"
    mutant = check.get("mutant")
    if mutant is None:
        return
    assert mutant in ENGINES, f"{where} {kind}: no broken engine {mutant!r}"
    catches = ENGINES[mutant].catches
    assert check["id"] in catches, f"{where} {kind}: {mutant} catches {catches}, not {check['id']}"


@pytest.mark.parametrize("row", ROWS, ids=[row["row"] for row in ROWS])
def test_every_hazard_has_a_broken_engine_making_it(row: dict[str, Any]) -> None:
    for kind, value in (row.get("hazards") or {}).items():
        if isinstance(value, list):
            assert any(check.get("mutant") for check in value), (
                f"{row['row']} {kind}: no check names a broken engine that makes this mistake "
                "(add one to selftest/, failing the requirement while the reference passes)"
            )


def test_every_bound_like_sentence_is_in_the_matrix() -> None:
    missing = [
        f"docs/{s.doc} § {s.section}: {s.text[:160]}"
        for s in hazards.bound_sentences(MATRIX["docs"])
        if not hazards.quoted_by(s, ROWS)
    ]
    assert not missing, (
        "bound-like sentences no row of docs/hazards.json quotes (add a row with the "
        "hazards that apply and what checks them):\n" + "\n".join(missing)
    )


@pytest.mark.parametrize("row", ROWS, ids=[row["row"] for row in ROWS])
def test_every_quote_is_a_sentence_of_its_sections(row: dict[str, Any]) -> None:
    assert row["doc"] in MATRIX["docs"], f"{row['row']}: docs/{row['doc']} is not scanned"
    found = hazards.sentences(row["doc"])
    sections = []
    for quote in row["quotes"]:
        holding = [s for s in found if quote in s.text]
        assert holding, f"{row['row']}: {quote!r} is no longer in docs/{row['doc']}"
        sections += [s.section for s in holding if s.section not in sections]
    assert sections == row["sections"], f"{row['row']}: quoted in {sections}, not {row['sections']}"


def test_traceability_section_is_current() -> None:
    current = hazards.TRACEABILITY.read_text(encoding="utf-8")
    assert hazards.BEGIN in current and hazards.END in current
    stale = "docs/traceability.md § Hazards is stale: run python -m tools.gen_spec"
    assert hazards.render(current) == current, stale


@pytest.mark.parametrize(
    "text",
    [
        "A label has at most 40 characters.",
        "The name is up to 255 bytes long.",
        "Each digest is exactly 32 bytes.",
        "A count of 12 code points is kept.",
        "Identifiers hold 8 digits.",
        "The list is sorted, at most 5 entries.",
        "Names are sorted by code point, never by insertion.",
        "A count is an integer >= 0.",
        "The level is in 1..9.",
        "Retries run from 1 to 5 times.",
    ],
)
def test_the_scanner_finds_a_new_bound(text: str) -> None:
    assert hazards.is_bound_like(text), text


@pytest.mark.parametrize(
    "text",
    ["The engine answers every line.", "A label is free text.", "Step 3 runs after step 2."],
)
def test_the_scanner_leaves_other_sentences(text: str) -> None:
    assert not hazards.is_bound_like(text), text


def test_kinds_are_the_documented_ones() -> None:
    documented = hazards.TRACEABILITY.read_text(encoding="utf-8")
    section = documented[documented.index("## Hazards") : documented.index(hazards.BEGIN)]
    listed = re.findall(r"^\* `([a-z]+)`:", section, re.MULTILINE)
    assert listed == list(MATRIX["kinds"]), listed
