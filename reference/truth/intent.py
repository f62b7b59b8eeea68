"""Intent classification from the form of a prompt, and subject extraction from its slots.

A prompt is read as docs/intents.md § How a prompt is read says: its words (contractions
spelled out, misspelt form words mended), cleaned (quotes, interjections, polite wrappers
and trailing punctuation go), a correction lead, then its sentences, each matched against
*frames*: the sentence forms of the table of forms. A frame fixes the question word or
verb frame and where its subjects sit (slots ``a`` and ``b``). A frame applies only when
every slot it names holds a content word (or, where the form allows it, a word that
refers back), so the words of a frame ("compare", "recall", "example") classify a prompt
only in the frame's own position: in a slot they are ordinary subjects.
"""

from __future__ import annotations

import enum
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reference.lexicon import Lexicon
from reference.truth.grammar import slot_terms, subject_pronoun
from reference.truth.sentences import Sentence, split_sentences
from reference.truth.spelling import mend_stem, reading_text
from reference.truth.text import content_terms, tokenize, word_matches


class IntentTag(enum.Enum):
    """What a turn asks for."""

    DEFINITION = "definition"
    CAUSE = "cause"
    PROCEDURE = "procedure"
    COMPARISON = "comparison"
    CORRECTION = "correction"
    RECALL = "recall"
    VERIFICATION = "verification"
    TRANSITIVE_QUERY = "transitive_query"
    FRAME_TRANSFER = "frame_transfer"
    NARRATIVE = "narrative"
    EXAMPLE = "example"
    UNKNOWN = "unknown"


REFERRING = frozenset("it they them he she him her this that these those".split())
"""Words that refer back: a slot holding only these (and function words) takes a referent."""


class Absent(enum.Enum):
    """What a form's optional slot ``a`` means when the prompt leaves it out."""

    NOTHING = "nothing"
    REFERS = "refers"


_LEAD_WORDS = re.compile(r"\^(?:(?P<word>[a-z']+)|\(\?:(?P<words>[a-z' |]+)\)) ")
"""A source that opens with ``^word `` or ``^(?:w1|w2 x|...) ``: plain words, then a space."""


def slot_has_content(text: str, *, refers: bool) -> bool:
    """Whether a slot holds a content word, or (when *refers*) a word that refers back."""
    tokens = tokenize(text)
    if content_terms(tokens):
        return True
    return refers and any(token in REFERRING for token in tokens)


