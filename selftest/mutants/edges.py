"""Broken readers that each get one branch edge of a rule wrong (COG-EDGE-001).

Each is the reference with one function of the truth path replaced for the length of a turn,
as a port that slipped at one edge would be: an edit tried at a word's first or last letter,
a transposition never tried at the first or last pair, the first question deciding, the
referent taken after the deciding sentence first, a class of characters read as letters or
as white space when the docs say otherwise, a simple case mapping, the latest subject or
claim cleared or kept wrongly, two ordered checks swapped.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import reference.truth.answer as answer
import reference.truth.grammar as grammar
import reference.truth.grounding as grounding
import reference.truth.intent as reading
import reference.truth.pipeline as pipeline
import reference.truth.spelling as spelling
import reference.truth.text as text_
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler
from reference.truth.intent import IntentTag
from reference.truth.vault import Vault


@contextmanager
def _patched(module: Any, name: str, value: Any) -> Iterator[None]:
    kept = getattr(module, name)
    setattr(module, name, value)
    reading.forget_readings()
    try:
        yield
    finally:
        setattr(module, name, kept)
        reading.forget_readings()


class _Patching(ProtocolHandler):
    """The reference with ``PATCHES`` (module, attribute, replacement) in place for a turn."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        """The (module, attribute, replacement) triples (the base patches nothing)."""
        return []

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        with ExitStack() as stack:
            for module, name, value in self.patches():
                stack.enter_context(_patched(module, name, value))
            return super().chat(runtime, text)


def _left_out(first: int, last: int) -> Callable[[str, str], bool]:
    def left_out(short: str, long: str) -> bool:
        if len(long) != len(short) + 1:
            return False
        return any(long[:i] + long[i + 1 :] == short for i in range(first, len(long) - last))

    return left_out


class MendDropsFirstLetter(_Patching):
    """Step 2's left-out letter may be the target's first (`hat` is read as `what`)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(spelling, "_one_left_out", _left_out(0, 1))]


class MendDropsLastLetter(_Patching):
    """Step 2's left-out letter may be the target's last (`wha` is read as `what`)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(spelling, "_one_left_out", _left_out(1, 0))]


def _swap_unless(edge: Callable[[int, int, int], bool]) -> Callable[[str, str], bool]:
    """Step 2's swap of two adjacent letters, never at the pair *edge* names."""

    def transposed(word: str, target: str) -> bool:
        if len(word) != len(target) or word == target:
            return False
        diffs = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        swapped = (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and word[diffs[0]] == target[diffs[1]]
            and word[diffs[1]] == target[diffs[0]]
        )
        return swapped and not edge(diffs[0], diffs[1], len(word))

    return transposed


class SwapSkipsFirstPair(_Patching):
    """Step 2's swap is tried only from the second letter on (`hwat` stays as written)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(spelling, "_transposed", _swap_unless(lambda i, _j, _n: i == 0))]


class SwapSkipsLastPair(_Patching):
    """Step 2's swap is never tried at the last two letters (`whta` stays as written)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(spelling, "_transposed", _swap_unless(lambda _i, j, n: j == n - 1))]


def _is_request(found: Any) -> bool:
    return found.intent is not IntentTag.UNKNOWN and not found.statement and not found.cued


def _picker(
    *,
    first_question: bool = False,
    requests_first: bool = False,
    last_request: bool = False,
    cue_question_first: bool = False,
    first_cued_question: bool = False,
) -> Callable[[list[Any]], int]:
    """Step 9's choice of the deciding sentence, with one of its edges moved."""

    def pick(readings: list[Any]) -> int:
        forwards = list(range(len(readings)))
        backwards = forwards[::-1]
        question_request = [
            i
            for i in (forwards if first_question else backwards)
            if readings[i][0].question and _is_request(readings[i][1])
        ]
        request = [
            i for i in (backwards if last_request else forwards) if _is_request(readings[i][1])
        ]
        asked = [
            i
            for i in (forwards if first_cued_question else backwards)
            if readings[i][0].question and readings[i][1].intent is not IntentTag.UNKNOWN
        ]
        anything = [i for i in forwards if readings[i][1].intent is not IntentTag.UNKNOWN]
        order = [question_request, request, asked, anything]
        if requests_first:
            order = [request, question_request, asked, anything]
        if cue_question_first:
            order = [question_request, asked, request, anything]
        return next((found[0] for found in order if found), 0)

    return pick


