"""Values taken from a prompt at the wrong stage of its reading (COG-STAGE-001 to 003).

Each class takes one value the docs fix at one stage of docs/intents.md § How a prompt is
read (the said text at step 1; the subject as written; the checked statement and the claim
as read) one stage early or late, as a port does that keeps the wrong variable.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any
from unittest.mock import patch

from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth import spelling, vault
from reference.truth.intent import prepare
from reference.truth.text import WHITE_SPACE, normalize, sub_words, word_matches

_SPACES = re.compile(f"[{WHITE_SPACE}]+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_SIMPLE = str.maketrans({"\u0130": "i", "\u03a3": "\u03c3"})


SAID_CHARS = vault.SAID_CHARS


def _mended(word: str) -> str:
    """*word* with a misspelt form word mended, a contraction's stem too (step 2)."""
    stem, apostrophe, clitic = word.partition("'")
    return spelling.mend(stem, lambda _: False) + apostrophe + clitic


def _spaced(text: str) -> str:
    return _SPACES.sub(" ", text).strip(" ")


class _SaidAtStage(ProtocolHandler):
    """Base: the vault keeps ``stage(raw prompt, normalised input)`` as the thing said (cut
    at 160 code points by the vault itself unless ``CUTS`` says the stage cut it)."""

    CUTS = False

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        return normalized

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        stored = vault.Vault.store
        stage = self.stage

        def store(
            held: vault.Vault,
            lemma: str,
            turn_idx: int,
            claim: str | None = None,
            said: str | None = None,
        ) -> Any:
            if said is not None:
                said = stage(text, said)
            return stored(held, lemma, turn_idx, claim, said)

        with (
            patch.object(vault.Vault, "store", store),
            patch.object(vault, "SAID_CHARS", 10**9 if self.CUTS else vault.SAID_CHARS),
        ):
            return super().chat(runtime, text)


class SaidAfterContractions(_SaidAtStage):
    """The vault keeps the text with contractions spelt out (step 3): `what is a river?`."""

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        return spelling.expand(normalized)[: vault.SAID_CHARS]


class SaidAfterMending(_SaidAtStage):
    """The vault keeps the text with misspelt form words mended (step 2): `what is a river?`
    for `waht is a river?`."""

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        mended = sub_words(normalized, _mended)
        return mended[: vault.SAID_CHARS]


class SaidAfterUnwrapping(_SaidAtStage):
    """The vault keeps the prompt as unwrapped (step 7: quotes, interjections, wrappers,
    trailing please and punctuation gone)."""

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        return prepare(normalized)[: vault.SAID_CHARS]


class SaidBeforeLowercase(_SaidAtStage):
    """The vault keeps the text before step 1 lowercases it (NFC, apostrophes and white
    space done): `WHAT IS A RIVER?`."""

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        nfc = unicodedata.normalize("NFC", raw).translate(_APOSTROPHES)
        return _spaced(nfc)[: vault.SAID_CHARS]


class SaidSimpleLowercase(_SaidAtStage):
    """The vault keeps the text lowercased one character for one (`İ` to `i`, every `Σ` to
    `σ`), not by the full default mapping."""

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        nfc = unicodedata.normalize("NFC", raw).translate(_APOSTROPHES).translate(_SIMPLE)
        return _spaced(nfc).lower()[: vault.SAID_CHARS]


class SaidApostrophesKept(_SaidAtStage):
    """The vault keeps `’`, `‘` and `ʼ` as written (step 1's one kind of apostrophe skipped)."""

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        return _spaced(unicodedata.normalize("NFC", raw)).lower()[: vault.SAID_CHARS]


class SaidCutBeforeNormalising(_SaidAtStage):
    """The vault cuts the prompt at 160 code points, then normalises what is left."""

    CUTS = True

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        return normalize(raw[:SAID_CHARS])


class SaidCutBeforeLowercase(_SaidAtStage):
    """The vault cuts at 160 code points before lowercasing (a lowercase that lengthens the
    text, `İ` to `i` and a dot above, leaves it longer than 160)."""

    CUTS = True

    @staticmethod
    def stage(raw: str, normalized: str) -> str:
        nfc = unicodedata.normalize("NFC", raw).translate(_APOSTROPHES)
        return _spaced(nfc)[:SAID_CHARS].lower()


