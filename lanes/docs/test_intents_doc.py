"""docs/intents.md states the reference's function words exactly (the list is normative)."""

from __future__ import annotations

import re
from pathlib import Path

from conformance.rules import function_words
from reference.truth.text import STOPWORDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "intents.md"


def test_the_function_word_list_is_the_reference_s():
    text = DOC.read_text(encoding="utf-8")
    block = text.split("**Function words** (the complete list, normative):", 1)[1]
    listed = re.findall(r"`([a-z]+)`", block.split("\n\n", 2)[1])
    assert sorted(listed) == sorted(STOPWORDS)


def test_the_rule_catalogue_holds_the_same_function_words():
    text = DOC.read_text(encoding="utf-8")
    block = text.split("**Function words** (the complete list, normative):", 1)[1]
    listed = re.findall(r"`([a-z]+)`", block.split("\n\n", 2)[1])
    assert list(function_words()) == listed