class FirstQuestionDecides(_Patching):
    """Step 9: of several question requests the first decides, not the last."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_pick", _picker(first_question=True))]


class FirstRequestBeforeQuestion(_Patching):
    """Step 9's first two checks swapped: the first request decides before the last question."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_pick", _picker(requests_first=True))]


class LastRequestDecides(_Patching):
    """Step 9: of several requests none a question, the last decides, not the first."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_pick", _picker(last_request=True))]


class CueQuestionBeforeRequest(_Patching):
    """Step 9: a question read by cue words decides before a request that is no question."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_pick", _picker(cue_question_first=True))]


class FirstCuedQuestionDecides(_Patching):
    """Step 9: of several questions read by cue words (and no request), the first decides."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_pick", _picker(first_cued_question=True))]


_READ_CLAUSE = reading.read_clause


def _asked_with_cues(clause: str, question: bool = False) -> Any:
    found = reading.read_forms(clause, question) or reading.read_cues(clause, question)
    read = _READ_CLAUSE(clause, question)
    if found is None and read.intent is IntentTag.VERIFICATION:
        return dataclasses.replace(read, cued=True)
    return read


class StatementAskedWithCues(_Patching):
    """Step 9 ranks a statement asked (`So the river makes water?`) with the questions read
    by cue words, below every request, not as a form's request."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "read_clause", _asked_with_cues)]


def _referent_after_first(sentences: list[Any], chosen: int) -> str | None:
    order = list(range(chosen + 1, len(sentences))) + list(range(chosen - 1, -1, -1))
    for index in order:
        if text_.content_terms(text_.tokenize(sentences[index].clause)):
            return str(sentences[index].clause)
    return None


def _referent_farthest(sentences: list[Any], chosen: int) -> str | None:
    order = list(range(chosen)) + list(range(chosen + 1, len(sentences)))
    for index in order:
        if text_.content_terms(text_.tokenize(sentences[index].clause)):
            return str(sentences[index].clause)
    return None


def _referent_nearest_sentence(sentences: list[Any], chosen: int) -> str | None:
    if chosen > 0:
        return str(sentences[chosen - 1].clause)
    return str(sentences[chosen + 1].clause) if len(sentences) > 1 else None


def _referent_before_only(sentences: list[Any], chosen: int) -> str | None:
    for index in range(chosen - 1, -1, -1):
        if text_.content_terms(text_.tokenize(sentences[index].clause)):
            return str(sentences[index].clause)
    return None


class ReferentNearestSentence(_Patching):
    """Step 9: the referent is the nearest other sentence, with a content word or not."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_referent", _referent_nearest_sentence)]


class ReferentBeforeOnly(_Patching):
    """Step 9: the referent is looked for only before the deciding sentence."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_referent", _referent_before_only)]


class ReferentAfterFirst(_Patching):
    """Step 9: the referent is looked for after the deciding sentence first."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_referent", _referent_after_first)]


class ReferentFarthestFirst(_Patching):
    """Step 9: the referent is the first sentence of the prompt, not the nearest."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "_referent", _referent_farthest)]


def _view(letter: Callable[[str], bool]) -> Callable[[str], str]:
    """A letter view where *letter* decides, char by char, what joins a word."""

    def view(text: str) -> str:
        return "".join(c if c == "'" else ("a" if letter(c) else " ") for c in text)

    return view


class _Found:
    def __init__(self, text: str, start: int, end: int) -> None:
        self._text, self._start, self._end = text, start, end

    def group(self, _: int = 0) -> str:
        return self._text[self._start : self._end]

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


_RUNS = re.compile("a+(?:'a+)?")
"""Words in a letter view: runs of letters, two runs joined by one apostrophe."""


