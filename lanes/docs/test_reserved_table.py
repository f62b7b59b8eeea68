"""The closed-list table (conformance/reserved_values.py) quotes every sentence of docs/
that names a reserved, sentinel or closed value: a new such sentence must join an entry
(with every op it can arrive by and its outcome) or say why it names no such value."""

from __future__ import annotations

import re
from pathlib import Path

from conformance import reserved_values as table
from conformance.requirements import REGISTRY

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCANNED = ("protocol.md", "registers.md", "spec.md", "intents.md", "state.md", "trace-hash.md")
KEYWORDS = re.compile(
    r"\b(reserved|sentinel|never loadable|not a loadable|never crosses|never on the wire|"
    r"special|stands for|only these|one of)\b",
    re.IGNORECASE,
)
FENCE = re.compile(r"^(```|~~~)")
ID_ROW = re.compile(r"^\| `[A-Z]+(-[A-Z0-9]+)+` \|")
"""A row of the generated requirement or freedom tables: a title, not a sentence of the spec."""
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"(\[])")


def _flat(text: str) -> str:
    return " ".join(text.split())


def sentences(text: str) -> list[str]:
    """The sentences of a Markdown document: each table row whole, prose split at sentence
    ends, code fences and requirement-table rows left out; whitespace collapsed."""
    found: list[str] = []
    paragraph: list[str] = []
    fenced = False

    def flush() -> None:
        if paragraph:
            found.extend(SENTENCE_END.split(_flat(" ".join(paragraph))))
            paragraph.clear()

    for line in text.splitlines():
        if FENCE.match(line):
            flush()
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.startswith("|"):
            flush()
            if not ID_ROW.match(line):
                found.append(_flat(line))
        elif not line.strip() or line.startswith("#"):
            flush()
        else:
            paragraph.append(line)
    flush()
    return found


def _quotes() -> dict[str, list[str]]:
    quotes: dict[str, list[str]] = {}
    for entry in table.ENTRIES:
        quotes.setdefault(entry["doc"], []).append(_flat(entry["quote"]))
        for doc, quote in entry.get("also", ()):
            quotes.setdefault(doc, []).append(_flat(quote))
    for doc, quote in table.NOT_A_VALUE:
        quotes.setdefault(doc, []).append(_flat(quote))
    return quotes


def test_every_quote_is_in_its_document() -> None:
    for doc, quotes in _quotes().items():
        text = _flat((DOCS / doc).read_text(encoding="utf-8"))
        stale = [q for q in quotes if q not in text]
        assert not stale, f"docs/{doc} no longer says: {stale}"


def test_every_sentence_naming_a_reserved_value_is_quoted() -> None:
    quotes = _quotes()
    missing = []
    for doc in SCANNED:
        for sentence in sentences((DOCS / doc).read_text(encoding="utf-8")):
            if KEYWORDS.search(sentence) and not any(q in sentence for q in quotes.get(doc, ())):
                missing.append(f"docs/{doc}: {sentence[:160]}")
    assert not missing, (
        "sentences naming a reserved, sentinel or closed value that "
        "conformance/reserved_values.py does not quote:\n" + "\n".join(missing)
    )


def test_every_entry_is_whole() -> None:
    for entry in table.ENTRIES:
        name = entry["name"]
        assert entry["doc"] in SCANNED, f"{name}: docs/{entry['doc']} is not scanned"
        assert entry["values"], f"{name}: no values"
        assert entry["arrivals"], f"{name}: arrives nowhere"
        for arrival in entry["arrivals"]:
            assert {"op", "arg", "member", "near_miss"} <= set(arrival), f"{name}: {arrival}"
            outcome = arrival["member"]
            assert outcome.get("ok") is True or {"code", "field"} <= set(outcome), (
                f"{name} via {arrival['op']}: outcome {outcome} is neither ok nor code and field"
            )
        for arrival in entry["arrivals"]:
            own = arrival.get("checked")
            assert own is None or own in REGISTRY, f"{name}: unknown requirement {own}"
        checked = entry["checked"]
        assert checked is None or checked in REGISTRY, f"{name}: unknown requirement {checked}"


def test_the_unchecked_entries_do_not_grow() -> None:
    unchecked = sorted(e["name"] for e in table.ENTRIES if e["checked"] is None)
    assert unchecked == ["grounding sources"], unchecked


def test_near_misses_are_no_members() -> None:
    for value in ("DEFINITION", "openings", "hello", table.UNREGISTERED_ID):
        misses = table.near_misses(value, (value,))
        assert value not in misses and len(misses) >= 12, misses
        assert value.upper() in misses or value.upper() == value
        assert value + " " in misses and "\uff48\uff45\uff4c\uff4c\uff4f" in table.near_misses(
            "hello"
        )


def test_a_new_sentence_is_found() -> None:
    text = "## A\n\nThe id `x` is reserved. Other text.\n\n```\nreserved\n```\n"
    hits = [s for s in sentences(text) if KEYWORDS.search(s)]
    assert hits == ["The id `x` is reserved."]
