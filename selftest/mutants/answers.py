"""Broken answers: each class breaks one sentence of docs/intents.md § Answers, either in how
the truth side decides it or in how ``says`` states it (capability ``answers``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

from reference.lexicon import Lemma
from reference.realize import compose
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import answer, grounding, pipeline, says, teaching, vault
from reference.truth import intent as reading
from reference.truth.intent import IntentTag


def _says(result: dict[str, Any], change: Callable[[dict[str, Any]], dict[str, Any]]) -> dict:
    return {**result, "says": change(dict(result["says"]))}


class NoIsNoNegation(ProtocolHandler):
    """``no`` after a statement's first word does not negate it (only ``not`` and ``never``)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(answer, "NEGATIONS", frozenset({"not", "never"})):
            return super().chat(runtime, text)


class NegationFromFirstWord(ProtocolHandler):
    """A statement is negated by a negation word anywhere, its first word included.

    ``Isn't the sun a star?`` is then read as a denial."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def negated(statement: str) -> bool:
            return any(w in answer.NEGATIONS for w in answer.tokenize(statement))

        with patch.object(answer, "negated", negated):
            return super().chat(runtime, text)


class NegationIgnoredByGloss(ProtocolHandler):
    """A negated statement the gloss states is still a yes: only a teaching step flips."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        decide = answer.verdict

        def verdict(statement: str, subject: Lemma, claim: str | None, graph: Any) -> Any:
            value, by, step = decide(statement, subject, claim, graph)
            return ("yes" if by == "gloss" else value), by, step

        with patch.object(grounding, "verdict", verdict):
            return super().chat(runtime, text)


class QuestionBangNotQuestion(ProtocolHandler):
    """An end mark ``?!`` is not read as a question's: only a mark that ends in ``?`` is."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        return super().chat(runtime, text.replace("?!", "!"))


_COPULAS = re.compile(r"\b(?:is|are|was|were) ")


class ClaimSplitAtLastCopula(ProtocolHandler):
    """A correction's claim is split at its last copula, not its first.

    ``the moon is a lantern that is bright`` keeps ``is bright``."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        classify = pipeline.classify_intent

        def last_copula(*args: Any) -> Any:
            found = classify(*args)
            if found.intent is not IntentTag.CORRECTION or found.claim is None:
                return found
            copulas = list(_COPULAS.finditer(found.claim))
            if len(copulas) < 2:
                return found
            return dataclasses.replace(found, claim=found.claim[copulas[-1].start() :])

        with patch.object(pipeline, "classify_intent", last_copula):
            return super().chat(runtime, text)


class CheckedSlotAOnly(ProtocolHandler):
    """A form that splits a statement into slots checks only its slot A: ``The sun is a
    star?`` checks ``the sun``, so its predicate words come from A alone (not known)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(reading, "stated", lambda found: found.slots[0]):
            return super().chat(runtime, text)


class TagInCheckedStatement(ProtocolHandler):
    """A tag stays in the checked statement: ``Is the sun a star or not?`` is negated."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(reading, "without_tag", lambda statement: statement):
            return super().chat(runtime, text)


_CLAIM_WITH_C = "^(?P<a>.+?) (?P<claim>(?:is|are|was|were) (?P<b>.+?), not .+)$"