def _matches(letter: Callable[[str], bool]) -> Callable[[str], Iterator[Any]]:
    def word_matches(text: str) -> Iterator[Any]:
        for found in _RUNS.finditer(_view(letter)(text)):
            yield _Found(text, found.start(), found.end())

    return word_matches


def _category(*prefixes: str) -> Callable[[str], bool]:
    return lambda c: unicodedata.category(c).startswith(("L", *prefixes))


_OTHER_ALPHABETIC = {0x0345, *range(0x05B0, 0x05BE), *range(0x0900, 0x0904), *range(0x093E, 0x094D)}


def _alphabetic(c: str) -> bool:
    """Unicode's Alphabetic property, as far as the edges need it (L, Nl, the circled letters
    and some Other_Alphabetic marks): what Rust's ``char::is_alphabetic`` reads as a letter."""
    code = ord(c)
    category = unicodedata.category(c)
    return (
        category.startswith("L")
        or category == "Nl"
        or 0x24B6 <= code <= 0x24E9
        or code in _OTHER_ALPHABETIC
    )


class _Letters(_Patching):
    letter: Callable[[str], bool] = staticmethod(_category())

    def patches(self) -> list[tuple[Any, str, Any]]:
        matches = _matches(self.letter)
        return [(text_, "word_matches", matches), (reading, "word_matches", matches)]


class LetterNumbersAsLetters(_Letters):
    """A letter-number (Nl: `Ⅻ`, `〇`) joins a word as a letter would."""

    letter = staticmethod(_category("Nl"))


class OtherNumbersAsLetters(_Letters):
    """A number that is no decimal digit (No: `²`, `½`, `①`) joins a word."""

    letter = staticmethod(_category("No"))


class NumericLettersSeparate(_Letters):
    """A letter with a numeric value (`一`) separates words, as a number would."""

    letter = staticmethod(lambda c: unicodedata.category(c).startswith("L") and not c.isnumeric())


class MarksJoinWords(_Letters):
    """Combining marks (Mn, Mc, Me) join a word: a port matching letters and marks."""

    letter = staticmethod(_category("M"))


class AlphabeticAsLetters(_Letters):
    """Letters are Unicode's Alphabetic property: letter-numbers, circled letters and some
    marks join words."""

    letter = staticmethod(_alphabetic)


class FormatCharactersIgnored(_Patching):
    """Format characters (Cf: a zero width space, a soft hyphen) are dropped, not separators."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        kept = "".join(c for c in text if unicodedata.category(c) != "Cf")
        return super().chat(runtime, kept)

    def patches(self) -> list[tuple[Any, str, Any]]:
        return []


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def _normalize_with(space: str, lower: Callable[[str], str]) -> Callable[[str], str]:
    runs = re.compile(space)

    def normalize(text: str) -> str:
        nfc = unicodedata.normalize("NFC", text).translate(_APOSTROPHES)
        return lower(runs.sub(" ", nfc).strip(" "))

    return normalize


_FULL = str.lower


class _Normalising(_Patching):
    space = f"[{text_.WHITE_SPACE}]+"
    lower: Callable[[str], str] = staticmethod(_FULL)

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(pipeline, "normalize", _normalize_with(self.space, self.lower))]


class WhiteSpaceByIsspace(_Normalising):
    """White space is Python's ``str.isspace`` (U+001C to U+001F too), not White_Space."""

    space = r"\s+"


class WhiteSpaceByJavaScript(_Normalising):
    """White space is JavaScript's ``\\s``: U+FEFF too, U+0085 not."""

    space = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"


class SimpleLowercase(_Normalising):
    """Lowercase is a simple one-for-one mapping: `İ` becomes `i`, a final `Σ` becomes `σ`."""

    lower = staticmethod(lambda s: "".join(c.lower()[0] for c in s))


