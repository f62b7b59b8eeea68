"""The table of fields read back from disk (conformance/data/disk_fields.json) is closed
against docs/state.md: every member of the manifest and of a boot event its examples show,
and every field of every record kind its kinds table lists (with the members of a ``said``
entry), has a row; every row names requirements that exist; every row whose field an engine
reads as a number or a constrained string has spellings to send. A field the docs gain
without a row, and so without cases, fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conformance.disk_variants import ROWS, rows_of, spellings
from conformance.requirements import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
STATE = (ROOT / "docs" / "state.md").read_text(encoding="utf-8")
KIND_ROW = re.compile(r"^\| `([a-z]+)` \|(.*?)\|(.*?)\|$", re.MULTILINE)
JSON_BLOCK = re.compile(r"```json\n(\{.*?\})\n```", re.DOTALL)
READ_TYPES = {
    "count",
    "integer",
    "version",
    "boot",
    "digest",
    "address",
    "key",
    "status",
    "fixed",
    "bits",
}


def _kinds_table() -> dict[str, set[str]]:
    """The fields of each record kind the kinds table lists (required and optional)."""
    section = STATE.split("## The persistent core", 1)[1].split("\n## ", 1)[0]
    fields: dict[str, set[str]] = {}
    for kind, required, optional in KIND_ROW.findall(section):
        names = re.findall(r"`([a-z_]+)` \((?:str|int|the|always|a list|32|`spec)", required)
        names += re.findall(r"`([a-z_]+)`,", required)
        names += re.findall(r"`([a-z_]+)` \(\d", optional)
        fields[kind] = {n for n in names if n not in ("speculative", "coherent", "rejected")}
    return fields


def _examples() -> list[dict[str, object]]:
    return [json.loads(block) for block in JSON_BLOCK.findall(STATE)]


def test_every_record_field_has_a_row() -> None:
    table = _kinds_table()
    assert set(table) == {"candidate", "recognizer", "session", "life", "vault"}, table
    rows = {(row["kind"], row["field"]) for row in rows_of("core.jsonl")}
    missing = {(kind, name) for kind, names in table.items() for name in names} - rows
    assert not missing, f"record fields of docs/state.md without a row: {sorted(missing)}"
    said = set(re.findall(r'"([a-z_]+)": (?:str|int)', STATE))
    assert said == {"claim", "text", "turn_idx"}, said
    assert {("vault", f"said[].{name}") for name in said} <= rows


def test_every_manifest_and_boot_member_has_a_row() -> None:
    manifest, boot = (e for e in _examples() if "checksum" in e or "boot" in e)
    for file, example in (("manifest.json", manifest), ("lineage.journal", boot)):
        names = {row["field"] for row in rows_of(file)}
        assert set(example) <= names, f"{file}: {sorted(set(example) - names)} without a row"
    assert "files.core.jsonl" in {row["field"] for row in rows_of("manifest.json")}


def test_rows_name_existing_requirements_and_have_spellings() -> None:
    for row in ROWS:
        unknown = [req for req in row["covered_by"] if req not in REGISTRY]
        assert not unknown, f"{row['file']} {row['field']}: unknown {unknown}"
        if row["type"] in READ_TYPES:
            assert spellings(row), f"{row['file']} {row['field']}: no spellings"
            assert row["covered_by"], f"{row['file']} {row['field']}: no requirement"
        if row["type"] in ("count", "integer", "version", "boot"):
            labels = {s.label for s in spellings(row)}
            assert {"true", "-0", "2^64", "Arabic-Indic digits", "named twice"} <= labels
