"""The type-confusion matrix (conformance/typed_fields.py) is a closed list of what the docs
type: every argument every op of docs/protocol.md lists (its `Args` or its table row), the
six members of docs/state.md's manifest, every field of its record kinds and every typed
member of a register pack (docs/registers.md). A field the
docs gain that the table lacks, or a field the table names that the docs no longer have,
fails here; so does a row whose type, optionality or nullability disagrees with the op's
argument schema (conformance/protocol/schemas)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance.typed_fields import (
    ENVELOPE_FIELDS,
    FIELDS,
    LINEAGE_FIELDS,
    MANIFEST_FIELDS,
    MUTATION_FIELDS,
    PACK_FIELDS,
    PROTOCOL_FIELDS,
    RECORD_FIELDS,
    REPORT_FIELDS,
    WRONG,
    Field,
    matrix,
    wrong_values,
)

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
STATE = (ROOT / "docs" / "state.md").read_text(encoding="utf-8")
REGISTERS = (ROOT / "docs" / "registers.md").read_text(encoding="utf-8")
SCHEMAS = ROOT / "conformance" / "protocol" / "schemas"

OP_HEADING = re.compile(r"^### `([a-z_.]+)`\n(.*?)(?=^#)", re.MULTILINE | re.DOTALL)
ARGS_SPAN = re.compile(r"Args `(\{.*?\})`", re.DOTALL)
OP_TABLE = re.compile(r"^\| op \| args \| result \|\n\|[-|]+\|\n((?:\|.*\n)+)", re.MULTILINE)
TABLE_ROW = re.compile(r"^\| `([a-z_]+\.[a-z_]+)` \| (.*?) \| ", re.MULTILINE)
PARENS = re.compile(r"\([^()]*\)")
NAME = re.compile(r"`([a-z_]+)`")


def _top_level_keys(span: str) -> list[str]:
    """The member names at the outer level of an `Args {...}` code span."""
    names, depth = [], 0
    for match in re.finditer(r'[{}\[\]]|"([^"]*)"\s*:', span):
        token = match.group(0)
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif depth == 1:
            names.append(match.group(1))
    return names


def _without_parens(text: str) -> str:
    while PARENS.search(text):
        text = PARENS.sub("", text)
    return text


def documented_arguments() -> set[tuple[str, str]]:
    """Every ``(op, argument)`` docs/protocol.md lists."""
    found: set[tuple[str, str]] = set()
    for op, body in OP_HEADING.findall(PROTOCOL + "\n#"):
        span = ARGS_SPAN.search(body)
        assert span, f"docs/protocol.md § {op}: no Args `{{...}}`"
        found |= {(op, name) for name in _top_level_keys(span.group(1))}
    rows = "".join(OP_TABLE.findall(PROTOCOL))
    assert rows, "docs/protocol.md: no | op | args | result | table"
    for op, cell in TABLE_ROW.findall(rows):
        names = _without_parens(cell).split("`: ", 1)[0].split(": ", 1)[0]
        found |= {(op, name) for name in NAME.findall(names + "`")}
    return found


def documented_manifest() -> set[str]:
    section = STATE.split("## The manifest", 1)[1]
    example = re.search(r"```json\n(.*?)\n```", section, re.DOTALL)
    assert example, "docs/state.md § The manifest: no example"
    return set(json.loads(example.group(1)))


def documented_records() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for line in STATE.splitlines():
        cells = [c.strip() for c in line.strip().split("|")[1:-1]]
        if len(cells) == 3 and re.fullmatch(r"`[a-z]+`", cells[0]):
            kind = cells[0].strip("`")
            text = _without_parens(cells[1] + " " + cells[2])
            found |= {(f"record:{kind}", name) for name in NAME.findall(text)}
    return found


def _pairs(fields: tuple[Field, ...]) -> set[tuple[str, str]]:
    return {(field.place, field.name) for field in fields}


def test_every_documented_argument_is_in_the_table() -> None:
    documented = {(f"protocol:{op}", name) for op, name in documented_arguments()}
    assert len(documented) > 40, "the docs parser found too few arguments"
    table = _pairs(PROTOCOL_FIELDS)
    assert not documented - table, f"arguments the table lacks: {sorted(documented - table)}"
    gone = sorted(table - documented)
    assert not gone, f"arguments the docs no longer list: {gone}"


def test_every_manifest_member_is_in_the_table() -> None:
    table = {field.name for field in MANIFEST_FIELDS}
    assert table == documented_manifest()


def test_every_record_field_is_in_the_table() -> None:
    documented = documented_records()
    assert {place for place, _ in documented} == {f.place for f in RECORD_FIELDS}
    table = _pairs(RECORD_FIELDS)
    assert not documented - table, f"record fields the table lacks: {sorted(documented - table)}"
    assert not table - documented, f"record fields the docs lack: {sorted(table - documented)}"


SCHEMA_TYPES = {
    "string": "string",
    "count": "integer",
    "grade": "integer",
    "angle": "number",
    "boolean": "boolean",
    "object": "object",
    "files": "object",
    "markers": "object",
    "list": "array",
    "strings": "array",
    "requests": "array",
    "multivector": "array",
}


@pytest.mark.parametrize("field", PROTOCOL_FIELDS, ids=lambda f: f"{f.place}.{f.name}")
def test_row_agrees_with_the_argument_schema(field: Field) -> None:
    op = field.place.split(":", 1)[1]
    schema = json.loads((SCHEMAS / f"args.{op}.json").read_text(encoding="utf-8"))
    prop = schema["properties"][field.name]
    assert (field.name in schema.get("required", [])) == field.required
    if "enum" in prop:
        assert field.type in ("intent", "journal")
        return
    want = SCHEMA_TYPES[field.type]
    assert prop["type"] == ([want, "null"] if field.nullable else want)
    if field.type == "count":
        assert prop.get("minimum") == 0


def test_every_type_has_wrong_values_and_none_is_right() -> None:
    assert {field.type for field in FIELDS} <= set(WRONG)
    for field in FIELDS:
        values = wrong_values(field)
        assert values, field
        assert field.nullable or None in values, f"{field}: null is wrong but not sent"
        assert not (field.nullable and None in values), f"{field}: null is right but sent"
    assert len(matrix()) == sum(len(wrong_values(f)) for f in FIELDS)


def documented_pack() -> dict[str, str]:
    """The top-level pack fields of docs/registers.md § Pack format, with their types."""
    table = REGISTERS.split("| Field | Type | Rule |", 1)[1].split("\n\n", 1)[0]
    rows = re.findall(r"^\| `([a-z_0-9]+)` \| ([a-z]+) \|", table, re.MULTILINE)
    return dict(rows)


def test_every_pack_member_is_in_the_table() -> None:
    documented = documented_pack()
    assert len(documented) == 9, documented
    top = {f.name: f.type for f in PACK_FIELDS if "." not in f.name}
    assert top == documented
    buckets = re.search(r"buckets `(\w+)`, `(\w+)`, `(\w+)`", REGISTERS)
    assert buckets, "docs/registers.md: no bucket names"
    for bucket in buckets.groups():
        names = {f.name for f in PACK_FIELDS}
        assert {f"discourse_markers.{bucket}", f"discourse_markers.{bucket}[0]"} <= names
    allowed = REGISTERS.split("The allow-list is:", 1)[1].lstrip("\n").split("\n\n", 1)[0]
    keys = set(re.findall(r"^- `(\w+)`", allowed, re.MULTILINE))
    overrides = {
        f.name.split(".")[1] for f in PACK_FIELDS if f.name.count(".") == 1 and "realizer" in f.name
    }
    assert keys and keys == overrides


def test_the_lineage_member_read_is_a_boot_event_member() -> None:
    section = STATE.split("## Identity and lineage", 1)[1]
    example = re.search(r"```json\n(.*?)\n```", section, re.DOTALL)
    assert example, "docs/state.md § Identity and lineage: no boot event"
    assert {f.name for f in LINEAGE_FIELDS} <= set(json.loads(example.group(1)))


def test_every_report_member_read_is_in_the_seal_scheme() -> None:
    scheme = REGISTERS.split("## Seal scheme", 1)[1]
    example = re.search(r"```json\n(.*?)\n\s*```", scheme, re.DOTALL)
    assert example, "docs/registers.md § Seal scheme: no report"
    members = set(json.loads(example.group(1)))
    loading = REGISTERS.split("## Loading", 1)[1].split("\n## ", 1)[0]
    read = {f.name for f in REPORT_FIELDS}
    assert read <= members
    assert all(f"`{name}`" in loading for name in read - {"seal"})


def test_every_mutation_member_is_in_the_table() -> None:
    rows = "".join(OP_TABLE.findall(PROTOCOL))
    cell = dict(TABLE_ROW.findall(rows))["state.apply"]
    ops = set(re.findall(r'"op": "(\w+)"', cell))
    members = set(re.findall(r'"(\w+)"', cell)) - ops
    assert ops == {"put", "delete", "turn"} and members
    table = {f.name.rpartition(".")[2] for f in MUTATION_FIELDS} - {"mutations[0]"}
    assert table == members


def test_every_request_member_is_in_the_table() -> None:
    table = PROTOCOL.split("| member | type | rule |", 1)[1].split("\n\n", 1)[0]
    members = set(re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE))
    assert members == {f.name for f in ENVELOPE_FIELDS}