class ClaimKeepsNotC(ProtocolHandler):
    """The claim of ``A is B, not C`` runs to the end (``are mammals, not fish``), so it
    counts as negated."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        frames = tuple(
            dataclasses.replace(frame, source=_CLAIM_WITH_C)
            if frame.statement and ", not " in frame.source
            else frame
            for frame in reading.FRAMES
        )
        kept = reading.FRAMES
        reading.FRAMES = frames
        reading.forget_readings()
        try:
            return super().chat(runtime, text)
        finally:
            reading.FRAMES = kept
            reading.forget_readings()


class _FileOrderGraph(teaching.TeachingGraph):
    """Edges in the order the chains file lists them, not sorted."""

    def __init__(self, chains: tuple[Any, ...]) -> None:
        super().__init__(())
        self.listed = [(step, chain.chain_id) for chain in chains for step in chain.steps]

    def out_of(self, source: str) -> tuple[teaching.TeachingPath, ...]:
        return tuple(
            teaching.TeachingPath((s,), (c,)) for s, c in self.listed if s.source == source
        )

    def into(self, target: str) -> tuple[teaching.TeachingPath, ...]:
        return tuple(
            teaching.TeachingPath((s,), (c,)) for s, c in self.listed if s.target == target
        )

    def origin(self, target: str) -> teaching.TeachingPath | None:
        incoming = self.into(target)
        return incoming[0] if incoming else None

    def path(self, source: str, target: str) -> teaching.TeachingPath | None:
        """Breadth first over the file's order."""
        if source == target:
            return None
        came: dict[str, teaching.TeachingPath] = {}
        queue = [source]
        while queue:
            node = queue.pop(0)
            for edge in self.out_of(node):
                nxt = edge.steps[0].target
                if nxt in came or nxt == source:
                    continue
                came[nxt] = edge
                if nxt == target:
                    steps, chains, at = [], [], target
                    while at != source:
                        steps.insert(0, came[at].steps[0])
                        chains.insert(0, came[at].chain_ids[0])
                        at = came[at].steps[0].source
                    return teaching.TeachingPath(tuple(steps), tuple(chains))
                queue.append(nxt)
        return None


class _LastOriginGraph(teaching.TeachingGraph):
    """The step into a lemma is the sorted-last one."""

    def origin(self, target: str) -> teaching.TeachingPath | None:
        incoming = self.into(target)
        return incoming[-1] if incoming else None


class _GraphSwapped(ProtocolHandler):
    graph: type[teaching.TeachingGraph] = teaching.TeachingGraph

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        runtime.truth.graph = self.graph(runtime.truth.lexicon.chains)
        return runtime


class TeachingStepsInFileOrder(_GraphSwapped):
    """Teaching steps are walked and told in the chains file's order, not sorted."""

    graph = _FileOrderGraph


class CauseStepSortedLast(_GraphSwapped):
    """A CAUSE without a path falls back to the last step into its subject, not the first."""

    graph = _LastOriginGraph


class TransitiveWayReversed(ProtocolHandler):
    """``says.way`` names the direction backwards: forward for a path from the second subject."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        flip = {"forward": "backward", "backward": "forward", None: None}
        result = super().chat(runtime, text)
        return _says(result, lambda s: {**s, "way": flip[s["way"]]})


class RecallTurnsFromZero(ProtocolHandler):
    """A RECALL quotes turns counted from 0, as the record's ``turn_idx`` does."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        return _says(
            result, lambda s: {**s, "said": [{**q, "turn": q["turn"] - 1} for q in s["said"]]}
        )


class RecallOldestFirst(ProtocolHandler):
    """A RECALL quotes the turns that named its subject oldest first."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        return _says(result, lambda s: {**s, "said": sorted(s["said"], key=lambda q: q["turn"])})


class EarlierCountsQuoted(ProtocolHandler):
    """A RECALL counts only the turns it quotes as the earlier turns that named its subject."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        if result["says"]["earlier"] is None:
            return result
        return _says(result, lambda s: {**s, "earlier": len(s["said"])})


class StepsCutByRegister(ProtocolHandler):
    """Under a register, an answer tells only its first teaching step (a terser answer)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        if runtime.register_id is None:
            return result
        return _says(result, lambda s: {**s, "steps": s["steps"][:1]})


class SaidCutInUtf16Units(ProtocolHandler):
    """A thing said is cut at 160 UTF-16 code units, not 160 characters (code points)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        stored = vault.Vault.store

        def store(
            self: vault.Vault,
            lemma: str,
            turn_idx: int,
            claim: str | None = None,
            said: str | None = None,
        ) -> Any:
            if said is not None:
                units = said.encode("utf-16-le")[: 2 * vault.SAID_CHARS]
                said = units.decode("utf-16-le", errors="ignore")
            return stored(self, lemma, turn_idx, claim, said)

        with patch.object(vault.Vault, "store", store):
            return super().chat(runtime, text)


