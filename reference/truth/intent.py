"""Intent classification from the form of a prompt, and subject extraction from its slots.

A prompt is first cleaned (interjections, polite wrappers and trailing punctuation go),
then matched against *frames*: the sentence forms of ``docs/intents.md``. A frame fixes
the question word or verb frame and where its subjects sit (slots ``a`` and ``b``).
A frame applies only when every slot it names holds a content word, so the words of a
frame ("compare", "recall", "example") classify a prompt only in the frame's own
position: in a slot they are ordinary subjects ("What is recall?" is a definition).
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

from reference.lexicon import Lexicon
from reference.truth.text import content_terms, tokenize


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


A = r"(?P<a>.+?)"
B = r"(?P<b>.+?)"
AUX = (
    r"(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|must|may|am"
    r"|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|can't|won't|hasn't|haven't)"
)
USER = r"(?:i|we)"
SPEECH = r"(?:\w+)(?: you| to you| it)?"
LINKED = r"(?:connected|related|linked|tied|joined|bound)"
LINK_NOUN = r"(?:path|link|links|connection|connections|chain|route|relation|relationship|bridge)"
EXAMPLE_NOUN = r"(?:examples?|instances?|illustrations?|samples?)"
FILLER = r"(?:(?:a|an|some|one|the|any|another|more|good|great|real|concrete|simple|typical) )*"
SINCE = r"(?: (?:so far|earlier|before|previously|just now|already|last time|again))?"


_LEAD_WORDS = re.compile(r"\^(?:(?P<word>[a-z']+)|\(\?:(?P<words>[a-z' |]+)\)) ")
"""A source that opens with ``^word `` or ``^(?:w1|w2 x|...) ``: plain words, then a space."""


@dataclass(frozen=True)
class Frame:
    """One sentence form: the intent it signals and its pattern with slots ``a``/``b``."""

    intent: IntentTag
    source: str

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

    def slots(self, clause: str) -> tuple[str, ...] | None:
        """The slot texts when this frame's form covers *clause* and every slot has content."""
        found = self.pattern.search(clause)
        if found is None:
            return None
        slots = tuple(text for text in found.groupdict().values() if text is not None)
        if any(not content_terms(tokenize(_clean_slot(text))) for text in slots):
            return None
        return slots


def _frames(intent: IntentTag, *patterns: str) -> tuple[Frame, ...]:
    return tuple(Frame(intent, p) for p in patterns)


