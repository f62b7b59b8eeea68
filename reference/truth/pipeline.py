"""The truth pipeline: one turn of text in, one sealed truth record out."""

from __future__ import annotations

from dataclasses import dataclass

from reference.algebra import Multivector
from reference.lexicon import Lexicon, default_lexicon
from reference.lexicon.versors import lemma_versor, turn_rotor
from reference.truth.field import SessionField
from reference.truth.grounding import decide_grounding
from reference.truth.intent import IntentTag, classify_intent
from reference.truth.record import TruthRecord
from reference.truth.teaching import teaching_graph
from reference.truth.text import normalize, tokenize
from reference.truth.vault import Vault, VaultHit


@dataclass(frozen=True)
class Life:
    """A session's life on the truth side: the turns lived, the latest subject, the field's
    rotor and every vault tally. Nothing else a turn reads changes from turn to turn."""

    turns: int
    context: str | None
    rotor: Multivector
    hits: tuple[VaultHit, ...]


class TruthPipeline:
    """Session state on the truth side (field, vault, turn counter) and the turn procedure."""

    def __init__(self, lexicon: Lexicon | None = None) -> None:
        self.lexicon = lexicon if lexicon is not None else default_lexicon()
        self.graph = teaching_graph(self.lexicon.chains)
        self.field = SessionField()
        self.vault = Vault()
        self.turn_idx = 0
        self.context: str | None = None
        """The latest subject of the session: what a word that refers back points to."""

    def life(self) -> Life:
        """What this session has lived, as plain data: enough to resume it exactly."""
        return Life(self.turn_idx, self.context, self.field.state, self.vault.hits())

    def resume(self, life: Life) -> None:
        """Continue *life*: every later turn is sealed as it would have been had the
        session that lived it never stopped."""
        self.turn_idx = life.turns
        self.context = life.context
        self.field = SessionField.restored(life.rotor)
        self.vault = Vault.restored(life.hits)

    def run(self, text: str) -> TruthRecord:
        """Classify, ground, evolve the field, seal the record, then remember the turn.

        The field turns by the ordered product of the grounded lemmas' versors; a turn
        with none leaves it where it is (its rotor would be the identity).
        """
        normalized = normalize(text)
        tokens = tokenize(normalized)
        intent = classify_intent(normalized, tokens, self.lexicon, self.context)
        grounding = decide_grounding(intent, self.lexicon, self.graph, self.vault)
        if grounding.lemmas:
            first = grounding.lemmas[0]
            anchor = lemma_versor(first.lemma, first.pos, first.domains)
            self.field.step(turn_rotor(grounding.lemmas), anchor=anchor)
        record = TruthRecord.seal(
            turn_idx=self.turn_idx,
            normalized_input=normalized,
            tokens=tokens,
            intent=intent.intent,
            subject=intent.subject,
            grounding=grounding,
            field_digest=self.field.digest(),
            versor_condition=self.field.versor_condition(),
        )
        subject = grounding.subject_lemma
        if subject is not None:
            said = None if intent.intent is IntentTag.RECALL else normalized
            self.vault.store(subject.lemma, self.turn_idx, grounding.claim, said)
        if intent.subject is not None:
            self.context = intent.subject
        self.turn_idx += 1
        return record
