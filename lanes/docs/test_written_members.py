"""The written-members table (conformance/written_members.py) is a closed list of what the docs
define an engine to write: the members of the JSON examples in docs/registers.md (the pack
of § Pack format, the report of § Seal scheme) and docs/state.md (the manifest, the boot
event), the evidence members of § The ratification gate step 5, the record fields of
docs/state.md's table, the journal frame and the files of the directory layout. A member the
docs gain that the table lacks, or one the table names that the docs lack, fails here; so
does a requirement id that is not registered or whose check never names the member."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from conformance.requirements import REGISTRY
from conformance.written_members import BOOT, MANIFEST, PACK, REPORT, WRITTEN, Member, unchecked

ROOT = Path(__file__).resolve().parents[2]
STATE = (ROOT / "docs" / "state.md").read_text(encoding="utf-8")
REGISTERS = (ROOT / "docs" / "registers.md").read_text(encoding="utf-8")
JSON_BLOCK = re.compile(r"```json\n(.*?)\n\s*```", re.DOTALL)
PARENS = re.compile(r"\([^()]*\)")
NAME = re.compile(r"`([a-z_]+)`")


def _example(doc: str, heading: str) -> set[str]:
    """The top-level members of the first JSON code block under *heading*."""
    section = doc.split(heading, 1)[1].split("\n## ", 1)[0]
    block = JSON_BLOCK.search(section)
    assert block, f"{heading}: no JSON code block"
    return set(json.loads(block.group(1)))


def _evidence() -> set[str]:
    gate = REGISTERS.split("## The ratification gate", 1)[1]
    step = re.search(r"^5\. Evidence: (.*?)^6\. ", gate, re.MULTILINE | re.DOTALL)
    assert step, "docs/registers.md § The ratification gate: no step 5"
    static, _, probed = step.group(1).partition("With a probe")
    names = set(NAME.findall(PARENS.sub("", static))) | {"probe"}
    assert "probe" in NAME.findall(probed)
    return {f"evidence.{name}" for name in names}


def _records() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for line in STATE.splitlines():
        cells = [c.strip() for c in line.strip().split("|")[1:-1]]
        if len(cells) == 3 and re.fullmatch(r"`[a-z]+`", cells[0]):
            kind = cells[0].strip("`")
            said = re.search(r"`said` \(a list of at most 3 objects `(\{.*?\})`", cells[1])
            text = cells[1] + " " + cells[2]
            while PARENS.search(text):
                text = PARENS.sub("", text)
            found |= {(f"record:{kind}", name) for name in NAME.findall(text)}
            if said:
                inner = re.findall(r'"(\w+)"', said.group(1))
                found |= {(f"record:{kind}", f"said[].{name}") for name in inner}
    return found


def documented() -> set[tuple[str, str]]:
    """Every ``(document, member)`` the docs define an engine to write."""
    found = {(REPORT, name) for name in _example(REGISTERS, "## Seal scheme")}
    found |= {(REPORT, name) for name in _evidence()}
    found |= {(PACK, name) for name in _example(REGISTERS, "## Pack format")}
    found |= {(MANIFEST, name) for name in _example(STATE, "## The manifest")}
    found |= {(BOOT, name) for name in _example(STATE, "## Identity and lineage")}
    found |= _records()
    layout = STATE.split("## Directory layout", 1)[1].split("```", 2)[1]
    found |= {(name, name) for name in ("CURRENT", "LOCK") if f"\n  {name} " in layout}
    frame = STATE.split("## Journals", 1)[1].split("```", 2)[1]
    assert "payload length" in frame and "CRC-32 of the payload" in frame, frame
    found |= {("journal line", name) for name in ("length", "crc", "payload")}
    return found


def test_the_table_is_the_docs_list() -> None:
    docs = documented()
    assert len(docs) > 60, "the docs parser found too few members"
    table = {(m.document, m.name) for m in WRITTEN}
    assert len(table) == len(WRITTEN), "a member is listed twice"
    assert not docs - table, f"members the table lacks: {sorted(docs - table)}"
    assert not table - docs, f"members the docs lack: {sorted(table - docs)}"


@pytest.mark.parametrize("member", WRITTEN, ids=lambda m: f"{m.document}:{m.name}")
def test_each_member_is_checked_by_a_requirement_that_names_it(member: Member) -> None:
    assert member.definition, member
    assert bool(member.checked_by) != bool(member.unchecked), member
    leaf = member.name.rpartition(".")[2].removeprefix("said[]")
    for req_id in member.checked_by:
        assert req_id in REGISTRY, f"{member.name}: {req_id} is not a requirement"
        source = Path(inspect.getsourcefile(REGISTRY[req_id].check) or "").read_text("utf-8")
        assert leaf in source, f"{req_id}'s module never names {leaf!r}"


def test_only_the_probe_is_unchecked() -> None:
    assert [(m.document, m.name) for m in unchecked()] == [(REPORT, "evidence.probe")]