FRAMES: tuple[Frame, ...] = (
    *_frames(
        IntentTag.RECALL,
        rf"^what (?:did|have|had) {USER} (?:just |already |ever )?{SPEECH}"
        rf"(?: (?:about|of|regarding|on|concerning) {A})?{SINCE}$",
        rf"^(?:what|everything|all|anything) {USER} (?:said|told you|mentioned|claimed|asked"
        rf"|wrote|say|stated)(?: (?:about|of|regarding|on) {A})?{SINCE}$",
        rf"^what (?:was|were) {USER} (?:saying|talking about|asking)(?: about)? {A}{SINCE}$",
        rf"^(?:did|have|had) {USER} (?:ever |already |just )?(?:say|said|mention|mentioned|tell"
        rf"|told|talk|talked|ask|asked|bring up|brought up)(?: you| to you)?(?: anything)?"
        rf"(?: about| of| regarding)? {A}{SINCE}$",
        rf"^(?:do|did|can|could|will|would) you (?:still |even )?(?:remember|recall) "
        rf"(?:what|that|when|how|whatever) {USER} {SPEECH} (?:about|of|regarding) {A}{SINCE}$",
        rf"^(?:do|did|can|could|will|would) you (?:still |even )?(?:remember|recall) {A}{SINCE}$",
        rf"^what do you (?:remember|recall) (?:about|of|regarding) {A}$",
        rf"^what (?:did|have) you (?:say|said|tell|told)(?: me| us)? (?:about|of|regarding) {A}$",
        rf"^(?:remember|recall) (?!is |are |was |were ){A}{SINCE}$",
        rf"^remind (?:me|us) (?:about|of) {A}$",
    ),
    *_frames(
        IntentTag.FRAME_TRANSFER,
        rf"^(?:(?:describe|explain|define|present|express|picture|frame|understand|think about"
        rf"|talk about|tell me about|what is|what's|what are) )?{A} in terms of {B}$",
        rf"^(?:think of|imagine|picture|see|view|treat|consider|describe|regard|envision"
        rf"|visualize|visualise|frame|paint|present|cast|explain|reimagine) {A} as "
        rf"(?:if it were |though it were |being )?{B}$",
        rf"^(?:what if|suppose|imagine|pretend)(?: that)? {A} (?:is|are|was|were) {B}$",
        rf"^if {A} (?:was|were|is|are) {B}(?:, .*)?$",
        rf"^{A} (?:is|are|was|were|seems|feels) (?:just |a lot |much |a bit |kind of |sort of )"
        rf"?like {B}$",
        rf"^(?:how|why|in what way|in what ways) (?:is|are) {A} like {B}$",
        rf"^(?:is|are) {A} like {B}$",
        rf"^(?:\w+ )?{A} through the (?:lens|eyes|image) of {B}$",
        rf"^(?:use |give me |draw |make |what is |what's )?(?:an? |the )?(?:analogy|metaphor) "
        rf"(?:between|for|of) {A} (?:and|to|with|from) {B}$",
    ),
    *_frames(
        IntentTag.COMPARISON,
        rf"^(?:compare|contrast|weigh|distinguish|differentiate) {A} (?:and|with|to|against|from"
        rf"|versus|vs) {B}$",
        rf"^(?:compare|contrast) {A}$",
        rf"\bdifferences? (?:between|of) {A} (?:and|from|with|vs|versus) {B}$",
        rf"\b(?:comparison|contrast|distinction|similarities|similarity) (?:of|between) {A} "
        rf"(?:and|with|to|vs|versus) {B}$",
        rf"^how (?:does|do|is|are|did) {A} (?:differ|different|compare|contrast|distinct"
        rf"|stack up)(?: (?:from|with|to|against))? {B}$",
        rf"^how (?:do|does|are|is) {A} and {B} (?:differ|compare|contrast|different)$",
        rf"^(?:in what ways?|how) (?:is|are) {A} (?:different from|unlike|similar to) {B}$",
        rf"^what (?:sets|tells|distinguishes|separates|differentiates) {A} (?:apart )?from {B}$",
        rf"^what makes {A} different from {B}$",
        rf"^(?:is|are) {A} (?:different|distinct) from {B}$",
        rf"^what do {A} and {B} have in common$",
        rf"^which (?:one |of them |of the two )?\w+ [a-z' ]*?, {A} or {B}$",
        rf"^(?:is|are) {A} and {B} (?:the same|alike|similar|different)(?: things?)?$",
        rf"^(?:is|are) {A} the same as {B}$",
        rf"^which (?:is|are) \w+ (?:than the other )?[:,]? ?{A} or {B}$",
        rf"^{A} or {B}[:,] which .*$",
        rf"^{A} (?:versus|vs) {B}$",
        rf"^{A} compared (?:to|with) {B}$",
    ),
    *_frames(
        IntentTag.TRANSITIVE_QUERY,
        rf"^(?:how|in what way) (?:is|are|was|were) {A} {LINKED} (?:to|with) {B}$",
        rf"^(?:how|in what way) (?:is|are|do|does) {A} and {B} (?:{LINKED}|connect|relate|link)$",
        rf"^(?:how|in what way) (?:does|do|did|can|could|would|might|will) {A} (?:connect to"
        rf"|connect with|relate to|link to|link with|lead to|lead into|tie to|turn into|grow into"
        rf"|become|give rise to|develop into|change into|get to) {B}$",
        rf"^how {A} (?:(?:connects|links|relates|leads|is {LINKED}|are {LINKED}) (?:to|with|into)"
        rf"|becomes|turns into|grows into|gives rise to) {B}$",
        rf"^(?:is|are|was|were) {A} {LINKED} (?:to|with) {B}$",
        rf"^(?:is|are) there (?:a |any |some )?{LINK_NOUN} (?:from|between) {A} (?:to|and) {B}$",
        rf"^(?:what|where) (?:is|are) (?:the |a )?{LINK_NOUN} (?:from|between) {A} (?:to|and)"
        rf" {B}$",
        rf"^what's (?:the |a )?{LINK_NOUN} (?:from|between) {A} (?:to|and) {B}$",
        rf"^(?:trace|show|find|give|walk|follow|draw|map|explain|describe)(?: me| us)?"
        rf"(?: through)? (?:the |a )?{LINK_NOUN} (?:from|between) {A} (?:to|and) {B}$",
        rf"^what (?:connects|links|relates|ties|joins|bridges) {A} (?:and|to|with) {B}$",
        rf"^what (?:leads|goes|gets you) from {A} to {B}$",
        rf"^how (?:do|does|can|could) (?:i|we|you|one) (?:get|go|move|travel) from {A} to {B}$",
        rf"^(?:does|do|can|could|will|did) {A} (?:lead|connect|link|relate) (?:to|with|into) {B}$",
        rf"^{A} (?:leads|connects|links|relates) (?:to|with) {B}$",
        rf"^from {A} to {B}$",
    ),
    *_frames(
        IntentTag.PROCEDURE,
        rf"^how (?:do|can|should|would|could|might|must|shall|will|does|did) (?:i|you|we|one"
        rf"|someone|anyone|people|a person|somebody) (?:best |actually |properly |ever )?{A}$",
        rf"\bhow to {A}$",
        rf"^(?:(?:what are|what're|give me|list|show me|tell me|i need|walk me through) )?"
        rf"(?:the )?(?:steps|stages|instructions|procedure|process|method|recipe|directions)"
        rf" (?:to|for|of|in) {A}$",
        rf"^(?:what is|what's|what are) (?:the |a |some )?(?:best |right |proper |good |easiest"
        rf" |usual |simplest )?(?:way|ways|method|methods|means) (?:to|of|for) {A}$",
        rf"^walk (?:me|us) through {A}$",
        rf"^(?:teach|show) (?:me|us) (?:how )?to {A}$",
        rf"^what (?:should|must|can|do) (?:i|we|one) do (?:to|for|about|with) {A}$",
    ),
    *_frames(
        IntentTag.CAUSE,
        rf"^why(?: {A})?$",
        rf"^what (?:causes|caused|makes|made|produces|produced|creates|brings about|drives"
        rf"|triggers|gives rise to|leads to) {A}$",
        rf"^(?:what is|what's|what are|what were|what was) (?:the )?(?:main |real |root "
        rf"|underlying )?(?:cause|causes|reason|reasons|origin|origins|source) (?:of|for|behind)"
        rf" {A}$",
        rf"^(?:the )?(?:cause|causes|reason|reasons|origin) (?:of|for|behind) {A}$",
        rf"^how come {A}$",
        rf"^how (?:is|are|was|were) {A} (?:made|formed|created|born|caused)$",
        rf"^how (?:does|do|did) {A}$",
        rf"^where (?:does|do|did) {A} come from$",
        rf"^what (?:is|are) {A} caused by$",
        rf"^(?:for )?what reason {A}$",
    ),
    *_frames(
        IntentTag.EXAMPLE,
        rf"^(?:give|show|name|list|offer|provide|share|tell|find|cite|suggest)(?: me| us)? "
        rf"{FILLER}{EXAMPLE_NOUN} (?:of|for) {A}$",
        rf"^(?:what|which) (?:is|are|would be|could be|might be) {FILLER}{EXAMPLE_NOUN} of {A}$",
        rf"^what's {FILLER}{EXAMPLE_NOUN} of {A}$",
        rf"^{FILLER}{EXAMPLE_NOUN} (?:of|for) {A}$",
        rf"^(?:is|are) there {FILLER}{EXAMPLE_NOUN} of {A}$",
        rf"^{A},? (?:for example|for instance|such as what|e g)$",
        rf"^(?:for example|for instance),? {A}$",
        rf"^illustrate {A}(?: (?:with|by|using) {FILLER}{EXAMPLE_NOUN})?$",
    ),
    *_frames(
        IntentTag.VERIFICATION,
        rf"^(?:is|isn't) it (?:true|correct|right|so|the case|a fact|accurate|false)"
        rf" (?:that |whether |if )?{A}$",
        rf"^(?:true|right|correct|fact|yes) or (?:false|wrong|not|incorrect|fiction|no)[:,]? {A}$",
        rf"^(?:verify|confirm|check|prove|validate)(?: for me)? (?:that |whether |if )?{A}$",
        rf"^(?:am i right|is it right|would i be right) (?:that|to say that|in thinking that) {A}$",
        rf"^{AUX} {A}$",
        rf"^{A},? (?:right|correct|true|isn't it|aren't they|yes or no)$",
    ),
    *_frames(
        IntentTag.NARRATIVE,
        rf"\btell (?:me|us)(?: (?:a|the|some|one|a little|more|everything|something|anything"
        rf"|all|a bit|a short))?(?: (?:story|stories|tale|tales|bit|more))? (?:about|of|on"
        rf"|regarding) {A}$",
        rf"^(?:describe|depict|portray|characterize|sketch|narrate|recount|discuss|explore"
        rf"|summarize|summarise) {A}$",
        rf"\b(?:talk|speak|chat|write|say something|say a little|say more|say a bit"
        rf"|say a few words)(?: to me| with me| to us)? (?:about|of|on|regarding) {A}$",
        rf"^(?:hear|learn|know|read) (?:more |something |a bit |a little )?(?:about|on) {A}$",
        rf"^what (?:can|could|would|do) you (?:tell|say|share|know)(?: me| us)? (?:about|of"
        rf"|regarding) {A}$",
        rf"^(?:a |the )?(?:story|stories|tale|tales|history) (?:of|about) {A}$",
        rf"^(?:what is|what's|what are) (?:the )?(?:story|stories|tale|history) (?:of|about|behind)"
        rf" {A}$",
        rf"^what (?:is|are|was|were) {A} like$",
        rf"^(?:more|anything|something) (?:about|on) {A}$",
    ),
    *_frames(
        IntentTag.DEFINITION,
        rf"^what (?:does|do|did) {A} (?:mean|stand for|signify|refer to)$",
        rf"^what (?:do|does|did) (?:we|you|they|people|one|i|someone) mean (?:by|with) {A}$",
        rf"^what(?:'s| is) meant by {A}$",
        rf"\b(?:meaning|definition|sense|significance) of {A}$",
        rf"^(?:what|who)(?: is| are| was| were|'s|s)(?: exactly| really| actually)? {A}$",
        rf"^(?:define|explain|clarify|interpret|unpack|elucidate) {A}$",
        rf"^(?:what|who) {A} (?:is|are|means|mean|was|were)$",
        rf"^{A} means what$",
        rf"^(?:what|which) (?:kind|sort|type) of (?:thing |word |concept |being |person )?"
        rf"(?:is|are) {A}$",
    ),
)
"""Every sentence form, most specific first; the first whose form covers a clause wins."""