def _rewrite(result: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict:
    result = {**result, "says": dict(result["says"])}
    change(result)
    return result


class SubjectFolded(ProtocolHandler):
    """The subject (and each word of says.unknown) is reported folded to the form the
    lexicon would hold (`rivers` as `river`, `zorbs` as `zorb`)."""

    @staticmethod
    def fold(word: str) -> str:
        for end, to, longer in (("ies", "y", 4), ("es", "", 4), ("s", "", 3), ("ing", "", 5)):
            if word.endswith(end) and not word.endswith("ss") and len(word) > longer:
                return word[: -len(end)] + to
        return word

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        fold = self.fold

        def change(result: dict[str, Any]) -> None:
            if isinstance(result.get("subject"), str):
                result["subject"] = fold(result["subject"])
            result["says"]["unknown"] = [fold(w) for w in result["says"]["unknown"]]

        return _rewrite(super().chat(runtime, text), change)


class SubjectCaseFolded(ProtocolHandler):
    """The subject and the unknown words are case folded (`straße` as `strasse`, a final
    `ς` as `σ`), not only lowercased."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        def change(result: dict[str, Any]) -> None:
            if isinstance(result.get("subject"), str):
                result["subject"] = result["subject"].casefold()
            result["says"]["unknown"] = [w.casefold() for w in result["says"]["unknown"]]

        return _rewrite(super().chat(runtime, text), change)


class SubjectBeforeLowercase(ProtocolHandler):
    """The subject is reported with the letter case the prompt wrote it in (`RIVER`)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        written = {m.group(0).lower(): m.group(0) for m in word_matches(text)}

        def change(result: dict[str, Any]) -> None:
            subject = result.get("subject")
            if isinstance(subject, str):
                result["subject"] = written.get(subject, subject)

        return _rewrite(super().chat(runtime, text), change)


class SubjectUnmended(ProtocolHandler):
    """The subject and the unknown words are reported as the normalised input spells
    them, before step 2 mends a misspelt typo target (`exmaple`, not `example`)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        spelt = {_mended(m.group(0)): m.group(0) for m in word_matches(normalize(text))}

        def change(result: dict[str, Any]) -> None:
            subject = result.get("subject")
            if isinstance(subject, str):
                result["subject"] = spelt.get(subject, subject)
            result["says"]["unknown"] = [spelt.get(w, w) for w in result["says"]["unknown"]]

        return _rewrite(super().chat(runtime, text), change)


def _unread(value: str, normalized: str, stage: Callable[[str], str]) -> str:
    """*value*, a span of the text *normalized* is read as (each word mended, then its
    contraction spelt out), with each word *stage* changes put back as written there."""
    pieces: list[tuple[str, str]] = []
    last = 0
    for match in word_matches(normalized):
        pieces.append((normalized[last : match.start()], normalized[last : match.start()]))
        word = match.group(0)
        full = spelling.expand(spelling.mend(word, lambda _: False))
        pieces.append((full, word if stage(word) != word else full))
        last = match.end()
    pieces.append((normalized[last:], normalized[last:]))
    read = "".join(changed for changed, _ in pieces)
    start = read.find(value)
    if start < 0:
        return value
    out, at = [], 0
    for changed, written in pieces:
        inside = start <= at and at + len(changed) <= start + len(value)
        if inside:
            out.append(written)
        elif start < at + len(changed) and at < start + len(value):
            lo, hi = max(start, at) - at, min(start + len(value), at + len(changed)) - at
            out.append(changed[lo:hi])
        at += len(changed)
    return "".join(out)


class _ReadBeforeStage(ProtocolHandler):
    """Base: says.checked and says.claim are taken before ``stage`` changed the words."""

    KEYS: tuple[str, ...] = ("checked", "claim")

    @staticmethod
    def stage(word: str) -> str:
        return word

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        normalized = normalize(text)
        keys, stage = self.KEYS, self.stage

        def change(result: dict[str, Any]) -> None:
            for key in keys:
                value = result["says"].get(key)
                if isinstance(value, str):
                    result["says"][key] = _unread(value, normalized, stage)

        return _rewrite(super().chat(runtime, text), change)


class CheckedBeforeContractions(_ReadBeforeStage):
    """says.checked is taken before contractions are spelt out: `the sun isn't the star`."""

    KEYS = ("checked",)

    @staticmethod
    def stage(word: str) -> str:
        return spelling.expand(word)


class CheckedBeforeMending(_ReadBeforeStage):
    """says.checked is taken before misspelt form words are mended: `... teh star`."""

    KEYS = ("checked",)

    @staticmethod
    def stage(word: str) -> str:
        return spelling.mend(word, lambda _: False)


class ClaimBeforeContractions(_ReadBeforeStage):
    """A correction's claim is taken before contractions are spelt out: `isn't a fish`."""

    KEYS = ("claim",)

    @staticmethod
    def stage(word: str) -> str:
        return spelling.expand(word)


class ClaimBeforeMending(_ReadBeforeStage):
    """A correction's claim is taken before misspelt form words are mended: `is teh lantern`."""

    KEYS = ("claim",)

    @staticmethod
    def stage(word: str) -> str:
        return spelling.mend(word, lambda _: False)


class CheckedBeforeCleaning(ProtocolHandler):
    """says.checked keeps the double quotes of the prompt (step 4 not applied to it)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        normalized = normalize(text)
        quoted = re.findall(r"[\"\u201c]([^\"\u201d]+)[\"\u201d]", normalized)

        def change(result: dict[str, Any]) -> None:
            value = result["says"].get("checked")
            if isinstance(value, str):
                for inner in quoted:
                    value = value.replace(inner, f"\u201c{inner}\u201d", 1)
                result["says"]["checked"] = value

        return _rewrite(super().chat(runtime, text), change)


class CheckedBeforeUnwrapping(ProtocolHandler):
    """says.checked keeps a trailing `please` the unwrapping (step 7) drops."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        polite = re.search(r"\bplease\W*$", normalize(text)) is not None

        def change(result: dict[str, Any]) -> None:
            value = result["says"].get("checked")
            if isinstance(value, str) and polite:
                result["says"]["checked"] = f"{value}, please"

        return _rewrite(super().chat(runtime, text), change)


STAGE_MUTANTS: tuple[tuple[Any, ...], ...] = (
    ("stage_said_after_contractions", SaidAfterContractions, "COG-STAGE-001", "STATE-SAID-001"),
    ("stage_said_after_mending", SaidAfterMending, "COG-STAGE-001", "STATE-SAID-001"),
    ("stage_said_after_unwrapping", SaidAfterUnwrapping, "COG-STAGE-001", "STATE-SAID-001"),
    ("stage_said_before_lowercase", SaidBeforeLowercase, "COG-STAGE-001"),
    ("stage_said_simple_lowercase", SaidSimpleLowercase, "COG-STAGE-001"),
    ("stage_said_apostrophes_kept", SaidApostrophesKept, "COG-STAGE-001", "STATE-SAID-001"),
    ("stage_said_cut_before_normalising", SaidCutBeforeNormalising, "COG-STAGE-001"),
    ("stage_said_cut_before_lowercase", SaidCutBeforeLowercase, "COG-STAGE-001"),
    ("stage_subject_folded", SubjectFolded, "COG-STAGE-002"),
    ("stage_subject_case_folded", SubjectCaseFolded, "COG-STAGE-002"),
    ("stage_subject_before_lowercase", SubjectBeforeLowercase, "COG-STAGE-002"),
    ("stage_subject_unmended", SubjectUnmended, "COG-STAGE-002"),
    ("stage_checked_before_contractions", CheckedBeforeContractions, "COG-STAGE-003"),
    ("stage_checked_before_mending", CheckedBeforeMending, "COG-STAGE-003"),
    ("stage_checked_before_cleaning", CheckedBeforeCleaning, "COG-STAGE-003"),
    ("stage_checked_before_unwrapping", CheckedBeforeUnwrapping, "COG-STAGE-003"),
    ("stage_claim_before_contractions", ClaimBeforeContractions, "COG-STAGE-003"),
    ("stage_claim_before_mending", ClaimBeforeMending, "COG-STAGE-003"),
)
"""Each broken engine with the requirement that catches it."""
