"""Broken engines of the ledger audit (``tools/normative_audit.py``): each violates one
sampled normative sentence of docs/, the way a port reading its words wrongly would.

Each class names its sentence in its docstring's second paragraph; the audit certifies
it with only the requirement ids docs/normative.json cites for that sentence.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

import reference.truth.intent as reading
import reference.truth.record as record
import reference.truth.teaching as teaching
import reference.truth.vault as vault
from reference.lexicon import Lemma
from reference.protocol.algebra_ops import AlgebraOps
from reference.realize.depth import DISCLOSURE_KEY
from reference.registers import Ratifier, RegisterPack
from reference.runtime import ChatRuntime, TurnRuntime
from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.truth.intent import IntentTag
from reference.truth.record import TruthRecord
from selftest.state_codecs import Codec, CodecHandler

_MINUS_ZERO = re.compile(r"(?<![\w.])-0(?![\w.])")
_BUCKETS = ("openings", "transitions", "closings")


class ReverseIsConjugate(ProtocolHandler):
    """algebra.reverse answers the Clifford conjugate (grades 1 and 2 negated), not the
    reversion (grades 2 and 3 negated).

    docs/protocol.md § Algebra ops: ``algebra.reverse`` | ``a`` | the reversion of ``a``.
    """

    def op_algebra_reverse(self, args: dict[str, Any]) -> dict[str, Any]:
        from reference.algebra.basis import GRADE

        answer = AlgebraOps.op_algebra_reverse(self, args)
        coefficients = np.array(answer["multivector"])
        sign = np.array([-1.0 if g % 2 else 1.0 for g in GRADE])
        return {"multivector": [float(c) + 0.0 for c in coefficients * sign]}


class IntentInLowerCase(ProtocolHandler):
    """session.chat reports its intent in lower case (``definition``), an enum's value
    rather than its name.

    docs/protocol.md § session.chat: ``intent`` | an IntentTag name.
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        answer = super().chat(runtime, text)
        return {**answer, "intent": answer["intent"].lower()}


class MinusZeroAsDouble(ProtocolHandler):
    """A request's ``-0`` is read as the double negative zero, so an integer argument
    written ``-0`` is refused as not an integer.

    docs/protocol.md § Requests: ``-0`` is the integer 0.
    """

    def handle_line(self, line: str | bytes) -> str:
        text = line.decode("utf-8", "surrogatepass") if isinstance(line, bytes) else line
        return super().handle_line(_MINUS_ZERO.sub("-0.0", text))


class UnknownBucketIgnored(ProtocolHandler):
    """A ``discourse_markers`` key other than the three buckets is ignored, not refused.

    docs/registers.md § Error codes: ``REGISTER_UNKNOWN_BUCKET`` | parse |
    ``discourse_markers`` has a key other than ``openings``, ``transitions``, ``closings``.
    """

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        markers = pack.get("discourse_markers") if isinstance(pack, dict) else None
        if isinstance(markers, dict):
            kept = {k: v for k, v in markers.items() if k in _BUCKETS}
            pack = {**pack, "discourse_markers": kept}
        return super().validate_pack(pack, expected_id)


class _MarkersMethodFirst(Ratifier):
    def unsealed_report(self, pack: RegisterPack, evidence: dict[str, Any]) -> dict[str, Any]:
        report = super().unsealed_report(pack, evidence)
        return {**report, "methods": list(reversed(report["methods"]))}


class MethodsUnsorted(ProtocolHandler):
    """Ratification lists its methods markers first (the order its checks run), not sorted.

    docs/registers.md § The ratification gate: Methods (sorted): ... non-empty overrides
    add ``known_key_overrides_invariant_grounding`` and non-empty openings or closings add
    ``seeded_variation_replay_equivalence``.
    """

    ratifier = _MarkersMethodFirst()


