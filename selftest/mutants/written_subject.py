"""Broken engines that keep the session's latest subject as its lemma rather than as
written (docs/intents.md § Subjects: "the lexicon folds a plural when it grounds it: `trees`
grounds as *tree*, the subject stays `trees`"; the latest subject is "the subject of the
latest earlier turn that had one"). An antecedent written as its own lemma, or unknown to
the lexicon, reads the same either way; only one written in another form (`rivers`) shows
the mistake."""

from __future__ import annotations

from typing import Any

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler


def _as_lemma(runtime: ChatRuntime) -> None:
    """Replace the latest subject with the lemma the lexicon grounds it as, if any (the
    port's `Option<LemmaId>`, else the raw word of an unknown subject)."""
    latest = runtime.truth.context
    if latest is not None:
        found = runtime.truth.lexicon.lookup(latest)
        if found is not None:
            runtime.truth.context = found.lemma


class LatestSubjectAsLemma(ProtocolHandler):
    """After every turn the latest subject is kept as its lemma: `What are rivers?` then
    `Why?` is about `river`."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        result = super().chat(runtime, text)
        _as_lemma(runtime)
        return result


WRITTEN_SUBJECT_MUTANTS = (
    ("latest_subject_kept_as_lemma", LatestSubjectAsLemma, "COG-PRIMED-001"),
)
