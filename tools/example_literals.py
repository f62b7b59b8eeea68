"""The examples the docs give are sent: every literal example of a checked sentence appears in
the suite, or the ledger says why it need not.

A port's author reads the examples of a sentence as its meaning (`gen-7` in "a number not
written as exactly 8 ASCII digits such as `gen-7`"), so an example no requirement sends is a
reading of the sentence nobody checks. An *example* here is a code span inside parentheses
of a sentence of ``docs/normative.json`` whose entry is a list of requirement ids. It is
*sent* when its text appears in a file of ``conformance/`` (source or data) as written, or
JSON-escaped; for docs/intents.md, whose prompts step 1 lowercases, in any letter case.
Every other example is listed in ``docs/example-literals.json`` under ``unsent`` with one
of the ``reasons`` (notation, a name or formula, an output, or sent by construction, naming
where): the list is reviewed when a sentence gains an example, never assumed.

``python -m tools.example_literals`` prints the examples not sent and not listed;
``--check`` exits 1 when one is, or when a listed example is gone from the docs or now sent.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "docs" / "normative.json"
EXAMPLES = ROOT / "docs" / "example-literals.json"
SUITE = ROOT / "conformance"
SUFFIXES = (".py", ".json", ".jsonl", ".txt")
CASELESS = ("intents.md",)
"""Documents whose examples are prompts: step 1 lowercases them, so any letter case sends one."""


def spans_in_parentheses(text: str) -> Iterator[str]:
    """The code spans of *text* that stand inside parentheses (outside code spans)."""
    depth, index = 0, 0
    while index < len(text):
        char = text[index]
        if char == "`":
            end = text.find("`", index + 1)
            if end < 0:
                return
            if depth > 0:
                yield text[index + 1 : end]
            index = end + 1
            continue
        if char == "(":
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
        index += 1


def examples() -> dict[str, str]:
    """Every example of a checked sentence, with the document that gives it first."""
    sentences = json.loads(LEDGER.read_text("utf-8"))["sentences"]
    found: dict[str, str] = {}
    for key, entry in sentences.items():
        if isinstance(entry["checked_by"], list):
            for span in spans_in_parentheses(entry["text"]):
                found.setdefault(span, key.split("#")[0])
    return found


def suite_text() -> str:
    """Every source and data file of the suite, one after another, without the docs'
    sentences the suite quotes (a sentence quoted is not its example sent)."""
    files = sorted(p for p in SUITE.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    text = "\n".join(p.read_text("utf-8", errors="replace") for p in files)
    sentences = json.loads(LEDGER.read_text("utf-8"))["sentences"].values()
    for quoted in sorted({entry["text"] for entry in sentences}, key=len, reverse=True):
        for spelling in (
            quoted,
            json.dumps(quoted)[1:-1],
            json.dumps(quoted, ensure_ascii=False)[1:-1],
        ):
            text = text.replace(spelling, "")
    return text


def is_sent(example: str, doc: str, text: str, lowered: str) -> bool:
    """Whether *example* appears in the suite's *text* as written or JSON-escaped."""
    spellings = {example, json.dumps(example)[1:-1], json.dumps(example, ensure_ascii=False)[1:-1]}
    if doc in CASELESS:
        return any(s.lower() in lowered for s in spellings)
    return any(s in text for s in spellings)


def problems() -> list[str]:
    """Examples neither sent nor listed, and listed ones gone from the docs or now sent."""
    ledger = json.loads(EXAMPLES.read_text("utf-8"))
    reasons, unsent = ledger["reasons"], ledger["unsent"]
    text = suite_text()
    lowered = text.lower()
    found = examples()
    out = []
    for example, doc in sorted(found.items()):
        sent = is_sent(example, doc, text, lowered)
        if not sent and example not in unsent:
            out.append(f"{doc}: `{example}` is sent by no requirement and not listed")
        if sent and example in unsent:
            out.append(f"{doc}: `{example}` is sent now: drop it from the list")
    for example, reason in sorted(unsent.items()):
        if example not in found:
            out.append(f"`{example}` is listed but no checked sentence gives it")
        if reason.split(":")[0] not in reasons:
            out.append(f"`{example}` cites an unknown reason {reason!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.example_literals")
    parser.add_argument("--check", action="store_true", help="exit 1 on any problem")
    args = parser.parse_args(argv)
    found = problems()
    for line in found:
        print(line)
    if not found:
        print(f"{len(examples())} examples: each sent or listed with its reason")
    return 1 if found and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
