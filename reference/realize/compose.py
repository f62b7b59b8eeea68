"""Pre-decoration surfaces: one composer per kind of grounding and intent.

Composers read a sealed :class:`TruthRecord` and a register's overrides; they never change
the record. The only register knob here is the disclosure depth of a gloss-less lemma's
domains, resolved for the turn's intent. What every answer must say is normative
(docs/intents.md § Answers); the words are this engine's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from reference.lexicon import Lemma
from reference.realize.depth import resolve_disclosure_domain_count
from reference.truth.intent import IntentTag

if TYPE_CHECKING:
    from reference.lexicon import TeachingStep
    from reference.truth.record import TruthRecord
    from reference.truth.teaching import TeachingPath
    from reference.truth.vault import Said, VaultHit

REFUSAL = "I don't know — insufficient grounding for that yet."
NOTHING_SAID = "You haven't said anything in this conversation yet."


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _quoted(terms: tuple[str, ...]) -> str:
    return ", ".join(f"'{term}'" for term in terms)


def _listed(words: list[str] | tuple[str, ...]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _packs(lemmas: tuple[Lemma, ...]) -> str:
    return ", ".join(dict.fromkeys(entry.pack_id for entry in lemmas))


def _turn(said: Said) -> str:
    """A turn as people count it: from 1 (the record's ``turn_idx`` counts from 0)."""
    return f"turn {said.turn_idx + 1}"


def _step(step: TeachingStep) -> str:
    return f"{step.source} {step.relation} {step.target}"


def _steps(paths: tuple[TeachingPath, ...]) -> str:
    return "; ".join(_step(step) for path in paths for step in path.steps)


def _chains(paths: tuple[TeachingPath, ...]) -> str:
    return ", ".join(dict.fromkeys(c for path in paths for c in path.chain_ids))


def _depth(record: TruthRecord, overrides: Mapping[str, object]) -> int:
    return resolve_disclosure_domain_count(overrides, record.intent.name)


def about(entry: Lemma, depth: int) -> str:
    """One sentence of what the pack says of a lemma: its gloss, else its first *depth*
    domains."""
    if entry.gloss is not None:
        return f"{_capitalize(entry.lemma)} is {entry.gloss}."
    return f"{_capitalize(entry.lemma)} goes with {_listed(entry.domains[:depth])}."


def pack_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """A lemma's pack-grounded surface: its gloss, or its first N domains."""
    if entry.gloss is not None:
        return f"{_capitalize(entry.lemma)} is {entry.gloss}. pack-grounded ({entry.pack_id})."
    depth = _depth(record, overrides)
    hit = record.grounding.vault_hit
    evidence = (
        f"Session evidence: {hit.count} earlier turn(s)." if hit else "No session evidence yet."
    )
    head = "; ".join(entry.domains[:depth])
    return f"{entry.lemma} — pack-grounded ({entry.pack_id}): {head}. {evidence}"


def _told(record: TruthRecord) -> tuple[TeachingPath, ...]:
    answer = record.grounding.answer
    return answer.told if answer is not None else ()


def narrative_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """A short account: the gloss and the lemma's domains, then the teaching steps told."""
    told = _told(record)
    chains = f" In the teaching chains, {_steps(told)}." if told else ""
    if entry.gloss is None:
        return pack_surface(entry, record, overrides) + chains
    ties = _listed(entry.domains[: _depth(record, overrides)])
    return (
        f"{_capitalize(entry.lemma)} is {entry.gloss}. It goes with {ties}.{chains} "
        f"pack-grounded ({entry.pack_id})."
    )


def example_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """Instances from the teaching chains (``animal includes wolf``), else the steps told,
    else where the lemma shows up; then what the pack says of it."""
    told = _told(record)
    kinds = [
        path.steps[0].target if path.steps[0].source == entry.lemma else path.steps[0].source
        for path in told
        if path.steps[0].relation in ("includes", "is a form of")
    ]
    if kinds:
        lead = f"Examples of {entry.lemma}: {_listed(kinds)} ({_steps(told)})."
    elif told:
        lead = f"For instance, {_steps(told)}."
    else:
        first, second = entry.domains[:2]
        lead = f"{_capitalize(entry.lemma)} shows up in {first} and in {second}."
    return f"{lead} {about(entry, _depth(record, overrides))} pack-grounded ({entry.pack_id})."


def procedure_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """Where to start with the lemma, named with the request's verb when the lexicon holds
    it; then what the pack says of it."""
    verbs = [e.lemma for e in record.grounding.lemmas[1:] if e.pos == "verb"]
    verb = verbs[0] if verbs else "work with"
    first, second = entry.domains[:2]
    return (
        f"To {verb} {entry.lemma}: start from {first}, then {second}. "
        f"{about(entry, _depth(record, overrides))} pack-grounded ({entry.pack_id})."
    )


def _domains(entry: Lemma, shared: list[str]) -> str:
    own = [d for d in entry.domains[:3] if d not in shared]
    return f"{entry.lemma}: {', '.join(own) if own else 'nothing else'}"


def comparison_surface(a: Lemma, b: Lemma, depth: int) -> str:
    """What each is, what they share and what each has alone."""
    shared = [d for d in a.domains[:3] if d in b.domains[:3]]
    alike = f"Both touch {_listed(shared)}; " if shared else ""
    return (
        f"{_capitalize(a.lemma)} contrasts with {b.lemma}. {about(a, depth)} {about(b, depth)} "
        f"{alike}{_domains(a, shared)}; {_domains(b, shared)}. pack-grounded ({_packs((a, b))})."
    )


def frame_surface(a: Lemma, b: Lemma, depth: int) -> str:
    """The first lemma seen through the second: what each is, and where each reaches."""
    return (
        f"{_capitalize(a.lemma)} in terms of {b.lemma}: {about(a, depth)} {about(b, depth)} "
        f"{_capitalize(a.lemma)} spans {', '.join(a.domains[:2])}; {b.lemma} spans "
        f"{', '.join(b.domains[:2])}. pack-grounded ({_packs((a, b))})."
    )


def unlinked_surface(a: Lemma, b: Lemma, depth: int) -> str:
    """Two lemmas no teaching chain joins, either way."""
    return (
        f"No teaching chain links {a.lemma} and {b.lemma}, either way. {about(a, depth)} "
        f"{about(b, depth)} pack-grounded ({_packs((a, b))})."
    )


def _claim_sentence(lemma: str, claim: str) -> str:
    """``it is a lantern`` for a claim made with ``is``; the lemma for any other verb."""
    first = claim.split(" ", 1)[0]
    pronoun = {"is": "it", "was": "it", "are": "they", "were": "they"}.get(first, lemma)
    return f"{pronoun} {claim}"


def verification_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """Yes, no or not known, with what decides it; then what the pack says of the subject."""
    answer = record.grounding.answer
    assert answer is not None
    word = {"yes": "Yes", "no": "No"}.get(answer.verdict or "", "Not known")
    rest = pack_surface(entry, record, overrides)
    if answer.by == "vault":
        hit = record.grounding.vault_hit
        claims = [s for s in (hit.said if hit else ()) if s.claim]
        when = f" ({_turn(claims[0])})" if claims else ""
        claim = hit.latest_claim if hit else ""
        lead = f"{word}: you said {_claim_sentence(entry.lemma, claim or '')}{when}."
    elif answer.by == "teaching":
        lead = f"{word}: {_steps(answer.told)}, as the chains say (teaching-grounded "
        lead += f"({_chains(answer.told)}))."
    elif answer.by == "gloss":
        lead = f"{word}: {entry.lemma} is {entry.gloss}."
        rest = f"pack-grounded ({entry.pack_id})."
    else:
        lead = f"{word}: neither the packs nor the teaching chains settle it."
        others = [e for e in record.grounding.lemmas[1:2]]
        rest += "".join(f" {about(e, _depth(record, overrides))}" for e in others)
    return f"{lead} {rest}"


def teaching_surface(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """The path, step by step; from the second lemma to the first when it runs that way."""
    path = record.grounding.path
    assert path is not None
    lemmas = record.grounding.lemmas
    clauses = _capitalize(_steps((path,)))
    lead = ""
    if record.intent is IntentTag.TRANSITIVE_QUERY and len(lemmas) > 1:
        start, end = path.steps[0].source, path.steps[-1].target
        lead = f"From {start} to {end}: " if start == lemmas[0].lemma else ""
        if not lead:
            lead = f"The chains run the other way, from {start} to {end}: "
        clauses = _steps((path,))
    tail = ""
    if record.intent is IntentTag.CAUSE and lemmas:
        tail = f" {about(lemmas[0], _depth(record, overrides))}"
    return f"{lead}{clauses}.{tail} teaching-grounded ({_chains((path,))})."


def _said_line(said: Said, lemma: str) -> str:
    if said.claim is not None:
        return f"in {_turn(said)} you said {_claim_sentence(lemma, said.claim)}"
    return f'in {_turn(said)} you said "{said.text}"'


def recall_surface(hit: VaultHit, entry: Lemma | None, depth: int) -> str:
    """What the user said about the lemma, the latest claim first, then the mention count."""
    claims = [s for s in hit.said if s.claim is not None]
    others = [s for s in hit.said if s.claim is None]
    lines = []
    if claims:
        latest = claims[0]
        lines.append(f"You said {_claim_sentence(hit.lemma, latest.claim or '')}.")
        lines.append(f"That was in {_turn(latest)}.")
    elif hit.latest_claim is not None:
        lines.append(f"You said {_claim_sentence(hit.lemma, hit.latest_claim)}.")
    rest = [_said_line(s, hit.lemma) for s in (*claims[1:], *others)]
    if rest:
        lines.append(_capitalize("; ".join(rest)) + ".")
    if not claims and hit.latest_claim is None and entry is not None:
        lines.append(f"What the pack holds: {about(entry, depth)}")
    lines.append(
        f"You brought up {hit.lemma} in {hit.count} earlier turn(s), first in turn "
        f"{hit.first_turn + 1}. vault-grounded ({hit.address[:12]})."
    )
    return " ".join(lines)


def recall_all_surface(hits: tuple[VaultHit, ...]) -> str:
    """What the user said in the session, the latest claim first, then the latest words."""
    said = sorted(
        {(s.turn_idx, s.text): (s, hit.lemma) for hit in hits for s in hit.said}.values(),
        key=lambda pair: -pair[0].turn_idx,
    )
    claims = [pair for pair in said if pair[0].claim is not None]
    said = [*claims[:1], *(pair for pair in said if pair is not claims[0])] if claims else said
    lines = "; ".join(_said_line(s, lemma) for s, lemma in said[:3])
    addresses = ", ".join(hit.address[:12] for hit in hits)
    return f"Here is what you said: {lines}. vault-grounded ({addresses})."


def vault_surface(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    grounding = record.grounding
    if grounding.recalled:
        return recall_all_surface(grounding.recalled)
    entry = grounding.subject_lemma
    assert entry is not None
    if grounding.claim is not None:
        held = about(entry, _depth(record, overrides)).rstrip(".")
        return (
            f"Noted — {record.subject} {grounding.claim}. Kept as session evidence. "
            f"The pack says: {held[:1].lower()}{held[1:]}."
        )
    if record.intent is IntentTag.VERIFICATION:
        return verification_surface(entry, record, overrides)
    hit = grounding.vault_hit
    assert hit is not None
    return recall_surface(hit, entry, _depth(record, overrides))


Composer = Callable[[Lemma, "TruthRecord", Mapping[str, object]], str]


def _cause_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    lead = f"No teaching chain says what leads to {entry.lemma}. "
    return lead + pack_surface(entry, record, overrides)


def _recall_surface(entry: Lemma, record: TruthRecord, overrides: Mapping[str, object]) -> str:
    lead = f"You haven't said anything about {entry.lemma} in this conversation yet. "
    return lead + pack_surface(entry, record, overrides)


SINGLE: dict[IntentTag, Composer] = {
    IntentTag.NARRATIVE: narrative_surface,
    IntentTag.EXAMPLE: example_surface,
    IntentTag.PROCEDURE: procedure_surface,
    IntentTag.VERIFICATION: verification_surface,
    IntentTag.CAUSE: _cause_surface,
    IntentTag.RECALL: _recall_surface,
}
PAIRED: dict[IntentTag, Callable[[Lemma, Lemma, int], str]] = {
    IntentTag.COMPARISON: comparison_surface,
    IntentTag.FRAME_TRANSFER: frame_surface,
    IntentTag.TRANSITIVE_QUERY: unlinked_surface,
}


def _pack_grounded(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    lemmas = record.grounding.lemmas
    intent = record.intent
    if intent in PAIRED and len(lemmas) >= 2:
        return PAIRED[intent](lemmas[0], lemmas[1], _depth(record, overrides))
    if intent is IntentTag.VERIFICATION and record.grounding.answer is None:
        return pack_surface(lemmas[0], record, overrides)
    composer = SINGLE.get(intent, pack_surface)
    return composer(lemmas[0], record, overrides)


def partial_surface(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """The answer over the lemmas that are known, then the words nothing grounds."""
    unknown = _quoted(record.grounding.unknown)
    return f"{_pack_grounded(record, overrides)} Partly grounded: nothing grounds {unknown} yet."


def oov_surface(record: TruthRecord) -> str:
    return f"I don't know {_quoted(record.grounding.unknown)} yet — not in any language pack."


def realize(record: TruthRecord, overrides: Mapping[str, object]) -> str:
    """The pre-decoration surface of a sealed turn under the given realizer overrides."""
    source = record.grounding.source
    if source == "vault":
        return vault_surface(record, overrides)
    if source == "teaching":
        if record.intent is IntentTag.VERIFICATION and record.grounding.lemmas:
            return verification_surface(record.grounding.lemmas[0], record, overrides)
        return teaching_surface(record, overrides)
    if source == "pack":
        return _pack_grounded(record, overrides)
    if source == "partial":
        return partial_surface(record, overrides)
    if source == "oov":
        return oov_surface(record)
    return NOTHING_SAID if record.intent is IntentTag.RECALL else REFUSAL
