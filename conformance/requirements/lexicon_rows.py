"""lexicon.list states the shipped packs' lemmas as the packs do.

docs/protocol.md § ``lexicon.list``: for an engine built on the shipped language packs, one
row per lemma of every pack, ``pack`` the pack's ``pack_id``, ``pos`` the lemma's ``pos`` and
``has_gloss`` whether it has a ``gloss``. The packs' digest is the suite's
(``conformance/data/cognition/packs.json``); the cognition requirements pick lemmas by
these rows, so a wrong row misleads them too.
"""

from __future__ import annotations

from typing import Any

from conformance import cases as cases_
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.cognition_pack import packs
from conformance.requirements.registry import requirement


def _expected() -> dict[str, dict[str, Any]]:
    return {
        lemma: {"pack": e["pack"], "pos": e["pos"], "has_gloss": e["gloss"] is not None}
        for lemma, e in packs().items()
    }


@requirement(
    "LEX-ROWS-001",
    "lexicon.list has one row per lemma of the shipped language packs and no other, each "
    "with its pack's pack_id, its pos and whether it has a gloss",
    family="lexicon",
    capabilities=("lexicon",),
    seed="docs/protocol.md § lexicon.list (one row per lemma of every pack: pack, pos, has_gloss)",
)
def lexicon_rows(engine: EngineClient, _: object) -> None:
    rows = member(engine.call("lexicon.list", {}), "lemmas", "array")
    expected = _expected()
    found = []
    listed = set()
    for index, row in enumerate(rows):
        lemma = member(row, "lemma", "string")
        listed.add(lemma)
        want = expected.get(lemma)
        if want is None:
            found.append(
                cases_.Disagreement(f"row {index + 1}", "a lemma no shipped pack has", lemma)
            )
            continue
        for key, value in want.items():
            if row.get(key) != value:
                detail = f"{lemma}: {key} {row.get(key)!r}, the pack says {value!r}"
                found.append(cases_.Disagreement(f"row {index + 1}", f"a wrong {key}", detail))
    for lemma in sorted(set(expected) - listed):
        found.append(cases_.Disagreement(lemma, "a lemma of the shipped packs not listed"))
    assert not found, cases_.listing(f"{len(found)} lexicon.list rows are not the packs':", found)