@dataclass(frozen=True)
class Frame:
    """One sentence form: the intent it signals, its pattern with slots ``a``/``b``, and how
    its slots are read.

    ``action``: slot ``a`` opens with the verb of the request (``how do I grow a garden``).
    ``absent``: what a left-out optional slot ``a`` means. ``question``: the form applies
    only to a question sentence (True) or only to one that is not (False). ``strict``: a
    slot must hold a content word (a word that refers back does not do).
    ``statement``: the form is a plain statement, which a request in another sentence beats.
    ``whole``: a VERIFICATION form that splits a statement into slots; its checked statement
    is the whole sentence it covers. ``tag``: the form's pattern ends in the tags of a
    VERIFICATION (:func:`without_tag`). ``min_words``, ``not_words``, ``not_first``: the
    clause's words (:func:`tokenize`) are at least this many, none of these, the first not
    one of these.
    """

    intent: IntentTag
    source: str
    action: bool = False
    absent: Absent = Absent.NOTHING
    question: bool | None = None
    strict: bool = False
    statement: bool = False
    min_content: int = 1
    whole: bool = False
    tag: bool = False
    min_words: int = 0
    not_words: frozenset[str] = frozenset()
    not_first: frozenset[str] = frozenset()

    @functools.cached_property
    def lead_words(self) -> frozenset[str] | None:
        """The first words of every clause this form can cover, when the source shows them
        plainly (see :data:`_LEAD_WORDS`); None when any first word might do."""
        found = _LEAD_WORDS.match(self.source)
        if found is None:
            return None
        alternatives = [found["word"]] if found["word"] else found["words"].split("|")
        return frozenset(alternative.split(" ")[0] for alternative in alternatives)

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern, compiled when first matched (a server that never reads a
        prompt never compiles the frames)."""
        return re.compile(self.source)

    def applies_to(self, question: bool) -> bool:
        """Whether the form may read a sentence that is (or is not) a question."""
        return self.question is None or self.question is question

    def words_fit(self, clause: str) -> bool:
        """Whether the words of *clause* (runs of letters, § Subjects) are at least
        ``min_words``, none in ``not_words``, the first not in ``not_first``."""
        if not (self.min_words or self.not_words or self.not_first):
            return True
        words = tokenize(clause)
        if len(words) < self.min_words or not self.not_words.isdisjoint(words):
            return False
        return not words or words[0] not in self.not_first

    def slots(self, clause: str) -> tuple[str, ...] | None:
        """The slot texts (``a`` first) when this frame's form covers *clause* and every slot
        has content; a left-out slot ``a`` of a form whose absent slot refers is ``it``."""
        found = self.pattern.search(clause)
        if found is None or not self.words_fit(clause):
            return None
        named = found.groupdict()
        slots = tuple(named[name] for name in ("a", "b") if named.get(name) is not None)
        if named.get("a") is None and self.absent is Absent.REFERS:
            slots = ("it", *slots)
        refers = not self.strict
        if any(not slot_has_content(clean_slot(text), refers=refers) for text in slots):
            return None
        if self.min_content > 1:
            words = [w for text in slots for w in content_terms(tokenize(clean_slot(text)))]
            if len(words) < self.min_content:
                return None
        return slots


FORMS_PATH = Path(__file__).with_name("data") / "forms.json"
"""The exact forms of docs/intents.md (shared with ports as data)."""


def frame_from(raw: dict[str, Any]) -> Frame:
    """The frame of one entry of forms.json."""
    question = raw.get("question")
    return Frame(
        IntentTag[raw["intent"]],
        raw["pattern"],
        action=bool(raw.get("action", False)),
        absent=Absent.REFERS if raw.get("refers") else Absent.NOTHING,
        question=None if question is None else bool(question),
        strict=bool(raw.get("strict", False)),
        statement=bool(raw.get("statement", False)),
        min_content=int(raw.get("min_content", 1)),
        whole=bool(raw.get("whole", False)),
        tag=bool(raw.get("tag", False)),
        min_words=int(raw.get("min_words", 0)),
        not_words=frozenset(raw.get("not_words", ())),
        not_first=frozenset(raw.get("not_first", ())),
    )


_FORMS: dict[str, Any] = json.loads(FORMS_PATH.read_text(encoding="utf-8"))

FRAMES: tuple[Frame, ...] = tuple(frame_from(raw) for raw in _FORMS["forms"])
"""Every sentence form, most specific first; the first whose form covers a clause wins."""

TAGGED = frame_from(next(raw for raw in _FORMS["forms"] if raw.get("tag")))
"""The form that ends in the tags of a VERIFICATION (``right``, ``or not``, ``is it not``):
its slot ``a`` is a statement without its tag."""

ASKED_STATEMENT = frame_from(_FORMS["asked_statement"])
"""A question no form and no cue covers, of three or more words (none ``and``/``or``) with two
content words, is a statement asked: ``bees make honey?``."""

CUES: tuple[tuple[IntentTag, re.Pattern[str], bool], ...] = tuple(
    (IntentTag[raw["intent"]], re.compile(raw["pattern"]), bool(raw.get("question", False)))
    for raw in _FORMS["cues"]
)
"""Cue words, by intent, in the order they are tried: a clause no form covers is read by
the first row with a cue in it (a VERIFICATION cue only in a question)."""

INTERJECTIONS = (
    "hmm+|um+|uh+|oh|ok|okay|so|well|now|hey|hi|hello|alright|and|but|then|also|cool|great"
    "|nice|wow|sure|yes|yeah|lol|haha+|hehe|sorry|wait|listen|look|please"
)


_LEADS = re.compile(rf"^(?:(?:{INTERJECTIONS})\b[ ,;:.!?-]*)+")
WH = r",? (?=(?:what|why|how|who|whether|if|which|where|when) )"
"""A wrapper that only goes before a question word (a comma may stand between them)."""
_WRAPPERS = re.compile(
    r"^(?:please |kindly "
    r"|(?:can|could|would|will) (?:you|u) (?:please )?(?!say )"
    r"|(?:can|could|would|will) (?:someone|somebody|anyone|anybody) (?:please )?"
    r"|(?:i|we) (?:need|want|would like|would love|wish)(?: (?:you )?to)? "
    r"|(?:i|we) (?:have |had |do not |did not |never |really |always |still |just |often "
    r"|sometimes |am |was |were |can not )*(?:know"
    r"|understand|get|see|wonder|wondered|wondering|been wondering"
    r"|curious|not sure|unsure|forget|forgot|remember|want to know|would like to know"
    rf"|need to know)(?: about)?{WH}"
    rf"|(?:i have )?no idea{WH}"
    rf"|(?:know|understand|see|ask you|find out|learn){WH}"
    rf"|(?:tell|show|explain to|teach|remind|let) (?:me|us)(?: know)?{WH}"
    rf"|(?:explain|describe|clarify|sum up|summarize|break down|spell out|define)"
    rf"(?: to me)?{WH}"
    rf"|help me understand{WH}"
    r"|how (?:would|do|can|could|should|might) (?:you|we|one|i) (?=(?:describe|define|explain"
    r"|characterize|summarize) )"
    r"|(?:do you know|any idea|have you any idea|do you have any idea|let me know),? "
    r"|(?:i|we) (?:think|believe|guess|suppose|reckon|bet|feel like|heard|have heard|read"
    r"|was told|were told|am sure|am pretty sure|am fairly sure)(?: that)? (?!of |about |so$)"
    r"|(?:someone|somebody|people|they) (?:told me|tell me|say|said)(?: that)? "
    r"|correct me if i am wrong,? (?:but )?"
    r"|(?:do|did) you think(?: that)? "
    r"|would you say(?: that)? )"
)
_BELIEF = re.compile(
    rf"^(?:(?:{INTERJECTIONS})\b[ ,;:.!?-]*)*(?:(?:i|we) (?:think|believe|guess|suppose|reckon"
    r"|bet|feel like|heard|have heard|read|was told|were told|am sure|am pretty sure"
    r"|am fairly sure)\b(?! of\b| about\b| so\b)|(?:someone|somebody|people|they) (?:told me"
    r"|tell me|say|said)\b|correct me if\b)"
)
"""A sentence that puts a belief forward, which asks whether it holds."""


def puts_belief(sentence: str) -> bool:
    """Whether *sentence* opens (past interjections) with a belief put forward."""
    return _BELIEF.match(sentence) is not None


_TRAILING = re.compile(r"(?:[ .!?;:,\u2026\u2014\u2013\"'`-]|\bplease\b|\bfor (?:me|us)\b)+$")
_QUOTES = re.compile(r"[\"`\u201c\u201d]|(?<!\w)'|'(?!\w)")
_CORRECTION_LEAD = re.compile(
    r"^(?:(?:no way|no|nope|nah|wrong|incorrect|not quite|not really|not so|not true"
    r"|not exactly|false|untrue|actually|correction|in fact|i disagree|i beg to differ"
    r"|nonsense|rubbish)\b"
    r"|(?:that|this|it|you|that answer) (?:is|are|was|were) (?:wrong|incorrect|not right"
    r"|not correct|mistaken|not true|false|not it|a myth|not so|nonsense)\b"
    r"|(?:you|i think you) (?:have )?(?:got|have|had|are getting) (?:it|that|this) (?:all )?"
    r"(?:wrong|backwards|mixed up)\b"
    r"|i think you (?:are|were) (?:wrong|mistaken)\b"
    r"|i do not think (?:so|that is (?:right|true|correct)|you are right)\b|i do not agree\b"
    r"|(?:let me|i have to|i must|allow me to) correct you\b)[ ,;:.!\u2014\u2013-]*"
)
_COPULA = re.compile(r"\b(?:is|are|was|were) ")
_REFERRING_PHRASE = re.compile(r"\b(?:that|this|the) (?:word|term|thing|one)$")
"""``that word`` at a slot's end refers back, like ``it``."""
_SLOT_NOISE = re.compile(
    r"\bthe (?:word|term) (?!and\b|or\b|with\b|to\b|is\b)(?=\w)|\b(?:a |an )?(?:kind|sort|type)"
    r" of\b"
)