class _Session(ProtocolHandler):
    """A hook after each turn on the session's truth pipeline."""

    def after(self, runtime: ChatRuntime, response: dict[str, Any], before: str | None) -> None:
        """Change the session after a turn (the base changes nothing)."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        before = runtime.truth.context
        response = super().chat(runtime, text)
        self.after(runtime, response, before)
        return response


class LatestSubjectCleared(_Session):
    """A turn without a subject clears the session's latest subject."""

    def after(self, runtime: ChatRuntime, response: dict[str, Any], before: str | None) -> None:
        if response["subject"] is None:
            runtime.truth.context = None


class LatestSubjectKnownOnly(_Session):
    """Only a subject the lexicon knows becomes the session's latest subject."""

    def after(self, runtime: ChatRuntime, response: dict[str, Any], before: str | None) -> None:
        if response["grounding_source"] in ("oov", "none"):
            runtime.truth.context = before


class FirstSubjectKept(_Session):
    """The session's first subject stays its latest: a later subject never replaces it."""

    def after(self, runtime: ChatRuntime, response: dict[str, Any], before: str | None) -> None:
        if before is not None:
            runtime.truth.context = before


class _LatestSkips(_Session):
    """A turn of ``SKIPPED`` never becomes the session's latest subject."""

    SKIPPED = ""

    def after(self, runtime: ChatRuntime, response: dict[str, Any], before: str | None) -> None:
        if response["intent"] == self.SKIPPED:
            runtime.truth.context = before


class RecallNotLatestSubject(_LatestSkips):
    """A RECALL about a subject never becomes the session's latest subject."""

    SKIPPED = "RECALL"


class ComparisonNotLatestSubject(_LatestSkips):
    """A COMPARISON never becomes the session's latest subject."""

    SKIPPED = "COMPARISON"


class RecallCountsRecallTurns(ProtocolHandler):
    """A RECALL of the whole session counts an earlier RECALL's subject as something said."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        said = len(runtime.truth.vault)
        response = super().chat(runtime, text)
        whole = response["intent"] == "RECALL" and response["subject"] is None
        if whole and said and response["grounding_source"] == "none":
            return {**response, "grounding_source": "vault"}
        return response


class ClaimClearedByClaimless(ProtocolHandler):
    """A turn about a subject that states no claim clears its latest claim."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        turn = runtime.truth.turn_idx
        response = super().chat(runtime, text)
        hits = [
            dataclasses.replace(hit, latest_claim=None)
            if hit.said and hit.said[0].turn_idx == turn and hit.said[0].claim is None
            else hit
            for hit in runtime.truth.vault.hits()
        ]
        runtime.truth.vault = Vault.restored(hits)
        return response


def _teaching_first(
    statement: str, subject: Any, claim: str | None, graph: Any
) -> tuple[str, str | None, Any]:
    found = _VERDICT(statement, subject, None, graph)
    if found[1] == "teaching":
        return found
    return _VERDICT(statement, subject, claim, graph)


_VERDICT = answer.verdict


class TeachingBeforeClaim(_Patching):
    """VERIFICATION evidence 2 (a teaching step) is tried before evidence 1 (the claim)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(grounding, "verdict", _teaching_first)]


def _unknown_first(intent: Any, lemmas: Any, unknown: Any, path: Any, hit: Any, found: Any) -> str:
    """Grounding rules 5 and 6 first, then 2 to 4."""
    if not lemmas:
        return "oov"
    if unknown:
        return "partial"
    subject_known = intent.subject not in unknown
    if intent.intent is IntentTag.CORRECTION and subject_known and intent.claim:
        return "vault"
    if intent.intent is IntentTag.RECALL and hit is not None:
        return "vault"
    if found is not None and found.by == "vault":
        return "vault"
    return "teaching" if path is not None else "pack"


class UnknownWordsFirst(_Patching):
    """Grounding rules 5 and 6 are tried before rules 2 to 4: a correction naming an unknown
    word is partial, not vault."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(grounding, "_source", _unknown_first)]


_SENTENCE_END = re.compile(r"(?<=[.!?]) +")
_LEAD_WORD = re.compile(r"^(?:no|nope|wrong|actually)\b[,.!]", re.IGNORECASE)