class CauseStepOverPath(ProtocolHandler):
    """A CAUSE tells the step into its subject even when its first two known subjects are
    joined by a teaching path."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        decide = pipeline.decide_grounding

        def step_only(found: Any, lexicon: Any, graph: teaching.TeachingGraph, held: Any) -> Any:
            grounded = decide(found, lexicon, graph, held)
            if found.intent is not IntentTag.CAUSE or grounded.path is None:
                return grounded
            step = graph.origin(grounded.lemmas[0].lemma)
            if step is None:
                return dataclasses.replace(grounded, path=None, source="pack")
            return dataclasses.replace(grounded, path=step)

        with patch.object(pipeline, "decide_grounding", step_only):
            return super().chat(runtime, text)


class ComparedOverAllDomains(ProtocolHandler):
    """A COMPARISON compares every domain of its subjects, not the first three of each."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(says, "COMPARED", None):
            return super().chat(runtime, text)


class SpansToDisclosureDepth(ProtocolHandler):
    """A PROCEDURE starts from, and a FRAME_TRANSFER spans, the first three domains (the
    default disclosure depth), not the first two."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(says, "SPANNED", 3):
            return super().chat(runtime, text)


class RecallClaimInTurnOrder(ProtocolHandler):
    """A RECALL quotes the latest first throughout: the latest claim is not moved first."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        return _says(result, lambda s: {**s, "said": sorted(s["said"], key=lambda q: -q["turn"])})


def _reworded(result: dict[str, Any], change: Callable[[str, dict[str, Any]], str]) -> dict:
    """*result* with its surfaces rewritten by *change* (its ``says`` kept as is)."""
    says_ = result.get("says", {})
    return {
        **result,
        "surface": change(result["surface"], says_),
        "pre_decoration_surface": change(result["pre_decoration_surface"], says_),
    }


class SurfaceTurnsFromZero(ProtocolHandler):
    """The surface of a RECALL writes the record's 0-based turn index; ``says`` counts from 1."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def zero_based(surface: str, _: dict[str, Any]) -> str:
            return re.sub(r"turn (\d+)", lambda m: f"turn {int(m[1]) - 1}", surface)

        return _reworded(super().chat(runtime, text), zero_based)


class ListsRunTogether(ProtocolHandler):
    """The two domains of a PROCEDURE's start are written with nothing between them."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def run_together(surface: str, said: dict[str, Any]) -> str:
            start = said.get("start") or []
            first = surface.find(start[0]) if len(start) == 2 else -1
            second = surface.find(start[1], first + 1) if first >= 0 else -1
            if second < 0:
                return surface
            return surface[: first + len(start[0])] + surface[second:]

        return _reworded(super().chat(runtime, text), run_together)


class SurfaceYesWhenDecided(ProtocolHandler):
    """The surface says yes for every verdict the evidence decides: a no is worded as a yes."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def yes(surface: str, said: dict[str, Any]) -> str:
            if said.get("verdict") != "no":
                return surface
            return re.sub(r"\bNo\b", "Yes", surface, count=1)

        return _reworded(super().chat(runtime, text), yes)


class NothingSaidRefused(ProtocolHandler):
    """A RECALL without a subject where nothing was said answers with the refusal a prompt
    without a subject gets."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(compose, "NOTHING_SAID", compose.REFUSAL):
            return super().chat(runtime, text)