@dataclass(frozen=True)
class IntentResult:
    """The classified intent, the subject (if any), other content terms, a correction's claim,
    and the statement a VERIFICATION checks."""

    intent: IntentTag
    subject: str | None
    terms: tuple[str, ...]
    claim: str | None
    checked: str | None = None


@dataclass(frozen=True)
class Reading:
    """A prompt read by form: its intent, the text of each subject slot in order, a
    correction's claim, whether slot ``a`` opens with its verb, whether it is a plain
    statement, the sentence a slot that refers back takes its referent from, whether
    cue words (not a form) decided it, and the whole sentence a form that splits a statement
    into slots puts forward (its checked statement)."""

    intent: IntentTag
    slots: tuple[str, ...]
    claim: str | None = None
    action: bool = False
    statement: bool = False
    referent: str | None = None
    cued: bool = False
    whole: str | None = None


def clean_slot(text: str) -> str:
    """A slot's text without ``the word``, ``the term`` and ``a kind of`` (they name what
    follows)."""
    return _SLOT_NOISE.sub(" ", _REFERRING_PHRASE.sub("it", text))


def _strip(pattern: re.Pattern[str], text: str) -> str:
    while True:
        found = pattern.match(text)
        if found is None or not found.group(0):
            return text
        text = text[found.end() :]