class LeadOpensAnySentence(ProtocolHandler):
    """Step 5's lead is looked for at the opening of every sentence, not only the prompt's:
    from the first sentence that opens with one, the rest is read as a correction."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        sentences = _SENTENCE_END.split(text.strip())
        later = [i for i, sentence in enumerate(sentences) if i and _LEAD_WORD.match(sentence)]
        if later:
            text = " ".join(sentences[later[0] :])
        return super().chat(runtime, text)


class ClaimFromLastSentence(ProtocolHandler):
    """Step 5a's claim is stated by the last sentence after the lead, not the first."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        found = _LEAD_WORD.match(text.strip())
        if found is not None:
            lead, rest = text.strip()[: found.end()], text.strip()[found.end() :]
            sentences = _SENTENCE_END.split(rest.strip())
            if len(sentences) > 1:
                text = f"{lead} {' '.join(reversed(sentences))}"
        return super().chat(runtime, text)


_CLITIC_ENDS = ("s", "re", "d", "ll", "ve", "m")


def _base_keeping_apostrophe(token: str) -> str | None:
    if "'" not in token:
        return token
    stem, clitic = token.split("'", 1)
    if clitic == "t":
        return None
    return stem if clitic in _CLITIC_ENDS else token


class ApostropheKeptInWord(_Patching):
    """A word with an apostrophe that is no clitic keeps it (`l'ight` stays `l'ight`)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [
            (text_, "word_base", _base_keeping_apostrophe),
            (grammar, "word_base", _base_keeping_apostrophe),
        ]


def _base_reducing_clitic_words(token: str) -> str | None:
    if "'" not in token:
        return token[:-1] if token in _CLITIC_ENDS else token
    stem, clitic = token.split("'", 1)
    if clitic == "t":
        return None
    return stem if clitic in _CLITIC_ENDS else token.replace("'", "")


class CliticSpeltWordReduced(_Patching):
    """A word of its own spelt like a clitic is reduced as one (`re` read as `r`, no content
    word), as a port whose clitic test also runs on words without an apostrophe."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [
            (text_, "word_base", _base_reducing_clitic_words),
            (grammar, "word_base", _base_reducing_clitic_words),
        ]


def _forms_with_bound(rule: str) -> Callable[[str], Iterator[str]]:
    """Word folding with *rule*'s length bound one letter lower (a word at the bound folds)."""
    over = {"ies": 4, "ves": 4, "es": 4, "s": 3, "ing": 5}
    over[rule] -= 1

    def forms(word: str) -> Iterator[str]:
        yield word
        if word.endswith("ies") and len(word) > over["ies"]:
            yield word[:-3] + "y"
        if word.endswith("ves") and len(word) > over["ves"]:
            yield word[:-3] + "f"
            yield word[:-3] + "fe"
        if word.endswith("es") and len(word) > over["es"]:
            yield word[:-2]
        if word.endswith("s") and not word.endswith("ss") and len(word) > over["s"]:
            yield word[:-1]
        if word.endswith("ing") and len(word) > over["ing"]:
            stem = word[:-3]
            yield stem
            yield stem + "e"
            if len(stem) > 2 and stem[-1] == stem[-2]:
                yield stem[:-1]

    return forms


def _same_word_bound(rule: str) -> type[ProtocolHandler]:
    class SameWordBoundLowered(_Patching):
        def patches(self) -> list[tuple[Any, str, Any]]:
            return [(answer, "base_forms", _forms_with_bound(rule))]

    SameWordBoundLowered.__doc__ = (
        f"The same-word test folds a word at the `-{rule}` rule's length bound (a claim "
        f"`is {dict(FOLD_AT)[rule]}` covers the folded form), as a port whose bound is `>=`."
    )
    return SameWordBoundLowered


FOLD_AT = (("ies", "ties"), ("ves", "aves"), ("es", "axes"), ("s", "abs"), ("ing", "owing"))
"""Each folding rule with the word at its bound the edges claim."""