class SentinelOnTheWire(ProtocolHandler):
    """session.chat reports the UNREGISTERED sentinel as ``"unregistered"``, not ``null``.

    docs/registers.md § No register: ``"unregistered"`` never crosses the wire: an engine
    reports ``null`` for the sentinel.
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        answer = super().chat(runtime, text)
        if answer["register_id"] is None:
            return {**answer, "register_id": "unregistered"}
        return answer


class RotorRenormalized(ProtocolHandler):
    """algebra.rotor scales its closed-form rotor to unit length (its coefficients' norm),
    as a port that renormalizes every rotor would.

    docs/spec.md § Algebra: Rotor ``rotor(B, θ) = exp(-θ/2 · B̂)``, in closed form, never
    renormalized.
    """

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        answer = AlgebraOps.op_algebra_rotor(self, args)
        size = math.sqrt(sum(c * c for c in answer["multivector"]))
        return {"multivector": [c / size + 0.0 for c in answer["multivector"]]}


class SaidKeptTwo(ProtocolHandler):
    """A subject's tally keeps the latest two things said, not three.

    docs/spec.md § Cognition: a session keeps, for every subject, the claims and the words
    the user said about it (at least the latest three turns' worth).
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = vault.SAID_KEPT
        vault.SAID_KEPT = 2
        try:
            return super().chat(runtime, text)
        finally:
            vault.SAID_KEPT = kept


class GlosslessVerdictDropped(ProtocolHandler):
    """A VERIFICATION of a gloss-less subject is worded as its DEFINITION: no verdict.

    docs/intents.md § Answers: the verdict is always said, gloss-less subjects included.
    """

    def realize_turn(self, runtime: TurnRuntime, truth: TruthRecord) -> str:
        from reference.realize.compose import pack_surface

        grounding = truth.grounding
        if (
            truth.intent is IntentTag.VERIFICATION
            and grounding.source == "pack"
            and grounding.lemmas[0].gloss is None
        ):
            depth = self.resolve_overrides(runtime.register.realizer_overrides, "VERIFICATION")
            return pack_surface(grounding.lemmas[0], truth, {DISCLOSURE_KEY: depth})
        return super().realize_turn(runtime, truth)


class LeadAloneUnknown(ProtocolHandler):
    """A correction that names no subject (a lead alone: ``No, that's wrong.``) is
    reported as UNKNOWN.

    docs/intents.md § The table of forms: CORRECTION | lead only | ``No, that's wrong.``
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        answer = super().chat(runtime, text)
        if answer["intent"] == "CORRECTION" and answer["subject"] is None:
            return {**answer, "intent": "UNKNOWN"}
        return answer


class SessionKeyedById(ProtocolHandler):
    """core.jsonl's session record is keyed by the session's id, not ``"session"``.

    docs/state.md § The persistent core: ``session`` | ``kind``, ``key`` (always
    ``"session"``), ``register_id``.
    """

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        runtime.persisted.session_record["key"] = f"s{len(self.sessions) + 1}"


@contextmanager
def _disclosed_domains(depth: int | None) -> Iterator[None]:
    kept = record.lemma_content

    def lemma_content(entry: Lemma) -> dict[str, object]:
        content = kept(entry)
        if depth is not None:
            content["domains"] = list(entry.domains)[:depth]
        return content

    record.lemma_content = lemma_content
    try:
        yield
    finally:
        record.lemma_content = kept


class HashOfDisclosedDomains(ProtocolHandler):
    """The trace hash seals the domains the register discloses, not all of them.

    docs/trace-hash.md § Fields of the sealed object: because ``grounded`` carries the full
    domain list and gloss, the disclosure depth a register chooses can never change the
    hash.
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        depth = runtime.register.realizer_overrides.get("disclosure_domain_count")
        with _disclosed_domains(depth if type(depth) is int else None):
            return super().chat(runtime, text)


def _little_endian_address(lemma: str) -> str:
    from reference.truth.vault import lemma_point

    return hashlib.sha256(np.asarray(lemma_point(lemma), dtype="<f8").tobytes()).hexdigest()


class _LittleEndianAddresses(Codec):
    def core_out(self, record: dict[str, Any]) -> dict[str, Any]:
        if record.get("kind") == "vault":
            return {**record, "key": _little_endian_address(record["lemma"])}
        return record

    def core_in(self, record: dict[str, Any]) -> dict[str, Any]:
        from reference.truth.vault import lemma_address

        if record.get("kind") == "vault" and record["key"] == _little_endian_address(
            record["lemma"]
        ):
            return {**record, "key": lemma_address(record["lemma"])}
        return record


class AddressOfNativeDoubles(CodecHandler):
    """A vault record is keyed by the SHA-256 of its point's doubles in the machine's
    (little-endian) byte order, not big-endian.

    docs/trace-hash.md § How floats enter a hash: vault addresses are the one place raw
    IEEE-754 bytes are hashed.
    """

    codec = _LittleEndianAddresses


def _forms() -> dict[str, Any]:
    """forms.json, the forms and cues the reader is built from, as data."""
    data: dict[str, Any] = json.loads(reading.FORMS_PATH.read_text(encoding="utf-8"))
    return data


@contextmanager
def _refiled(rule_ids: frozenset[str], intent: IntentTag) -> Iterator[None]:
    forms = _forms()
    ids = [form["id"] for form in forms["forms"]]
    kept = (reading.FRAMES, reading.CUES)
    reading.FRAMES = tuple(
        dataclasses.replace(frame, intent=intent) if ids[i] in rule_ids else frame
        for i, frame in enumerate(reading.FRAMES)
    )
    cue_ids = [cue["id"] for cue in forms["cues"]]
    reading.CUES = tuple(
        (intent, *cue[1:]) if cue_ids[i] in rule_ids else cue for i, cue in enumerate(reading.CUES)
    )
    reading.forget_readings()
    try:
        yield
    finally:
        reading.FRAMES, reading.CUES = kept
        reading.forget_readings()


class StoryOfMisfiled(ProtocolHandler):
    """The form ``the story/history of A`` (forms.json F-159) is filed under DEFINITION, a
    row of the table of forms read into the wrong intent.

    docs/intents.md § The table of forms: NARRATIVE | ``the story/history of A`` |
    ``The story of the moon.`` | moon.
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with _refiled(frozenset({"F-159"}), IntentTag.DEFINITION):
            return super().chat(runtime, text)


class RecallReadAsNarrative(ProtocolHandler):
    """Every form and cue of RECALL is filed under NARRATIVE: asking what one said is read
    as asking for the subject's story.

    docs/intents.md § The twelve intents: RECALL | to be reminded of what they themselves
    said earlier in the conversation.
    """

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        recall = frozenset(
            raw["id"]
            for raw in (*_forms()["forms"], *_forms()["cues"])
            if raw["intent"] == "RECALL"
        )
        with _refiled(recall, IntentTag.NARRATIVE):
            return super().chat(runtime, text)


class _DepthFirstGraph(teaching.TeachingGraph):
    def path(self, source: str, target: str) -> teaching.TeachingPath | None:
        """The first path depth first over the sorted steps: not always the shortest."""
        if source == target:
            return None
        came: dict[str, teaching.TeachingPath] = {}
        stack = [source]
        while stack:
            node = stack.pop()
            for edge in reversed(self.out_of(node)):
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
                stack.append(nxt)
        return None


class PathDepthFirst(ProtocolHandler):
    """A teaching path is searched depth first over the sorted steps: the first path found,
    not the shortest.

    docs/intents.md § Answers: a path is the shortest one (fewest steps), found breadth
    first over that order.
    """

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        runtime.truth.graph = _DepthFirstGraph(runtime.truth.lexicon.chains)
        return runtime


class _NoNullLift(Ratifier):
    def unsealed_report(self, pack: RegisterPack, evidence: dict[str, Any]) -> dict[str, Any]:
        report = super().unsealed_report(pack, evidence)
        methods = [m for m in report["methods"] if m != "byte_identity_null_lift"]
        return {**report, "methods": methods}


class NullLiftOmitted(ProtocolHandler):
    """Ratification adds a method only for overrides or markers, so a null pack's report
    lists none (no ``byte_identity_null_lift``).

    docs/registers.md § The ratification gate: a null pack gets ``byte_identity_null_lift``.
    """

    ratifier = _NoNullLift()


class SessionRegisterEmpty(ProtocolHandler):
    """core.jsonl's session record writes no register (the UNREGISTERED sentinel) as
    ``""``, not ``null``.

    docs/state.md § The persistent core: ``session`` | ``kind``, ``key`` (always
    ``"session"``), ``register_id`` (str or null).
    """

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        if runtime.persisted.session_record["register_id"] is None:
            runtime.persisted.session_record["register_id"] = ""