def unwrap(clause: str) -> str:
    """*clause* without leading interjections and polite wrappers, in turn, until neither
    is left; a wrapper before ``if`` makes it ``whether`` (``tell me if A``)."""
    while True:
        stripped = _strip(_LEADS, clause)
        unwrapped = _strip(_WRAPPERS, stripped)
        if unwrapped != stripped and unwrapped.startswith("if "):
            unwrapped = "whether " + unwrapped[3:]
        if unwrapped == clause:
            return clause
        clause = unwrapped


def prepare(text: str) -> str:
    """The clause a sentence's form is read from: no quotes, leads, polite wrappers or tail."""
    clause = _TRAILING.sub("", _QUOTES.sub("", text))
    return _TRAILING.sub("", unwrap(clause))


def first_word(clause: str) -> str:
    """The clause's text up to its first space."""
    return clause.partition(" ")[0]


@functools.lru_cache(maxsize=1024)
def frames_for(lead: str) -> tuple[Frame, ...]:
    """The frames, in order, that can cover a clause whose first word is *lead*."""
    return tuple(f for f in FRAMES if f.lead_words is None or lead in f.lead_words)


def reading_of(frame: Frame, slots: tuple[str, ...], clause: str) -> Reading:
    """The reading a frame gives: a plain statement's claim is its ``claim`` group (what it
    says of its subject: ``is not a fish``); a form that splits a statement into slots keeps
    the whole sentence it covers."""
    claim = None
    if frame.statement:
        found = frame.pattern.search(clause)
        claim = found["claim"] if found is not None else None
    whole = clause if frame.whole else None
    return Reading(frame.intent, slots, claim or None, frame.action, frame.statement, whole=whole)


def read_forms(clause: str, question: bool = False) -> Reading | None:
    """The reading of the first frame whose form covers *clause*, or None.

    Only the frames that can start with the clause's first word are tried; the others
    cannot cover it, so the first that does is the same.
    """
    for frame in frames_for(first_word(clause)):
        if not frame.applies_to(question):
            continue
        slots = frame.slots(clause)
        if slots is not None:
            return reading_of(frame, slots, clause)
    return None


def read_cues(clause: str, question: bool) -> Reading | None:
    """The reading by cue words of a clause no form covers: the first row of :data:`CUES`
    with a cue in the clause decides; the clause without its cues is the one slot (a slot
    with no content word refers back)."""
    for intent, cue, only_questions in CUES:
        if only_questions and not question:
            continue
        if cue.search(clause) is None:
            continue
        rest = " ".join(w for w in cue.sub(" , ", clause).split(" ") if w)
        slot = rest if slot_has_content(rest, refers=True) else "it"
        return Reading(intent, (slot,), cued=True)
    return None


def read_clause(clause: str, question: bool = False) -> Reading:
    """The reading of one sentence's clause: by its form, else by its cue words, else (a
    question) as a statement asked, else UNKNOWN over the whole clause."""
    reading = read_forms(clause, question) or read_cues(clause, question)
    if reading is not None:
        return reading
    if question:
        slots = ASKED_STATEMENT.slots(clause)
        if slots is not None:
            return reading_of(ASKED_STATEMENT, slots, clause)
    return Reading(IntentTag.UNKNOWN, (clause,) if clause else ())


