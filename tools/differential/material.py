"""What generated requests are built from: the engine's lexicon, the words of
docs/intents.md, the teaching chains and the shipped register packs."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from tools.differential.shared import ROOT, Json

REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")
INTENTS = (
    "DEFINITION CAUSE PROCEDURE COMPARISON CORRECTION RECALL VERIFICATION "
    "TRANSITIVE_QUERY FRAME_TRANSFER NARRATIVE EXAMPLE UNKNOWN"
).split()


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section of *text*, up to the next section."""
    return text.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]


def _examples(intents: str) -> list[tuple[str, str]]:
    """(example, subject) for every example of § The table of forms."""
    examples = []
    for line in _section(intents, "The table of forms").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].isupper():
            for span in _code_spans(cells[2]):
                examples.append((span, cells[3]))
    return examples


def _cues(intents: str) -> list[str]:
    """Every cue word of § Cue words (``a / b`` spans split)."""
    cues: list[str] = []
    for line in _section(intents, "Cue words").splitlines():
        if line.startswith("| ") and not line.startswith("| Intent"):
            for span in _code_spans(line.split("|")[2]):
                cues.extend(part.strip() for part in span.split("/") if part.strip())
    return cues


def _chains() -> list[list[str]]:
    teaching = json.loads((ROOT / "reference/lexicon/data/teaching.json").read_text())
    return [
        [chain["steps"][0]["from"]] + [s["to"] for s in chain["steps"]]
        for chain in teaching["chains"]
    ]


def _packs() -> dict[str, Json]:
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / "reference/registers/data").glob("*_v1.json"))
    }


def _reading_spans(intents: str) -> list[str]:
    """The code spans (shorter than 80) from § How a prompt is read up to § The table of
    forms."""
    reading = intents.split("## How a prompt is read", 1)[1].split("## The table of forms", 1)[0]
    return sorted({span for span in _code_spans(reading) if len(span) < 80})


@dataclass
class Material:
    """What prompts are built from: the lexicon (as the engine lists it), the examples
    of docs/intents.md § The table of forms, its cue words and the teaching chains."""

    lemmas: list[str]
    examples: list[tuple[str, str]]
    cues: list[str]
    chains: list[list[str]]
    packs: dict[str, Json] = field(default_factory=dict)
    spans: list[str] = field(default_factory=list)
    """Every code span of docs/intents.md § How a prompt is read and § Subjects: the
    fixed words (leads, wrappers, interjections, contractions, typo targets, ...) and
    the examples the steps give."""

    @classmethod
    def load(cls, lexicon: Json) -> Material:
        """The material for an engine whose ``lexicon.list`` answered *lexicon*."""
        lemmas = sorted(row["lemma"] for row in lexicon["result"]["lemmas"])
        intents = (ROOT / "docs" / "intents.md").read_text(encoding="utf-8")
        return cls(
            lemmas,
            _examples(intents),
            _cues(intents),
            _chains(),
            _packs(),
            _reading_spans(intents),
        )
