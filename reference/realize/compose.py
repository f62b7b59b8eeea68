"""Pre-decoration surfaces: one composer per kind of grounding and intent.

Composers read a sealed :class:`TruthRecord` and a register's overrides; they
never change the record. The only register knob here is the disclosure depth
of the gloss-less pack surface, resolved for the turn's intent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from reference.lexicon import Lemma
from reference.realize.depth import resolve_disclosure_domain_count
from reference.truth.intent import IntentTag

if TYPE_CHECKING:
    from reference.truth.record import TruthRecord

REFUSAL = "I don't know — insufficient grounding for that yet."


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _quoted(terms: tuple[str, ...]) -> str:
    return ", ".join(f"'{term}'" for term in terms)


def _packs(lemmas: tuple[Lemma, ...]) -> str:
    return ", ".join(dict.fromkeys(entry.pack_id for entry in lemmas))


def pack_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """A lemma's pack-grounded surface: its gloss, or its first N domains."""
    if entry.gloss is not None:
        return f"{_capitalize(entry.lemma)} is {entry.gloss}. pack-grounded ({entry.pack_id})."
    depth = resolve_disclosure_domain_count(overrides, record.intent.name)
    hit = record.grounding.vault_hit
    evidence = (
        f"Session evidence: {hit.count} earlier turn(s)." if hit else "No session evidence yet."
    )
    head = "; ".join(entry.domains[:depth])
    return f"{entry.lemma} — pack-grounded ({entry.pack_id}): {head}. {evidence}"


def comparison_surface(a: Lemma, b: Lemma) -> str:
    return (
        f"{_capitalize(a.lemma)} contrasts with {b.lemma}. "
        f"{a.lemma}: {', '.join(a.domains[:3])}. {b.lemma}: {', '.join(b.domains[:3])}. "
        f"pack-grounded ({_packs((a, b))})."
    )


def procedure_surface(entry: Lemma) -> str:
    first, second = entry.domains[:2]
    return (
        f"To work with {entry.lemma}: start from {first}, then {second}. "
        f"pack-grounded ({entry.pack_id})."
    )


def example_surface(entry: Lemma) -> str:
    first, second = entry.domains[:2]
    return (
        f"{_capitalize(entry.lemma)} shows up in {first} and in {second}. "
        f"pack-grounded ({entry.pack_id})."
    )


def frame_surface(a: Lemma, b: Lemma) -> str:
    return (
        f"{_capitalize(a.lemma)} in terms of {b.lemma}: {a.lemma} spans "
        f"{', '.join(a.domains[:2])}; {b.lemma} spans {', '.join(b.domains[:2])}. "
        f"pack-grounded ({_packs((a, b))})."
    )


def teaching_surface(record: TruthRecord) -> str:
    path = record.grounding.path
    assert path is not None
    clauses = [f"{s.source} {s.relation} {s.target}" for s in path.steps]
    chains = ", ".join(dict.fromkeys(path.chain_ids))
    return f"{_capitalize('; '.join(clauses))}. teaching-grounded ({chains})."


def vault_surface(record: TruthRecord) -> str:
    grounding = record.grounding
    entry = grounding.subject_lemma
    assert entry is not None
    if grounding.claim is not None:
        return f"Noted — {entry.lemma} is {grounding.claim}. Kept as session evidence."
    hit = grounding.vault_hit
    assert hit is not None
    said = f" You said it is {hit.latest_claim}." if hit.latest_claim else ""
    return (
        f"You brought up {entry.lemma} in {hit.count} earlier turn(s), first at turn "
        f"{hit.first_turn}.{said} vault-grounded ({hit.address[:12]})."
    )


def partial_surface(record: TruthRecord) -> str:
    lemmas = record.grounding.lemmas
    names = ", ".join(entry.lemma for entry in lemmas)
    return (
        f"Partly grounded: {names} pack-grounded ({_packs(lemmas)}); "
        f"nothing grounds {_quoted(record.grounding.unknown)} yet."
    )


def oov_surface(record: TruthRecord) -> str:
    return f"I don't know {_quoted(record.grounding.unknown)} yet — not in any language pack."


def _pack_grounded(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    lemmas = record.grounding.lemmas
    intent = record.intent
    if intent is IntentTag.COMPARISON and len(lemmas) >= 2:
        return comparison_surface(lemmas[0], lemmas[1])
    if intent is IntentTag.FRAME_TRANSFER and len(lemmas) >= 2:
        return frame_surface(lemmas[0], lemmas[1])
    if intent is IntentTag.PROCEDURE:
        return procedure_surface(lemmas[0])
    if intent is IntentTag.EXAMPLE:
        return example_surface(lemmas[0])
    return pack_surface(lemmas[0], record, overrides)


def realize(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """The pre-decoration surface of a sealed turn under the given realizer overrides."""
    source = record.grounding.source
    if source == "vault":
        return vault_surface(record)
    if source == "teaching":
        return teaching_surface(record)
    if source == "pack":
        return _pack_grounded(record, overrides)
    if source == "partial":
        return partial_surface(record)
    if source == "oov":
        return oov_surface(record)
    return REFUSAL