def _claim_split(sentence: str) -> Reading:
    """A correction's subject and claim in *sentence*: the claim from its first copula on,
    else what follows its first content word."""
    copula = _COPULA.search(sentence)
    if copula is not None:
        claim = sentence[copula.start() :].strip(" ")
        return Reading(IntentTag.CORRECTION, (sentence[: copula.start()], claim), claim or None)
    for found in word_matches(sentence):
        if content_terms((found.group(0),)):
            claim = sentence[found.end() :].strip(" ,;:")
            return Reading(IntentTag.CORRECTION, (sentence[: found.end()], claim), claim or None)
    return Reading(IntentTag.CORRECTION, (sentence,) if sentence else ())


def _is_request(reading: Reading) -> bool:
    """A form (not a plain statement, not cue words) read the sentence as a request."""
    return reading.intent is not IntentTag.UNKNOWN and not reading.statement and not reading.cued


def _read_correction(rest: str) -> Reading:
    if not rest:
        return Reading(IntentTag.CORRECTION, ())
    inner = read_sentences(rest)
    if _is_request(inner) or (inner.intent is IntentTag.CORRECTION and not inner.cued):
        return inner
    sentences = [s.clause for s in split_sentences(rest, prepare, puts_belief)]
    stated = next((s for s in sentences if content_terms(tokenize(s))), "")
    return _claim_split(stated)


def _pick(readings: list[tuple[Sentence, Reading]]) -> int:
    """The index of the sentence that decides: the last question a form reads as a request,
    else the first request, else the last question read otherwise (cue words, a statement),
    else the first sentence read as anything, else the first."""
    backwards = list(range(len(readings) - 1, -1, -1))
    for index in backwards:
        sentence, reading = readings[index]
        if sentence.question and _is_request(reading):
            return index
    for index, (_, reading) in enumerate(readings):
        if _is_request(reading):
            return index
    for index in backwards:
        sentence, reading = readings[index]
        if sentence.question and reading.intent is not IntentTag.UNKNOWN:
            return index
    for index, (_, reading) in enumerate(readings):
        if reading.intent is not IntentTag.UNKNOWN:
            return index
    return 0


def _referent(sentences: list[Sentence], chosen: int) -> str | None:
    """The nearest other sentence with a content word, those before *chosen* first."""
    order = list(range(chosen - 1, -1, -1)) + list(range(chosen + 1, len(sentences)))
    for index in order:
        if content_terms(tokenize(sentences[index].clause)):
            return sentences[index].clause
    return None


def _refers_only(reading: Reading) -> bool:
    """Whether no slot of *reading* holds a content word (each only refers back)."""
    return all(not content_terms(tokenize(clean_slot(slot))) for slot in reading.slots)


def read_sentences(text: str) -> Reading:
    """Read *text* sentence by sentence; the sentence :func:`_pick` chooses decides, and a
    slot of it that refers back takes the nearest other sentence as its referent."""
    sentences = split_sentences(text, prepare, puts_belief)
    if not sentences:
        return Reading(IntentTag.UNKNOWN, ())
    readings = [(s, read_clause(s.clause, s.question)) for s in sentences]
    chosen = _pick(readings)
    reading = readings[chosen][1]
    if len(sentences) == 1:
        return reading
    if reading.intent is IntentTag.UNKNOWN:
        slots = tuple(s.clause for s in sentences if s.clause)
        return Reading(IntentTag.UNKNOWN, slots)
    referent = _referent(sentences, chosen)
    if referent is not None and _refers_only(reading):
        deferred = next(r for s, r in readings if s.clause == referent)
        if _is_request(deferred) or deferred.cued:
            return deferred
    return Reading(
        reading.intent,
        reading.slots,
        reading.claim,
        reading.action,
        reading.statement,
        referent,
        reading.cued,
        reading.whole,
    )


def read_text(text: str) -> Reading:
    """Read the reading text of a prompt: a correction lead first (past interjections and
    wrappers), then its sentences."""
    text = _QUOTES.sub("", text)
    clause = unwrap(text)
    lead = _CORRECTION_LEAD.match(clause)
    if lead is not None:
        return _read_correction(_TRAILING.sub("", _strip(_CORRECTION_LEAD, clause)))
    return read_sentences(text)