_LEADS = re.compile(
    r"^(?:(?:hmm+|um+|uh+|oh|ok|okay|so|well|now|hey|hi|hello|alright|and|but|then|also)"
    r"\b[\s,;:.!-]*)+"
)
_WRAPPERS = re.compile(
    r"^(?:please |kindly "
    r"|(?:can|could|would|will) (?:you|u) (?:please )?"
    r"|(?:(?:i|we) (?:need|want|would like|wish|wonder|am wondering|am curious)|i'd like"
    r"|we'd like|i'm wondering|i'm curious)(?: (?:you )?to)? "
    r"|(?:know|understand|see|ask you) (?=what|why|how|who|whether|if|which)"
    r"|(?:tell|show|explain to|teach|remind) (?:me|us) (?=what|why|how|who|whether|if|which)"
    r"|(?:explain|describe) (?=what|why|how|who|whether|if|which)"
    r"|how (?:would|do|can|could|should|might) (?:you|we|one|i) (?=(?:describe|define|explain"
    r"|characterize|summarize|summarise) )"
    r"|(?:do you know|any idea|have you any idea|let me know) )"
)
_TRAILING = re.compile(r"(?:[\s.!?;:,\u2026\"'`]|\bplease\b)+$")
_QUOTES = re.compile(r"[\"`\u201c\u201d]|(?<!\w)'|'(?!\w)")
_CORRECTION_LEAD = re.compile(
    r"^(?:(?:no|nope|nah|wrong|incorrect|not quite|not really|not so|not true|actually"
    r"|correction|in fact)\b"
    r"|(?:that's|that is|this is|it's|it is|you're|you are|you were) (?:wrong|incorrect"
    r"|not right|not correct|mistaken|not true)\b"
    r"|i think you(?:'re| are) (?:wrong|mistaken)\b)[\s,;:.!-]*"
)
_COPULA = re.compile(r"\b(?:is|are|was|were) ")
_SLOT_NOISE = re.compile(
    r"\bthe (?:word|term) (?!and\b|or\b|with\b|to\b|is\b)(?=\w)|\b(?:a |an )?(?:kind|sort|type)"
    r" of\b"
)


