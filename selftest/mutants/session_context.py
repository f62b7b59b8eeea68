"""Broken keeping of a session's context (its latest subject, its latest claims): right for
one session at a time and for turns sent one by one, wrong for sessions side by side
(PROTO-SESSION-002: docs/protocol.md § session.open, "an independent chat session";
§ session.chat, "exactly ... of a fresh runtime that saw the same earlier turns") or across
a batch's edge (PROTO-BATCH-003: § batch, "session state carries through the batch")."""

from __future__ import annotations

import dataclasses
from typing import Any

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth.vault import Vault


class LatestSubjectOnEngine(ProtocolHandler):
    """The latest subject is one slot on the engine (a port's ``self.context`` on its
    handler), set to the new session's at every ``session.open``: a session chatted alone
    answers right, but after another session opened or chatted, a `Why?` is about that
    session's subject."""

    latest: str | None = None

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        opened = super().op_session_open(args)
        self.latest = self.session(opened["session"]).truth.context
        return opened

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        runtime.truth.context = self.latest
        answered = super().chat(runtime, text)
        self.latest = runtime.truth.context
        return answered


def _claims(runtime: ChatRuntime) -> dict[str, str | None]:
    return {hit.address: hit.latest_claim for hit in runtime.truth.vault.hits()}


def _with_claims(runtime: ChatRuntime, claims: dict[str, str | None]) -> None:
    hits = runtime.truth.vault.hits()
    runtime.truth.vault = Vault.restored(
        dataclasses.replace(hit, latest_claim=claims.get(hit.address)) for hit in hits
    )


class BatchContextInScratch(ProtocolHandler):
    """A batch runs its chat elements on a per-request scratch copy of each session's
    context (latest subject, latest claim of each subject), while turn counts and things
    said go to the session itself: the scratch starts empty, so an element does not see the
    subject or claim of a turn before the batch, and it is dropped at the batch's end, so a
    turn after the batch does not see one made inside it."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        before = {
            session_id: (runtime, runtime.truth.context, _claims(runtime))
            for session_id, runtime in self.sessions.items()
        }
        for runtime, _, claims in before.values():
            runtime.truth.context = None
            _with_claims(runtime, dict.fromkeys(claims))
        try:
            return super().op_batch(args)
        finally:
            for session_id, runtime in self.sessions.items():
                kept = before.get(session_id)
                if kept is None or kept[0] is not runtime:
                    runtime.truth.context = None
                    _with_claims(runtime, {})
                else:
                    runtime.truth.context = kept[1]
                    _with_claims(runtime, kept[2])


SESSION_CONTEXT_MUTANTS = (
    ("latest_subject_on_engine", LatestSubjectOnEngine, "PROTO-SESSION-002", "PROTO-BATCH-003"),
    ("batch_context_in_scratch", BatchContextInScratch, "PROTO-BATCH-003"),
)