class Reader:
    """Reads prompts against one lexicon (which words it holds decides what is misspelt).

    A reading depends on the text alone, so the latest 4,096 are kept: a script run under
    several registers, or a prompt a user repeats, is read once. A word's mending depends
    on the word alone, so the latest 4,096 mended words are kept too: the words of the
    forms (``tell``, ``define``) recur in prompt after prompt, and each is tried against
    every form word once.
    """

    def __init__(self, known: Callable[[str], bool]) -> None:
        self.known = known
        self.read = functools.lru_cache(maxsize=4096)(self._read)
        self.mended = functools.lru_cache(maxsize=4096)(self._mended)

    def _mended(self, word: str) -> str:
        return mend_stem(word, self.known)

    def _read(self, normalized: str) -> Reading:
        return read_text(reading_text(normalized, self.mended))


_READERS: dict[int, tuple[Lexicon | None, Reader]] = {}


def reader_for(lexicon: Lexicon | None) -> Reader:
    """The reader of *lexicon*, built once per lexicon object (None: a lexicon of no words)."""
    kept = _READERS.get(id(lexicon))
    if kept is None or kept[0] is not lexicon:
        known = (lambda word: lexicon.lookup(word) is not None) if lexicon else (lambda _: False)
        kept = _READERS[id(lexicon)] = (lexicon, Reader(known))
    return kept[1]


def forget_readings() -> None:
    """Drop every kept reading and frame choice (after :data:`FRAMES` or :data:`CUES` changed)."""
    frames_for.cache_clear()
    _READERS.clear()


def read(normalized: str, lexicon: Lexicon | None = None) -> Reading:
    """Read a normalised prompt (see :class:`Reader`)."""
    return reader_for(lexicon).read(normalized)


def match_intent(normalized: str, lexicon: Lexicon | None = None) -> IntentTag:
    """The intent a normalised prompt's form signals."""
    return read(normalized, lexicon).intent


def refers_back(slot: str) -> bool:
    """Whether a slot without content words holds a word that refers back."""
    return any(token in REFERRING for token in tokenize(slot))


def _referent_terms(
    reading: Reading, lexicon: Lexicon | None, context: str | None
) -> tuple[str, ...]:
    if reading.referent is not None:
        moves = reading.intent is not IntentTag.CAUSE
        referent = clean_slot(reading.referent)
        return slot_terms(referent, lexicon, action=reading.action, verbs_move=moves)
    return (context,) if context else ()


def classify_intent(
    normalized: str,
    tokens: tuple[str, ...],
    lexicon: Lexicon | None = None,
    context: str | None = None,
) -> IntentResult:
    """Classify a normalised turn; the subject is the first of its terms.

    Terms are every slot's content words, slot by slot (docs/intents.md § Subjects): a
    slot that refers back takes its referent (another sentence of the prompt, else
    *context*, the session's latest subject) in its place. *tokens* are accepted for the
    pipeline's call shape and read from *normalized*.
    """
    del tokens
    reading = read(normalized, lexicon)
    terms: dict[str, None] = {}
    for index, slot in enumerate(reading.slots):
        cleaned = clean_slot(slot)
        action = reading.action and index == 0
        moves = reading.intent is not IntentTag.CAUSE
        words = slot_terms(cleaned, lexicon, action=action, verbs_move=moves)
        if subject_pronoun(cleaned, lexicon) or (not words and refers_back(cleaned)):
            for term in _referent_terms(reading, lexicon, context):
                terms.setdefault(term, None)
        for term in words:
            terms.setdefault(term, None)
    ordered = tuple(terms)
    subject = ordered[0] if ordered else None
    return IntentResult(reading.intent, subject, ordered, reading.claim, _checked(reading))


def without_tag(statement: str) -> str:
    """*statement* without a VERIFICATION tag at its end (``the sun a star or not``: ``the
    sun a star``): a tag is never part of a checked statement."""
    found = TAGGED.pattern.search(statement)
    return found["a"] if found is not None else statement


def stated(reading: Reading) -> str:
    """The statement a VERIFICATION puts forward, before cleaning: the whole sentence of a
    form that splits a statement into slots, else its slot A."""
    return reading.whole if reading.whole is not None else reading.slots[0]


def _checked(reading: Reading) -> str | None:
    """A VERIFICATION's checked statement (docs/intents.md § Answers): the statement it puts
    forward (:func:`stated`), cleaned, or the sentence it refers to when that only refers
    back; without a tag."""
    if reading.intent is not IntentTag.VERIFICATION or not reading.slots:
        return None
    first = clean_slot(stated(reading))
    if not content_terms(tokenize(first)) and reading.referent is not None:
        first = clean_slot(reading.referent)
    return without_tag(" ".join(w for w in first.split(" ") if w))
