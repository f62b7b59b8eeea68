"""The table of quoted client texts (conformance/quoted_texts.py) lists every op and every
argument docs/protocol.md defines: a new op or argument must say which refusals quote its
text (PROTO-QUOTE-001/002 then generate its cases) or why none does."""

from __future__ import annotations

import re
from pathlib import Path

from conformance import quoted_texts

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
HEADING = re.compile(r"^### `([a-z_.]+)`\s*$")
ROW = re.compile(r"^\| `([a-z_]+\.[a-z_]+)` \| (.*?) \| .* \|\s*$")


def _top_level_names(spec: str) -> list[str]:
    """The member names at depth 1 of an ``Args `{...}``` object as the docs write it."""
    names, depth = [], 0
    for match in re.finditer(r'[{}\[\]]|"([A-Za-z_]+)":', spec):
        token = match.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif depth == 1:
            names.append(match.group(1))
    return names


def _table_args(cell: str) -> list[str]:
    """The argument names of an ops-table cell: backticked names before the first colon,
    parenthesised remarks left out."""
    head = re.sub(r"\([^()]*\)", "", cell).split(":", 1)[0]
    return re.findall(r"`([a-z_]+)`", head)


def documented_ops() -> dict[str, list[str]]:
    """Every op of docs/protocol.md with the arguments it documents, in order."""
    ops: dict[str, list[str]] = {}
    lines = DOC.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading:
            section = "\n".join(lines[index + 1 : index + 12])
            args = re.search(r"Args `(\{.*?\})`", section, re.DOTALL)
            ops[heading.group(1)] = _top_level_names(args.group(1)) if args else []
        row = ROW.match(line)
        if row:
            ops.setdefault(row.group(1), _table_args(row.group(2)))
    return ops


def test_the_docs_are_parsed() -> None:
    ops = documented_ops()
    assert ops["session.open"] == ["register_id", "files", "store"]
    assert ops["variation.decorate"] == [
        "surface",
        "discourse_markers",
        "register_id",
        "trace_hash",
        "turn_idx",
    ]
    assert ops["state.journal"] == ["dir", "name", "repair"]
    assert ops["algebra.rotor"] == ["bivector", "angle"]
    assert ops["engine.fork"] == ["socket"]
    assert ops["hello"] == [] and ops["batch"] == ["requests"]


def test_every_documented_op_and_argument_is_in_the_table() -> None:
    documented = documented_ops()
    listed = {op: list(spec["args"]) for op, spec in quoted_texts.OPS.items()}
    missing = sorted(set(documented) - set(listed))
    assert not missing, (
        f"ops of docs/protocol.md missing from conformance/quoted_texts.py: {missing}"
    )
    stale = sorted(set(listed) - set(documented))
    assert not stale, (
        f"ops of conformance/quoted_texts.py docs/protocol.md does not define: {stale}"
    )
    for op, args in documented.items():
        assert sorted(args) == sorted(listed[op]), (
            f"{op}: docs/protocol.md documents {args}, conformance/quoted_texts.py lists "
            f"{listed[op]}"
        )


def test_every_entry_is_well_formed() -> None:
    for entry in quoted_texts.entries():
        request = entry["request"]
        assert ("line" in request) != ("op" in request), entry["name"]
        assert quoted_texts.T in repr(request), f"{entry['name']}: the text is not in the request"
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*", entry["code"]), entry["name"]
