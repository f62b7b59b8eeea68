"""The inventory of every order docs/ states, and the pairs of checks each order fixes.

An order is stated by a numbered list or by a sentence that says *first*, *then*,
*before*, *after*, *in this order*, *in the order* or *in order* (whole words, any case)
in a document of :data:`DOCS`, outside code fences and generated blocks. Each such unit
has a stable key (``<doc>#<section slug>#<10 hex digits>``, as in ``tools/normative.py``;
a numbered list is keyed by its first item, suffixed ``#list``). ``docs/orderings.json``
(the inventory) holds every key under its section, and says for each section what checks
its orders: rows of docs/traceability.md § Orderings (``O-NN``), requirement ids, or
``not an engine order: <reason>``. A key the inventory does not hold, or holds as
``unreviewed``, is an unmapped order: ``lanes/docs/test_orderings_inventory.py`` fails on it.

For an order of checks, ``pairs`` lists the checks in the documented order; every pair
(i < j) is an input that breaks both and expects check i's answer. Each pair says how it
is met: ``<REQ-ID>: <case>`` (a case of that requirement's coverage plan, so it runs in
every certify), ``FREE-NNN: <why>`` (docs/spec.md § Freedoms leaves the pair's order
free: the suite accepts either answer), ``unreachable: <why>`` (no input breaks both), or
``open`` (not yet checked; counted, and the count may only fall). ``within`` lists pairs
of conditions inside one step, written ``a < b`` in the same way.

Commands (``python -m tools.orderings``): ``--figures`` prints the counts;
``--add-unreviewed`` records new keys as ``unreviewed`` under their section (a new section
is ``unmapped`` until someone says what checks it) and drops keys whose text is gone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools import normative

ROOT = Path(__file__).resolve().parents[1]
INVENTORY = ROOT / "docs" / "orderings.json"
DOCS = normative.DOCS
ORDER_WORDS = re.compile(
    r"\b(first|then|before|after|in this order|in the order|in order)\b", re.IGNORECASE
)
STEP = re.compile(r"^\d+\. ")
COVERED = re.compile(r"^([A-Z]+(?:-[A-Z0-9]+)*-\d{3}): (.+)$")
FREE = re.compile(r"^(FREE-\d{3}): (.+)$")
UNREACHABLE = "unreachable: "
NOT_AN_ORDER = "not an engine order: "
OPEN = "open"
UNREVIEWED = "unreviewed"
UNMAPPED = "unmapped"


@dataclass(frozen=True)
class Unit:
    """One stated order: its key, document, section and text."""

    key: str
    doc: str
    section: str
    text: str


def _key(doc: str, heading: str, text: str) -> str:
    digest = hashlib.sha256(normative.normalise(text).encode()).hexdigest()[:10]
    return f"{doc}#{normative.slug(heading)}#{digest}"


def _numbered_lists(doc: str, text: str) -> Iterator[Unit]:
    """The first item of each numbered list of *text*, outside fences and generated
    blocks."""
    heading, fenced, in_list = "", False, False
    for line in normative.GENERATED.sub("", text).splitlines():
        stripped = line.strip()
        if normative.FENCE.match(stripped):
            fenced = not fenced
            continue
        if fenced:
            continue
        if stripped.startswith("#"):
            heading, in_list = stripped.lstrip("#").strip(), False
        elif STEP.match(stripped):
            if not in_list and heading:
                yield Unit(_key(doc, heading, stripped) + "#list", doc, heading, stripped)
            in_list = True
        elif stripped and not line.startswith((" ", "\t")) and not stripped.startswith("-"):
            in_list = False


def stated(doc: str, text: str) -> list[Unit]:
    """Every numbered list and ordering sentence of *text* (``docs/<doc>``), in order."""
    found = list(_numbered_lists(doc, text))
    seen: Counter[str] = Counter()
    for heading, unit, row in normative.units(text):
        for part in [unit] if row else normative.SENTENCE_END.split(unit):
            if not ORDER_WORDS.search(part) or STEP.match(part):
                continue
            base = _key(doc, heading, part)
            seen[base] += 1
            key = base if seen[base] == 1 else f"{base}-{seen[base]}"
            found.append(Unit(key, doc, heading, normative.normalise(part)))
    return found


def units() -> list[Unit]:
    """Every stated order of :data:`DOCS`."""
    return [u for doc in DOCS for u in stated(doc, (ROOT / "docs" / doc).read_text("utf-8"))]


def section_name(unit: Unit) -> str:
    """The inventory's name of *unit*'s section: ``<doc> § <heading>``."""
    return f"{unit.doc} § {unit.section}"


def load() -> dict[str, Any]:
    """The inventory, ``docs/orderings.json``."""
    data: dict[str, Any] = json.loads(INVENTORY.read_text("utf-8"))
    return data


def save(inventory: dict[str, Any]) -> None:
    """Write *inventory* (key order kept, two-space indent, one trailing newline)."""
    INVENTORY.write_text(json.dumps(inventory, indent=1, ensure_ascii=False) + "\n", "utf-8")


def enumerate_pairs(order: dict[str, Any]) -> list[str]:
    """Every pair ``a < b`` of an order's ``checks`` (documented order), then its
    ``within`` pairs."""
    checks = order.get("checks", [])
    pairs = [f"{a} < {b}" for i, a in enumerate(checks) for b in checks[i + 1 :]]
    return pairs + sorted(order.get("within", {}))


def pair_status(value: str) -> str:
    """``covered``, ``free``, ``unreachable`` or ``open`` for a pair's entry (else
    ``invalid``)."""
    if value == OPEN:
        return "open"
    if value.startswith(UNREACHABLE) and value[len(UNREACHABLE) :].strip():
        return "unreachable"
    if FREE.match(value):
        return "free"
    if COVERED.match(value):
        return "covered"
    return "invalid"


def pair_entries(order: dict[str, Any]) -> dict[str, str]:
    """Each enumerated pair of *order* with its entry (a pair with none is ``open``)."""
    given = {**order.get("pairs", {}), **order.get("within", {})}
    return {pair: given.get(pair, OPEN) for pair in enumerate_pairs(order)}


CaseLister = Callable[[str], set[str] | None]


def problems(inventory: dict[str, Any], found: list[Unit], cases_of: CaseLister) -> list[str]:
    """Everything the lane fails on; *cases_of* gives a requirement's case names (None:
    no such requirement)."""
    out: list[str] = []
    sections: dict[str, Any] = inventory["sections"]
    held = {key: name for name, entry in sections.items() for key in entry["orders"]}
    for unit in found:
        name = section_name(unit)
        if unit.key not in held:
            out.append(f"unmapped order {unit.key} ({name}): {unit.text[:100]}")
        elif held[unit.key] != name:
            out.append(f"{unit.key} is held under {held[unit.key]}, stated under {name}")
        elif sections[name]["orders"][unit.key] == UNREVIEWED:
            out.append(f"unreviewed order {unit.key} ({name}): {unit.text[:100]}")
    gone = sorted(set(held) - {u.key for u in found})
    out += [f"{key}: no such order in docs/ (run --add-unreviewed to drop it)" for key in gone]
    for name, entry in sections.items():
        out += _checked_by_problems(name, entry["checked_by"], cases_of)
    out += _pair_problems(inventory.get("pairs", {}), cases_of)
    opened = figures(inventory, found)["open pairs"]
    if opened != inventory["open_pairs_allowed"]:
        out.append(
            f"{opened} open pairs, open_pairs_allowed is {inventory['open_pairs_allowed']}: "
            "lower it when a pair is closed; never raise it to let a new order in"
        )
    return out


def _checked_by_problems(name: str, checked_by: Any, cases_of: CaseLister) -> list[str]:
    if isinstance(checked_by, str):
        if checked_by.startswith(NOT_AN_ORDER) and checked_by[len(NOT_AN_ORDER) :].strip():
            return []
        return [f"{name}: {checked_by!r} is neither a list of rows and ids nor a reason"]
    if not checked_by:
        return [f"{name}: cites nothing"]
    rows = traceability_rows()
    bad = [c for c in checked_by if not (c in rows or cases_of(c) is not None)]
    return [f"{name}: cites unknown rows or requirements {bad}"] if bad else []


def _pair_problems(orders: dict[str, Any], cases_of: CaseLister) -> list[str]:
    out = []
    rows = traceability_rows()
    for row, order in orders.items():
        if row not in rows:
            out.append(f"pairs of {row}: no such row in docs/traceability.md § Orderings")
        listed = set(enumerate_pairs(order))
        out += [
            f"{row}: {p!r} is not a pair of its checks"
            for p in order.get("pairs", {})
            if p not in listed
        ]
        for pair, value in pair_entries(order).items():
            status = pair_status(value)
            if status == "invalid":
                out.append(
                    f"{row} {pair}: {value!r} is not REQ-ID: case, FREE-NNN: why, "
                    "unreachable: why or open"
                )
            elif status == "covered":
                match = COVERED.match(value)
                assert match
                cases = cases_of(match.group(1))
                if cases is None:
                    out.append(f"{row} {pair}: no requirement {match.group(1)}")
                elif match.group(2) not in cases:
                    out.append(f"{row} {pair}: {match.group(1)} has no case {match.group(2)!r}")
            elif status == "free":
                match = FREE.match(value)
                assert match
                if match.group(1) not in normative.freedoms():
                    out.append(f"{row} {pair}: no freedom {match.group(1)} in docs/spec.md")
    return out


def traceability_rows() -> set[str]:
    """The row names (``O-NN``) of docs/traceability.md § Orderings."""
    text = (ROOT / "docs" / "traceability.md").read_text("utf-8")
    return set(re.findall(r"^\| (O-\d\d) \|", text, re.MULTILINE))


def figures(inventory: dict[str, Any], found: list[Unit]) -> dict[str, int]:
    """The inventory's counts."""
    statuses: Counter[str] = Counter()
    for order in inventory.get("pairs", {}).values():
        statuses.update(pair_status(v) for v in pair_entries(order).values())
    mapped = inventory["sections"]
    return {
        "stated orders": len(found),
        "numbered lists": sum(u.key.endswith("#list") for u in found),
        "ordering sentences": sum(not u.key.endswith("#list") for u in found),
        "sections": len({section_name(u) for u in found}),
        "sections not an engine order": sum(
            isinstance(e["checked_by"], str) for e in mapped.values()
        ),
        "orders of checks with pairs": len(inventory.get("pairs", {})),
        "pairs": sum(statuses.values()),
        "covered pairs": statuses["covered"],
        "free pairs": statuses["free"],
        "unreachable pairs": statuses["unreachable"],
        "open pairs": statuses["open"],
    }