@dataclass(frozen=True)
class IntentResult:
    """The classified intent, the subject (if any), other content terms, and a claim."""

    intent: IntentTag
    subject: str | None
    terms: tuple[str, ...]
    claim: str | None


@dataclass(frozen=True)
class Reading:
    """A clause read by form: its intent and the text of each subject slot, in order."""

    intent: IntentTag
    slots: tuple[str, ...]
    claim: str | None = None


def _clean_slot(text: str) -> str:
    return _SLOT_NOISE.sub(" ", text)


def _strip(pattern: re.Pattern[str], text: str) -> str:
    while True:
        found = pattern.match(text)
        if found is None or not found.group(0):
            return text
        text = text[found.end() :]


def prepare(normalized: str) -> str:
    """The clause a prompt's form is read from: no quotes, leads, polite wrappers or tail."""
    clause = _TRAILING.sub("", _QUOTES.sub("", normalized))
    clause = _strip(_LEADS, clause)
    return _TRAILING.sub("", _strip(_WRAPPERS, clause))


def first_word(clause: str) -> str:
    """The clause's text up to its first space."""
    return clause.partition(" ")[0]


@functools.lru_cache(maxsize=1024)
def frames_for(lead: str) -> tuple[Frame, ...]:
    """The frames, in order, that can cover a clause whose first word is *lead*."""
    return tuple(f for f in FRAMES if f.lead_words is None or lead in f.lead_words)


