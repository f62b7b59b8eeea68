"""Lists the docs call sorted are sorted, whatever their values: an engine's own lexicon.

docs/protocol.md § ``lexicon.list``: every lemma the engine knows, sorted by ``lemma`` in
code point order. The lemmas are the engine's own; their order is not.
"""

from __future__ import annotations

from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement


def _code_points(text: str) -> list[int]:
    return [ord(c) for c in text]


@requirement(
    "LEX-SORTED-001",
    "lexicon.list gives its lemmas sorted by lemma in code point order",
    family="lexicon",
    capabilities=("lexicon",),
    seed="docs/protocol.md § lexicon.list (sorted by lemma, code point order)",
)
def lexicon_sorted(engine: EngineClient, _: object) -> None:
    rows = engine.call("lexicon.list", {})["lemmas"]
    lemmas = [row["lemma"] for row in rows]
    for index, (before, after) in enumerate(zip(lemmas, lemmas[1:], strict=False)):
        assert _code_points(before) <= _code_points(after), (
            f"lexicon.list row {index + 1} ({after!r}) comes after {before!r}: the lemmas are "
            "not sorted by code point"
        )