def add_unreviewed(inventory: dict[str, Any], found: list[Unit]) -> list[str]:
    """Record every new key as unreviewed under its section (a new section unmapped) and
    drop keys no longer stated; returns the keys added."""
    sections: dict[str, Any] = inventory["sections"]
    current = {u.key for u in found}
    for entry in sections.values():
        entry["orders"] = {k: v for k, v in entry["orders"].items() if k in current}
    held = {key for entry in sections.values() for key in entry["orders"]}
    added = []
    for unit in found:
        if unit.key in held:
            continue
        entry = sections.setdefault(section_name(unit), {"checked_by": UNMAPPED, "orders": {}})
        entry["orders"][unit.key] = UNREVIEWED
        added.append(unit.key)
    inventory["sections"] = {k: v for k, v in sections.items() if v["orders"]}
    return added


def requirement_cases(requirement_id: str) -> set[str] | None:
    """The case names of a requirement's coverage plan (empty without one; None: no such
    requirement)."""
    from conformance.requirements import REGISTRY

    requirement = REGISTRY.get(requirement_id)
    if requirement is None:
        return None
    if requirement.cover is None:
        return set()
    plan = requirement.cover(None)  # type: ignore[arg-type]
    return {str(case.scenario) for case in plan.cases}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.orderings", description=__doc__)
    parser.add_argument("--figures", action="store_true", help="print the counts")
    parser.add_argument("--add-unreviewed", action="store_true", help="record new orders")
    args = parser.parse_args(argv)
    inventory, found = load(), units()
    if args.add_unreviewed:
        added = add_unreviewed(inventory, found)
        save(inventory)
        print(f"{len(added)} orders added as unreviewed")
    if args.figures:
        for name, count in figures(inventory, found).items():
            print(f"{name}: {count}")
        return 0
    listed = problems(inventory, found, requirement_cases)
    for problem in listed:
        print(problem, file=sys.stderr)
    return 1 if listed else 0


if __name__ == "__main__":
    sys.exit(main())