class EarlierSkipsRecalls(ProtocolHandler):
    """`earlier` counts only the turns it could quote: an earlier RECALL of the subject is
    left out of the count."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recalled: dict[int, dict[str, int]] = {}

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        subject = response["subject"]
        if response["intent"] != "RECALL" or subject is None:
            return response
        seen = self.recalled.setdefault(id(runtime), {})
        says = response.get("says")
        if isinstance(says, dict) and isinstance(says.get("earlier"), int):
            says = {**says, "earlier": says["earlier"] - seen.get(subject, 0)}
            response = {**response, "says": says}
        seen[subject] = seen.get(subject, 0) + 1
        return response


class WholeRecallOnePerText(ProtocolHandler):
    """A RECALL without a subject quotes each text once: a lemma said twice alike is quoted
    once."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        says = response.get("says")
        if response["intent"] != "RECALL" or response["subject"] is not None:
            return response
        if not isinstance(says, dict) or not says.get("said"):
            return response
        kept, texts = [], set()
        for item in says["said"]:
            if item["text"] not in texts:
                texts.add(item["text"])
                kept.append(item)
        return {**response, "says": {**says, "said": kept}}


class PassedOverContentWordsCount(ProtocolHandler):
    """§ Subjects rule 1: a passed-over word that is a content word (`often`, `never`) counts
    as the word before the next one, so `people often love` makes no verb of `love`."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        skipped = grammar.SKIPPED
        with _patched(grammar, "SKIPPED", skipped - {"often", "never", "always", "sometimes"}):
            return super().chat(runtime, text)


def _cues_by(
    order: Callable[[list[Any], str], list[Any]], taken: int = 0
) -> Callable[[str, bool], Any]:
    """§ Cue words read with the rows tried in *order* (rows, clause) instead of the table's,
    and *taken* cues of the row taken out of the slot (0: every one)."""

    def read_cues(clause: str, question: bool) -> Any:
        rows = [row for row in reading.CUES if row[1].search(clause) and (question or not row[2])]
        for intent, cue, _ in order(rows, clause):
            rest = " ".join(w for w in cue.sub(" , ", clause, count=taken).split(" ") if w)
            slot = rest if reading.slot_has_content(rest, refers=True) else "it"
            return reading.Reading(intent, (slot,), cued=True)
        return None

    return read_cues


def _by_position(rows: list[Any], clause: str) -> list[Any]:
    return sorted(rows, key=lambda row: row[1].search(clause).start())


class CueFirstInSentenceDecides(_Patching):
    """§ Cue words: the cue that comes first in the sentence decides, not the first row."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "read_cues", _cues_by(_by_position))]


class FirstCueOnlyTakenOut(_Patching):
    """§ Cue words: only the first cue of the deciding row is taken out of the slot; a second
    cue of the row stays in it as a word."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "read_cues", _cues_by(lambda rows, _: rows, taken=1))]


class CueLastRowDecides(_Patching):
    """§ Cue words: the last row with a cue in the sentence decides, not the first."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(reading, "read_cues", _cues_by(lambda rows, _: rows[::-1]))]