def read_clause(clause: str) -> Reading:
    """The first frame whose form covers *clause*; UNKNOWN over the whole clause otherwise.

    Only the frames that can start with the clause's first word are tried; the others
    cannot cover it, so the first that does is the same.
    """
    for frame in frames_for(first_word(clause)):
        slots = frame.slots(clause)
        if slots is not None:
            return Reading(frame.intent, slots)
    return Reading(IntentTag.UNKNOWN, (clause,) if clause else ())


def _read_correction(rest: str) -> Reading:
    if rest:
        inner = read_clause(prepare(rest))
        if inner.intent is not IntentTag.UNKNOWN:
            return inner
    copula = _COPULA.search(rest)
    if copula is None:
        return Reading(IntentTag.CORRECTION, (rest,) if rest else ())
    claim = rest[copula.end() :].strip()
    return Reading(IntentTag.CORRECTION, (rest[: copula.start()], claim), claim or None)


@functools.lru_cache(maxsize=4096)
def read(normalized: str) -> Reading:
    """Read a normalised prompt: a correction lead first, then the frames.

    A reading depends on the text alone, so the latest 4,096 are kept: a script run
    under several registers, or a prompt a user repeats, is read once.
    """
    clause = prepare(normalized)
    lead = _CORRECTION_LEAD.match(clause)
    if lead is not None:
        return _read_correction(_strip(_CORRECTION_LEAD, clause))
    return read_clause(clause)


def match_intent(normalized: str) -> IntentTag:
    """The intent a normalised prompt's form signals."""
    return read(normalized).intent


def _slot_terms(slot: str, lexicon: Lexicon | None) -> tuple[str, ...]:
    terms = content_terms(tokenize(_clean_slot(slot)))
    if lexicon is None:
        return terms
    known = tuple(t for t in terms if lexicon.lookup(t) is not None)
    return known + tuple(t for t in terms if t not in known)


def classify_intent(
    normalized: str, tokens: tuple[str, ...], lexicon: Lexicon | None = None
) -> IntentResult:
    """Classify a normalised turn; the subject is the first slot's first lexicon term.

    Terms are every slot's content words, slot by slot, known lemmas first within a
    slot; *tokens* are accepted for the pipeline's call shape and read from *normalized*.
    """
    del tokens
    reading = read(normalized)
    terms: dict[str, None] = {}
    for slot in reading.slots:
        for term in _slot_terms(slot, lexicon):
            terms.setdefault(term, None)
    ordered = tuple(terms)
    subject = ordered[0] if ordered else None
    return IntentResult(reading.intent, subject, ordered, reading.claim)