class UnsaidSubjectDefined(ProtocolHandler):
    """A RECALL of a subject nothing was said about answers with the subject's DEFINITION,
    never saying that nothing was said."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        single = {k: v for k, v in compose.SINGLE.items() if k is not IntentTag.RECALL}
        with patch.object(compose, "SINGLE", single):
            return super().chat(runtime, text)


class RecallNothingSaidSwapped(ProtocolHandler):
    """A RECALL without a subject where nothing was said and a turn without a subject that
    is no RECALL swap their words: the RECALL gets the refusal (``I don't know``), the other
    turn ``You haven't said anything``; each stays distinct from the other."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        swapped = {"NOTHING_SAID": compose.REFUSAL, "REFUSAL": compose.NOTHING_SAID}
        with patch.multiple(compose, **swapped):
            return super().chat(runtime, text)


class RecallPackFirst(ProtocolHandler):
    """A RECALL of a subject nothing was said about says what the pack says of the subject
    first, then that nothing was said about it."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def pack_first(entry: Lemma, record: Any, overrides: Any) -> str:
            told = compose.pack_surface(entry, record, overrides)
            return f"{told} You haven't said anything about {entry.lemma} in this conversation yet."

        single = {**compose.SINGLE, IntentTag.RECALL: pack_first}
        with patch.object(compose, "SINGLE", single):
            return super().chat(runtime, text)


class WholeRecallLatestTurnsOnly(ProtocolHandler):
    """A RECALL of the whole session says the three latest things said, latest first, never
    moving the latest claim first: a claim older than them goes unsaid."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def latest_three(hits: Any) -> str:
            said = {(s.turn_idx, s.text): s for hit in hits for s in hit.said}
            latest = sorted(said.values(), key=lambda s: -s.turn_idx)[:3]
            lines = "; ".join(
                f"in turn {s.turn_idx + 1} you said {s.claim or s.text}" for s in latest
            )
            return f"Here is what you said: {lines}."

        with patch.object(compose, "recall_all_surface", latest_three):
            return super().chat(runtime, text)


class SurfaceNamesFirstUnknownOnly(ProtocolHandler):
    """The surface of a turn with several words not grounded names only the first of them."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def first_only(surface: str, said: dict[str, Any]) -> str:
            unknown = said.get("unknown", [])
            if len(unknown) < 2:
                return surface
            listed = ", ".join(f"'{word}'" for word in unknown)
            return surface.replace(listed, f"'{unknown[0]}'")

        return _reworded(super().chat(runtime, text), first_only)


class SurfaceStepsSwapped(ProtocolHandler):
    """The surface tells its first two teaching steps in the other order."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def swapped(surface: str, said: dict[str, Any]) -> str:
            steps = [f"{s['from']} {s['relation']} {s['to']}" for s in said.get("steps", [])]
            if len(steps) < 2 or steps[0] == steps[1] or steps[0] not in surface:
                return surface
            held = "\x00"
            return (
                surface.replace(steps[0], held, 1)
                .replace(steps[1], steps[0], 1)
                .replace(held, steps[1], 1)
            )

        return _reworded(super().chat(runtime, text), swapped)


class SurfaceStepLetterDoubled(ProtocolHandler):
    """A step that opens a sentence has its first letter doubled (``Mmoon pulls tide``), as
    a capitalising helper that adds the upper-case letter to the whole word would."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def doubled(surface: str, said: dict[str, Any]) -> str:
            for step in said.get("steps", []):
                told = f"{step['from']} {step['relation']} {step['to']}"
                opening = told[:1].upper() + told[1:]
                at = surface.find(opening)
                if at >= 0:
                    return surface[:at] + opening[:1] + surface[at:]
            return surface

        return _reworded(super().chat(runtime, text), doubled)


class SurfaceUnknownUnnamed(ProtocolHandler):
    """The surface of a partly grounded turn never names the words not grounded."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def unnamed(surface: str, said: dict[str, Any]) -> str:
            for word in said.get("unknown", []):
                surface = surface.replace(f"'{word}'", "some words")
            return surface

        return _reworded(super().chat(runtime, text), unnamed)


class StepKindBothWays(ProtocolHandler):
    """``Y includes X`` also makes Y a kind of X: the kind step is read out of the subject
    too, so ``Is an insect a spider?`` is yes by ``insect includes spider``."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(answer, "KIND_OUT", answer.KIND_OUT | answer.KIND_INTO):
            return super().chat(runtime, text)


class FormOfReadInto(ProtocolHandler):
    """``X is a form of Y`` is read into the subject as ``includes`` is, so it makes Y a
    kind of X (and no longer X a kind of Y)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with (
            patch.object(answer, "KIND_INTO", answer.KIND_INTO | answer.KIND_OUT),
            patch.object(answer, "KIND_OUT", frozenset()),
        ):
            return super().chat(runtime, text)


class RecallLemmasByOldestSaid(ProtocolHandler):
    """A RECALL without a subject ranks lemmas by the oldest thing said their tally keeps,
    not the latest, so a lemma talked about early and again just now drops out."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def latest(self: vault.Vault, count: int) -> tuple[vault.VaultHit, ...]:
            hits = [hit for hit in self._hits.values() if hit.said]
            hits.sort(key=lambda hit: -hit.said[-1].turn_idx)
            return tuple(hits[:count])

        with patch.object(vault.Vault, "latest", latest):
            return super().chat(runtime, text)


class RecallCutBeforeClaimFirst(ProtocolHandler):
    """A RECALL without a subject keeps the latest three things said across the latest
    lemmas before it moves the latest claim first, so a claim older than those three drops
    out instead of leading the quotes (the first of the list, not the first that is a claim)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        latest = vault.Vault.latest

        def cut_first(self: vault.Vault, count: int) -> tuple[vault.VaultHit, ...]:
            hits = latest(self, count)
            turns = sorted((s.turn_idx for hit in hits for s in hit.said), reverse=True)
            kept = set(turns[: says.QUOTED])
            return tuple(
                dataclasses.replace(hit, said=tuple(s for s in hit.said if s.turn_idx in kept))
                for hit in hits
            )

        with patch.object(vault.Vault, "latest", cut_first):
            return super().chat(runtime, text)


class NarrativeTellsKindsFirst(ProtocolHandler):
    """A NARRATIVE tells the steps that make something a kind of the subject first, as an
    EXAMPLE does, instead of the steps out of it, then into it (the Node port's `told` with
    its EXAMPLE test made true: `Tell me about animals.` tells `animal includes fox` and
    `animal includes wolf` only, not `wild shelters animal` after them)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = answer.told

        def kinds_first(
            subject: Lemma, graph: teaching.TeachingGraph, *, example: bool
        ) -> tuple[teaching.TeachingPath, ...]:
            del example
            return kept(subject, graph, example=True)

        with patch.object(grounding, "told", kinds_first):
            return super().chat(runtime, text)


def _shared_with_every_domain(content: Any) -> dict[str, Any] | None:
    grounded = content["grounded"]
    if content["intent"] != "COMPARISON" or len(grounded) < 2:
        return None
    first, second = (list(entry["domains"][: says.COMPARED]) for entry in grounded[:2])
    shared = [d for d in first if d in grounded[1]["domains"]]
    own = [[d for d in domains if d not in shared] for domains in (first, second)]
    return {"own": own, "shared": shared}


class SharedBeyondSecondsThird(ProtocolHandler):
    """A COMPARISON's shared domains are the first subject's first three found anywhere in the
    second's domains, not only among its first three (the bound applied to one side)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(says, "_compared", _shared_with_every_domain):
            return super().chat(runtime, text)


def _told_with_every_kind_step(
    subject: Lemma, graph: Any, *, example: bool
) -> tuple[teaching.TeachingPath, ...]:
    if not example:
        return answer.told(subject, graph, example=False)
    kinds = answer.KIND_INTO | answer.KIND_OUT
    out, into = graph.out_of(subject.lemma), graph.into(subject.lemma)
    found = tuple(s for s in out if s.steps[0].relation in answer.KIND_INTO) + tuple(
        s for s in into if s.steps[0].relation in kinds
    )
    return found[: answer.TOLD] if found else answer.told(subject, graph, example=True)


class ExampleKindOfSomethingElse(ProtocolHandler):
    """An EXAMPLE counts a step making its subject a kind of something else (``mineral
    includes metal``) among the instances of the subject (both kind relations taken into it)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with patch.object(grounding, "told", _told_with_every_kind_step):
            return super().chat(runtime, text)