class VerificationCueInStatements(_Patching):
    """§ Cue words: a VERIFICATION cue counts in a statement too."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        plain = _cues_by(lambda rows, _: rows)
        return [(reading, "read_cues", lambda clause, _question: plain(clause, True))]


EDGE_MUTANTS: tuple[tuple[str, type[ProtocolHandler]], ...] = (
    ("edge_mend_drops_first_letter", MendDropsFirstLetter),
    ("edge_mend_drops_last_letter", MendDropsLastLetter),
    ("edge_swap_skips_first_pair", SwapSkipsFirstPair),
    ("edge_swap_skips_last_pair", SwapSkipsLastPair),
    ("edge_first_question_decides", FirstQuestionDecides),
    ("edge_first_request_before_question", FirstRequestBeforeQuestion),
    ("edge_last_request_decides", LastRequestDecides),
    ("edge_cue_question_before_request", CueQuestionBeforeRequest),
    ("edge_referent_after_first", ReferentAfterFirst),
    ("edge_referent_farthest_first", ReferentFarthestFirst),
    ("edge_letter_numbers_as_letters", LetterNumbersAsLetters),
    ("edge_other_numbers_as_letters", OtherNumbersAsLetters),
    ("edge_numeric_letters_separate", NumericLettersSeparate),
    ("edge_marks_join_words", MarksJoinWords),
    ("edge_alphabetic_as_letters", AlphabeticAsLetters),
    ("edge_format_characters_ignored", FormatCharactersIgnored),
    ("edge_white_space_by_isspace", WhiteSpaceByIsspace),
    ("edge_white_space_by_javascript", WhiteSpaceByJavaScript),
    ("edge_simple_lowercase", SimpleLowercase),
    ("edge_latest_subject_cleared", LatestSubjectCleared),
    ("edge_latest_subject_known_only", LatestSubjectKnownOnly),
    ("edge_first_subject_kept", FirstSubjectKept),
    ("edge_recall_not_latest_subject", RecallNotLatestSubject),
    ("edge_comparison_not_latest_subject", ComparisonNotLatestSubject),
    ("edge_recall_counts_recall_turns", RecallCountsRecallTurns),
    ("edge_claim_cleared_by_claimless", ClaimClearedByClaimless),
    ("edge_teaching_before_claim", TeachingBeforeClaim),
    ("edge_unknown_words_first", UnknownWordsFirst),
    ("edge_lead_opens_any_sentence", LeadOpensAnySentence),
    ("edge_claim_from_last_sentence", ClaimFromLastSentence),
    ("edge_apostrophe_kept_in_word", ApostropheKeptInWord),
    ("edge_passed_over_content_words_count", PassedOverContentWordsCount),
    ("edge_cue_first_in_sentence_decides", CueFirstInSentenceDecides),
    ("edge_cue_last_row_decides", CueLastRowDecides),
    ("edge_first_cue_only_taken_out", FirstCueOnlyTakenOut),
    ("edge_verification_cue_in_statements", VerificationCueInStatements),
    ("stry41_clitic_spelt_word_reduced", CliticSpeltWordReduced),
    ("choice43_first_cued_question_decides", FirstCuedQuestionDecides),
    ("choice43_statement_asked_with_cues", StatementAskedWithCues),
    ("choice43_referent_nearest_sentence", ReferentNearestSentence),
    ("choice43_referent_before_only", ReferentBeforeOnly),
)
"""Every broken reader of this module with its name in selftest/engines.py (COG-EDGE-001)."""


def _terms_with_repeats(
    normalized: str, tokens: tuple[str, ...], lexicon: Any = None, context: str | None = None
) -> reading.IntentResult:
    """The subjects slot by slot with a word named in two slots kept twice (repeats removed
    only inside one slot); a prompt with a slot that refers back is read as the docs say."""
    found = reading.classify_intent(normalized, tokens, lexicon, context)
    found_reading = reading.read(normalized, lexicon)
    terms: list[str] = []
    for index, slot in enumerate(found_reading.slots):
        cleaned = reading.clean_slot(slot)
        action = found_reading.action and index == 0
        moves = found_reading.intent is not IntentTag.CAUSE
        words = grammar.slot_terms(cleaned, lexicon, action=action, verbs_move=moves)
        if grammar.subject_pronoun(cleaned, lexicon) or reading.refers_back(cleaned):
            return found
        terms.extend(dict.fromkeys(words))
    return dataclasses.replace(found, terms=tuple(terms)) if terms else found


class RepeatsKeptAcrossSlots(_Patching):
    """A word named in two slots is a subject twice (`says.unknown` names it twice)."""

    def patches(self) -> list[tuple[Any, str, Any]]:
        return [(pipeline, "classify_intent", _terms_with_repeats)]


SAYS_MUTANTS: tuple[tuple[str, type[ProtocolHandler]], ...] = (
    ("edge_earlier_skips_recalls", EarlierSkipsRecalls),
    ("edge_whole_recall_one_per_text", WholeRecallOnePerText),
    ("edge_repeats_kept_across_slots", RepeatsKeptAcrossSlots),
    *((f"stry41_same_word_{rule}_at_bound", _same_word_bound(rule)) for rule, _word in FOLD_AT),
)
"""Broken answers at the edges of turns (COG-EDGE-002)."""
