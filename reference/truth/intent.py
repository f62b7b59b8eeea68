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
import re
from collections.abc import Callable
from dataclasses import dataclass

from reference.lexicon import Lexicon
from reference.truth.grammar import slot_terms, subject_pronoun
from reference.truth.sentences import Sentence, split_sentences
from reference.truth.spelling import reading_text
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
AUX = r"(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|must|may|am)"
USER = r"(?:i|we)"
SPEECH = r"(?:\w+)(?: you| to you| it)?"
LINKED = r"(?:connected|related|linked|tied|joined|bound)"
LINK_NOUN = r"(?:path|link|links|connection|connections|chain|route|relation|relationship|bridge)"
EXAMPLE_NOUN = r"(?:examples?|instances?|illustrations?|samples?)"
FILLER = (
    r"(?:(?:a couple of|a few|a|an|some|one|the|any|another|more|several|two|three|four|five"
    r"|good|great|real|concrete|simple|typical|clear|quick) )*"
)
SINCE = r"(?: (?:so far|earlier|before|previously|just now|already|last time|again))?"
QUANTITY = r"(?:a few|a couple of|a couple|some|several|two|three|four|five|ten|a list of)"
REQUEST_NOUNS = (
    r"(?:meaning|definition|sense|significance|difference|differences|example|examples|cause"
    r"|causes|reason|reasons|origin|origins|source|way|ways|steps|process|link|path|connection)"
)
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
    """

    intent: IntentTag
    source: str
    action: bool = False
    absent: Absent = Absent.NOTHING
    question: bool | None = None
    strict: bool = False
    statement: bool = False
    min_content: int = 1

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

    def slots(self, clause: str) -> tuple[str, ...] | None:
        """The slot texts (``a`` first) when this frame's form covers *clause* and every slot
        has content; a left-out slot ``a`` of a form whose absent slot refers is ``it``."""
        found = self.pattern.search(clause)
        if found is None:
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


def _frames(intent: IntentTag, *patterns: str, **how: object) -> tuple[Frame, ...]:
    return tuple(Frame(intent, p, **how) for p in patterns)  # type: ignore[arg-type]


GREETINGS = (
    r"^(?:how are you(?: doing)?(?: today)?|how is it going|how are things|what is up"
    r"|what is new|good (?:morning|afternoon|evening|night|day)|nice to meet you"
    r"|thank you(?: so much| very much)?|thanks(?: a lot| so much)?|see you(?: later)?|bye"
    r"|goodbye|have a nice day|how do you do|hello there|hi there|hey there|what is your name"
    r"|who are you|what are you|how old are you|where are you from|what can you do"
    r"|are you (?:a robot|human|real|there)|i have a question|can i ask you something"
    r"|can i ask (?:you )?a question|quick question|one more thing|another question)$"
)

FRAMES: tuple[Frame, ...] = (
    Frame(IntentTag.UNKNOWN, GREETINGS),
    *_frames(
        IntentTag.RECALL,
        rf"^what (?:did|have|had) {USER} (?:just |already |ever |really )?{SPEECH}"
        rf"(?: (?:about|of|regarding|on|concerning) {A})?{SINCE}$",
        rf"^(?:what|everything|all|anything) {USER} (?:said|told you|mentioned|claimed|asked"
        rf"|wrote|say|stated|have said|have told you|have mentioned)"
        rf"(?: (?:about|of|regarding|on) {A})?{SINCE}$",
        rf"^what (?:was|were) {USER} (?:saying|talking about|asking)(?:(?: about)? {A})?{SINCE}$",
        rf"^what (?:was|is) (?:it|the thing|the stuff|the bit) (?:that )?{USER} (?:said|told you"
        rf"|mentioned|wrote|say)"
        rf"(?: (?:about|of|regarding) {A})?{SINCE}$",
        rf"^what (?:is|was) the last thing {USER} (?:said|told you|mentioned)"
        rf"(?: (?:about|of) {A})?$",
        rf"^(?:did|have|had) {USER} (?:ever |already |just )?(?:say|said|mention|mentioned|tell"
        rf"|told|talk|talked|ask|asked|bring up|brought up)(?: you| to you)?"
        rf"(?: anything| something)?(?: about| of| regarding)? {A}{SINCE}$",
        rf"^(?:(?:do|did|can|could|will|would) )?you (?:still |even )?(?:remember|recall) "
        rf"(?:what|that|when|how|whatever) {USER} {SPEECH} (?:about|of|regarding) {A}{SINCE}$",
        rf"^(?:(?:do|did|can|could|will|would) )?you (?:still |even )?(?:remember|recall) {A}"
        rf"{SINCE}$",
        rf"^(?:earlier |before |previously )?,? ?{USER} (?:told you|said|mentioned|wrote)"
        rf"(?: something| a thing| things)? (?:about|of|regarding|on) {A}{SINCE}$",
        rf"^what do you (?:remember|recall) (?:about|of|regarding) {A}$",
        rf"^what (?:did|have) you (?:say|said|tell|told)(?: me| us)? (?:about|of|regarding) {A}$",
        rf"^(?:remember|recall) (?:what|everything|anything) {USER} {SPEECH}"
        rf"(?: (?:about|of|regarding) {A})?{SINCE}$",
        rf"^(?:remember|recall) (?!is |are |was |were ){A}{SINCE}$",
        rf"^remind (?:me|us) (?:about|of) {A}$",
        rf"^(?:repeat|recap|summarize|summarise|list|go over|go back to|go back over)"
        rf"(?: to me| for me)? (?:what|everything|all) {USER} (?:have |had )?{SPEECH}"
        rf"(?: (?:about|of|regarding) {A})?{SINCE}$",
        rf"^what (?:was|were|is|are) my (?:question|questions|point|points|comment|comments"
        rf"|claim|claims|words|message|answer|idea) (?:about|on|regarding|concerning) {A}$",
        rf"^what (?:did|have) {USER} (?:say|said|tell you|told you) (?:that )?{A} (?:is|was|are"
        rf"|were|meant|means)$",
    ),
    *_frames(
        IntentTag.FRAME_TRANSFER,
        rf"^(?:(?:describe|explain|define|present|express|picture|frame|understand|think about"
        rf"|talk about|tell me about|what is|what are) )?{A} in terms of {B}$",
        rf"^(?:think of|think about|imagine|picture|see|view|treat|consider|describe|regard"
        rf"|envision|visualize|visualise|frame|paint|present|cast|explain|reimagine|talk about"
        rf"|tell me about|write about) {A} (?:as|like) "
        rf"(?:if it were |though it were |if it was |being )?{B}$",
        rf"^(?:what if|suppose|imagine|pretend|let us say|let us imagine|let us suppose"
        rf"|let us pretend|say|what would happen if)(?: that)? {A} (?:is|are|was|were) {B}$",
        rf"^if {A} (?:was|were|is|are) {B}(?:, .*)?$",
        rf"^what would {A} be (?:like )?if (?:it|they|he|she) (?:was|were) {B}$",
        rf"^(?:compare|liken) {A} (?:to|with) {B},? (?:like|as|in|using|with) (?:a |an )?"
        rf"(?:metaphor|analogy|image)$",
        rf"^{A} (?:is|are|was|were|seems|feels) (?:just |a lot |much |a bit |kind of |sort of )"
        rf"?like {B}$",
        rf"^(?:how|why|in what way|in what ways) (?:is|are) {A} like {B}$",
        rf"^(?:is|are) {A} like {B}$",
        rf"^(?:\w+ )?{A} through the (?:lens|eyes|image|metaphor|idea) of {B}$",
        rf"^(?:\w+ )?{A} in the (?:language|words|voice|style) of {B}$",
        rf"^what (?:kind|sort|type) of {B} would {A} be$",
        rf"^what would {A} look like as (?:an? )?{B}$",
        rf"^liken {A} to {B}$",
        rf"^personify {A}$",
        rf"^use (?:an? )?(?:metaphor|analogy|image|simile) (?:to (?:explain|describe|show)|for"
        rf"|about) {A}$",
        rf"^(?:explain|describe) {A} (?:using|with) {B} as (?:an? )?(?:metaphor|analogy|image)$",
        rf"^(?:use |give me |draw |make |what is |find )?(?:an? |the )?(?:analogy|metaphor) "
        rf"(?:between|for|of) {A} (?:and|to|with|from) {B}$",
        rf"^(?:use |using )?{B} as (?:an? )?(?:metaphor|analogy|image|picture) (?:for|of) {A}$",
        rf"^(?:(?:give|tell|offer|share|make|find|suggest|write|use)(?: me| us)? |what is "
        rf"|what would be |is there )?(?:an? |the |some |good )*(?:analogy|analogies|metaphor"
        rf"|metaphors|simile) (?:for|of|about) {A}$",
    ),
    *_frames(
        IntentTag.COMPARISON,
        rf"^(?:compare and contrast|compare|contrast|weigh|distinguish|differentiate"
        rf"|distinguish between|tell apart) {A} "
        rf"(?:and|with|to|against|from|versus|vs) {B}$",
        rf"^(?:compare|contrast) {A}$",
        rf"\bdifferences? (?:between|of) {A} (?:and|from|with|vs|versus) {B}$",
        rf"\b(?:comparison|contrast|distinction|similarities|similarity|likeness|likenesses)"
        rf" (?:of|between)"
        rf" {A} (?:and|with|to|vs|versus) {B}$",
        rf"^how (?:does|do|is|are|did) {A} (?:differ|different|compare|contrast|distinct"
        rf"|stack up)(?: (?:from|with|to|against|than))? {B}$",
        rf"^how (?:do|does|are|is) {A} and {B} (?:differ|compare|contrast|different|alike|similar"
        rf"|the same|stack up)(?: from each other| from one another)?$",
        rf"^(?:in what ways?|how) (?:is|are) {A} (?:different from|different than|different to"
        rf"|unlike|similar to|alike to) {B}$",
        rf"^how (?:similar|alike|different) (?:is|are) {A} (?:and|to|from|than) {B}$",
        rf"^how {A} (?:differs|differ|is different|are different) from {B}$",
        rf"^what (?:sets|tells|distinguishes|separates|differentiates) {A} (?:apart )?from {B}$",
        rf"^what makes {A} (?:different from|distinct from|unlike|similar to) {B}$",
        rf"^(?:is|are) {A} (?:different|distinct) (?:from|than|to) {B}$",
        rf"^{A} (?:differs?|is different|are different) from {B}(?: in what ways?| how)?$",
        rf"^(?:is|are) {A} (?:similar|comparable|alike) (?:to|with) {B}$",
        rf"^(?:does|do) {A} (?:differ|vary) from {B}$",
        rf"^(?:do|does) {A} and {B} (?:differ|compare)$",
        rf"^what do {A} and {B} (?:have in common|share)$",
        rf"^which (?:one |of them |of the two )?\w+ [a-z' ]*?, {A} or {B}$",
        rf"^(?:is|are) {A} and {B} (?:the same|alike|similar|different|comparable)"
        rf"(?: things?)?$",
        rf"^(?:is|are) {A} (?:not )?the same (?:as|thing as) {B}$",
        rf"^which (?:is|are) \w+ (?:than the other )?[:,]? ?{A} or {B}$",
        rf"^{A} or {B}[:,] which .*$",
        rf"^(?:which|what|who)\b[a-z' ]*?[:,] {A} or {B}$",
        rf"^{A} and {B}[:,]? (?:what is the difference|what are the differences|how do they differ"
        rf"|how are they different|how are they alike|how are they similar"
        rf"|what do they have in common|similar or different|same or different|alike or different"
        rf"|the same or not|how do they compare)(?: between them)?$",
        rf"^(?:i |we )?(?:can not|can never|never|could never|could not|do not know how to)"
        rf" tell {A} (?:from|and(?=.* apart$)) {B}(?: apart)?$",
        rf"^(?:how (?:do|can|could|should|would) (?:i|you|we|one) )?tell {A} "
        rf"(?:from|and(?=.* apart$)) {B}(?: apart)?$",
        rf"^(?:what is |what about )?{A} (?:versus|vs\.?) {B}$",
        rf"^{A} compared (?:to|with) {B}$",
    ),
    *_frames(
        IntentTag.FRAME_TRANSFER,
        r"^(?:explain|describe|unpack|what is|what does) (?:the|this|that) (?:metaphor|analogy"
        r"|image|comparison)(?: mean)?$",
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.COMPARISON,
        r"^(?:(?:are|is) (?:they|these|those|the two|both) (?:the same|alike|similar|different"
        r"|related)(?: things?)?|how (?:do|are) (?:they|the two) (?:differ|compare|different"
        r"|alike)|what is the difference(?: between them)?|which is better"
        r"|(?:explain|describe|unpack|what is) (?:the|this|that) (?:difference|differences))$",
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.TRANSITIVE_QUERY,
        rf"^(?:how|why|in what way) (?:is|are|was|were) {A} {LINKED} (?:to|with) {B}$",
        rf"^(?:how|in what way) (?:is|are|do|does) {A} and {B} (?:{LINKED}|connect|relate|link"
        rf"|fit together|go together|interact)"
        rf"(?: to each other| to one another| together)?$",
        rf"^(?:how|in what way) (?:does|do|did|can|could|would|might|will) {A} (?:connect to"
        rf"|connect with|relate to|link to|link with|lead to|lead into|tie to|tie into|tie in with"
        rf"|feed into|turn into|grow into|become|give rise to|develop into|change into|get to)"
        rf" {B}$",
        rf"^how {A} (?:(?:connects|links|relates|leads|ties|is {LINKED}|are {LINKED}) "
        rf"(?:to|with|into)|becomes|turns into|grows into|gives rise to) {B}$",
        rf"^(?:is|are|was|were) {A} {LINKED} (?:to|with) {B}$",
        rf"^(?:is|are) {A} and {B} {LINKED}(?: to each other| to one another| together| somehow"
        rf"| in any way| at all)?$",
        rf"^(?:is|are) there (?:a |any |some )?{LINK_NOUN} (?:from|between) {A} (?:to|and) {B}$",
        rf"^(?:what|where) (?:is|are) (?:the |a )?{LINK_NOUN} (?:from|between) {A} (?:to|and)"
        rf" {B}$",
        rf"^(?:trace|show|find|give|walk|follow|draw|map|explain|describe)(?: me| us)?"
        rf"(?: through)? (?:the |a )?{LINK_NOUN} (?:from|between) {A} (?:to|and) {B}$",
        rf"^what (?:connects|links|relates|ties|joins|bridges) {A} (?:and|to|with) {B}$",
        rf"^what (?:leads|goes|gets you) from {A} to {B}$",
        rf"^how (?:do|does|can|could) (?:i|we|you|one) (?:get|go|move|travel) from {A} to {B}$",
        rf"^(?:does|do|can|could|will|did) {A} (?:lead|connect|link|relate) (?:to|with|into) {B}$",
        rf"^what (?:does|do|did) {A} have to do with {B}$",
        rf"^what (?:is|has) {A} got to do with {B}$",
        rf"^what (?:turns|changes|makes|transforms) {A} into {B}$",
        rf"^how (?:does|do|did|can|could|might) {A} (?:affect|affects|influence|shape|impact"
        rf"|depend on|feed) {B}$",
        rf"^(?:walk|take|lead) (?:me|us) from {A} to {B}$",
        rf"^how (?:does|do|did|can|could) {A} (?:end up|get|make its way|find its way|go)"
        rf" (?:in|into|to|inside) {B}$",
        rf"^(?:the |a )?{LINK_NOUN} (?:from|between) {A} (?:to|and) {B}$",
        rf"^connect the dots (?:between|from) {A} (?:and|to) {B}$",
        rf"^(?:does|do|did) {A} have (?:anything|something|much|a lot) to do with {B}$",
        rf"^(?:connect|link|relate) {A} (?:to|with|and) {B}$",
        rf"^{A} (?:leads|connects|links|relates) (?:to|with) {B}$",
        rf"^from {A} to {B}$",
    ),
    *_frames(
        IntentTag.PROCEDURE,
        r"^(?:how (?:do|should|can|would|could) (?:i|we|one|you) (?:start|begin|get started)"
        r"|what (?:should|must|can|do) (?:i|we|one) do)$",
        action=True,
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.PROCEDURE,
        rf"^how (?:do|can|should|would|could|might|must|shall|will|does|did) (?:i|you|we|one"
        rf"|someone|anyone|people|a person|somebody) (?:best |actually |properly |ever "
        rf"|go about |get better at |get good at |become better at |improve at |improve )?{A}$",
        rf"\bhow to {A}$",
        rf"^(?:(?:what are|give me|list|show me|tell me|i need|walk me through|what is) )?"
        rf"(?:the )?(?:steps|stages|instructions|procedure|process|method|recipe|directions"
        rf"|guide) (?:to|for|of|in|on) {A}$",
        rf"^(?:what is|what are) (?:the |a |some )?(?:best |right |proper |good |easiest"
        rf" |usual |simplest |quickest )?(?:way|ways|method|methods|means) (?:to|of|for) {A}$",
        rf"^(?:the )?(?:best|right|proper|easiest|simplest|quickest) (?:way|ways) (?:to|of) {A}$",
        rf"^(?:is|are) there (?:a |an |any |some )?(?:good |easy |simple |quick |best |right )?"
        rf"(?:way|ways|method|methods|trick|tricks) (?:to|of|for) {A}$",
        rf"^(?:walk|guide|take|talk) (?:me|us) through (?!the (?:history|story|life|tale) of ){A}$",
        rf"^(?:teach|show) (?:me|us) (?:how )?to {A}$",
        rf"^learn (?:how )?to {A}$",
        rf"^what (?:should|must|can|do) (?:i|we|one) do to {A}$",
        rf"^what steps (?:can|should|do|must|could) (?:i|we|one|you) take (?:to|for) {A}$",
        rf"^what do (?:i|we|you|one) need (?:to do )?to {A}$",
        rf"^what (?:should|do|must|can) (?:i|we|one) do if (?:i|we|one|you) (?:want|wish|need"
        rf"|would like) to {A}$",
        rf"^(?:any |some |give me |i need |what are some |what are your )?(?:tips|advice|tricks"
        rf"|suggestions|pointers|hints|guidance) (?:for|on|about|to) {A}$",
        rf"^help(?: (?:me|us))?(?: (?:with|on|in))? (?:to )?(?!understand |see |know |remember "
        rf"|recall ){A}$",
        action=True,
    ),
    *_frames(
        IntentTag.PROCEDURE,
        rf"^what (?:should|must|can|do) (?:i|we|one) do (?:for|about|with) {A}$",
        rf"^teach (?:me|us) (?!about |something about |how |to ){A}$",
    ),
    *_frames(
        IntentTag.PROCEDURE,
        rf"^where (?:do|should|can|would) (?:i|we|one|you) (?:start|begin)"
        rf"(?: (?:with|on|if i want to|to) {A})?$",
        action=True,
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.CAUSE,
        rf"^why(?: {A})?$",
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.CAUSE,
        rf"^what (?:causes|caused|makes|made|produces|produced|creates|brings about|brings"
        rf"|drives|triggers|gives rise to|leads to|is responsible for) {A}$",
        rf"^(?:what is|what are|what were|what was) (?:the )?(?:main |real |root |underlying "
        rf"|usual )?(?:cause|causes|reason|reasons|origin|origins|source|sources) "
        rf"(?:of|for|behind|why|that) {A}$",
        rf"^(?:the )?(?:cause|causes|reason|reasons|origin|source) (?:of|for|behind|why) {A}$",
        rf"^how come {A}$",
        rf"^how (?:is|are|was|were) {A} (?:made|formed|created|born|caused|produced)$",
        rf"^how (?:does|do|did|would|can|could|will|might) {A}$",
        rf"^where (?:does|do|did) {A} come from$",
        rf"^what (?:is|are) {A} caused by$",
        rf"^what is behind {A}$",
        rf"^what gives {A} (?:its|their|his|her) \w+$",
        rf"^(?:explain|describe|tell me|give me) (?:the )?(?:cause|causes|reason|reasons|origin"
        rf"|origins) (?:of|for|behind) {A}$",
        rf"^(?:for )?what reason {A}$",
    ),
    *_frames(
        IntentTag.EXAMPLE,
        rf"^(?:give|show|name|list|offer|provide|share|tell|find|cite|suggest|think of"
        rf"|come up with)(?: me| us)? {FILLER}{EXAMPLE_NOUN} (?:of|for) {A}$",
        rf"^(?:what|which) (?:is|are|would be|could be|might be) {FILLER}{EXAMPLE_NOUN} of {A}$",
        rf"^{FILLER}{EXAMPLE_NOUN} (?:of|for) {A}$",
        rf"^(?:is|are) there {FILLER}{EXAMPLE_NOUN} of {A}$",
        rf"^{A},? (?:for example|for instance|such as what|e g|like what)$",
        rf"^(?:for example|for instance),? {A}$",
        rf"^illustrate {A}(?: (?:with|by|using) {FILLER}{EXAMPLE_NOUN})?$",
        rf"^(?:name|list|mention|cite)(?: me| us)? (?:{QUANTITY} )?(?!.*\b(?:about|regarding)\b)"
        rf"{A}$",
        rf"^(?:give|show|tell)(?: me| us)? {QUANTITY} (?!.*\b(?:about|regarding|on)\b){A}$",
        rf"^what (?:are|is) (?:some|a few|several|the) (?:kinds|types|sorts|varieties|species"
        rf"|forms) of {A}$",
        rf"^what (?:kinds?|types?|sorts?|varieties) of {A} (?:are there|exist|do you know)$",
        rf"^what are (?:some|a few) {A}$",
        rf"^(?:what|which) {A} (?:are there|exist|can you name|do you know of)$",
    ),
    *_frames(
        IntentTag.EXAMPLE,
        rf"^(?:(?:give|show|tell|offer|provide)(?: me| us)? )?{FILLER}{EXAMPLE_NOUN}(?: {A})?$",
        rf"^(?:such as|like what|for instance|for example)(?: {A})?$",
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.VERIFICATION,
        rf"^(?:is|is not) it (?:true|correct|right|so|the case|a fact|accurate|false|possible"
        rf"|likely) (?:that |whether |if |for )?{A}$",
        rf"^(?:true|right|correct|fact|yes) or (?:false|wrong|not|incorrect|fiction|no)[:,]? {A}$",
        rf"^(?:verify|confirm|check|prove|validate)(?: for me)? (?:that |whether |if )?{A}$",
        rf"^(?:am i right|is it right|would i be right|am i correct|am i wrong) (?:that"
        rf"|to say that|in thinking that|in saying that|to think that) {A}$",
        rf"^whether {A}$",
        rf"^(?:would it be|is it) (?:true|right|fair|correct|accurate) to say (?:that )?{A}$",
        rf"^(?:fact check|fact-check|check|verify|confirm)[:,] {A}$",
        rf"^(?:is|is not) (?:this|it|that) (?:true|right|correct|so)[:,] {A}$",
        rf"^(?:do|would|will) you agree(?: that| with this| with that)?,? {A}$",
    ),
    *_frames(
        IntentTag.VERIFICATION,
        r"^(?:(?:is|is not|was) (?:that|it|this)(?: (?:true|right|correct|so|accurate|a fact"
        r"|false|the case))?|right|correct|true|really|true or false|yes or no|am i right"
        r"|am i correct|is that so)$",
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.VERIFICATION,
        rf"^{AUX} {A}$",
        rf"^{A},? (?:right|correct|true|yes or no|or not|yes|no|am i right|am i correct"
        rf"|is that (?:right|true|correct|so)|(?:is|are|was|were|do|does|did|can|could|will"
        rf"|would|has|have|had|should)(?: not)? (?:it|they|he|she|that|there|we|you)(?: not)?)$",
    ),
    *_frames(
        IntentTag.NARRATIVE,
        rf"\btell (?:me|us)(?: (?:a|the|some|one|a little|more|everything|something|anything"
        rf"|all|a bit|a short|a little bit|a few things))?(?: (?!{REQUEST_NOUNS}\b)\w+)?"
        rf"(?: you know| you can)?(?: (?:story|stories|tale|tales|bit|more|things|facts"
        rf"|history))? (?:about|of|on|regarding) {A}$",
        rf"^(?:describe|depict|portray|characterize|sketch|narrate|recount|discuss|explore"
        rf"|summarize|summarise|present) {A}$",
        rf"\b(?:talk|speak|chat|write|say something|say a little|say more|say a bit"
        rf"|say a few words|share something|share a bit|share a little|share more)"
        rf"(?: (?!{REQUEST_NOUNS}\b)\w+)?(?: to me| with me| to us)? (?:about|of|on|regarding)"
        rf" {A}$",
        rf"^(?:hear|learn|know|read)(?: (?:a|the|some|one|more|something|a bit|a little"
        rf"|everything|all))?(?: (?:short |little |true )?(?:story|stories|tale|tales|bit|more"
        rf"|things))? (?:about|on|of) {A}$",
        rf"^what (?:can|could|would|do) you (?:tell|say|share|know)(?: me| us)? (?:about|of"
        rf"|regarding) {A}$",
        rf"^what you (?:know|can tell me|can say) about {A}$",
        rf"^(?:a |the )?(?:story|stories|tale|tales|history) (?:of|about) {A}$",
        rf"^(?:what is|what are) (?:the )?(?:story|stories|tale|history) (?:of|about|behind)"
        rf" {A}$",
        rf"^(?:give me |write |tell me |share |compose |make up |invent )?(?:an? |the |one )?"
        rf"(?:short |little |quick |brief |small |general )?(?:overview|account|summary"
        rf"|description|portrait|background|story|tale|poem) (?:of|about|on) {A}$",
        rf"^what (?:is|are|was|were) {A} like$",
        rf"^what (?:is|are|was|were) (?:it|life|living|being) like (?:in|for|on|at|inside|as)"
        rf" {A}$",
        rf"^(?:more|anything|something)(?: (?!{REQUEST_NOUNS}\b)\w+)? (?:about|on) {A}$",
        rf"^(?:tell|write|give|share)(?: me| us)? (?:a |an |one |some )?(?:short |little |true "
        rf")?(?:story|stories|tale|tales|poem) (?:involving|featuring|with|starring) {A}$",
        rf"^(?:i am|we are) (?:really |so |very )?(?:curious|interested|fascinated)"
        rf" (?:about|in|by) {A}$",
        rf"^(?:paint|draw|give) (?:me |us )?(?:a )?(?:picture|portrait|sketch|word picture)"
        rf" of {A}$",
        rf"^fill (?:me|us) in (?:on|about) {A}$",
        rf"^(?:teach|show) (?:me|us) (?:something )?about {A}$",
        rf"^(?:walk|take) (?:me|us) through the (?:history|story|life|tale) of {A}$",
        rf"^(?:explain|describe|summarize|summarise|recount) the (?:history|story|life|tale) of"
        rf" {A}$",
        rf"^what is (?:interesting|special|cool|fascinating|unique|important|remarkable|notable"
        rf"|great|amazing|wonderful) about {A}$",
        rf"^(?:give me |tell me |share |list )?(?:some |a few |any )?(?:interesting |fun |cool "
        rf"|basic |key )?(?:facts|information|info|details|trivia|background) (?:about|on"
        rf"|regarding) {A}$",
        rf"^what (?:do|can|could) we (?:know|say|tell) about {A}$",
        rf"^what {A} (?:is|are|was|were) like$",
    ),
    *_frames(
        IntentTag.NARRATIVE,
        r"^(?:tell (?:me|us) more|go on|keep going|say more|and then)$",
        absent=Absent.REFERS,
    ),
    *_frames(
        IntentTag.DEFINITION,
        rf"^what (?:does|do|did) {A} (?:mean|stand for|signify|refer to)$",
        rf"^what (?:do|does|did) (?:we|you|they|people|one|i|someone) mean (?:by|with) {A}$",
        rf"^what is meant by {A}$",
        rf"\b(?:meaning|definition|sense|significance) of {A}$",
        rf"^(?:what|who)(?: exactly| really| actually)? (?:is|are|was|were)(?: exactly| really"
        rf"| actually)? {A}$",
        rf"^(?:what|who) (?:exactly |really )?(?:counts as|is called|do you call) {A}$",
        rf"^(?:define|explain|clarify|interpret|unpack|elucidate) {A}$",
        rf"^(?:what|who) {A} (?:is|are|means|mean|was|were)$",
        rf"^{A} means what$",
        rf"^(?:what|which) (?:kind|sort|type) of (?:thing |word |concept |being |person |animal"
        rf" |creature )?(?:is|are) {A}$",
        rf"^what (?:does|do) {A} do$",
        rf"^{A} (?:meaning|definition)$",
        rf"^(?:i do not|i never|i can not|i still do not) (?:really )?(?:understand|get|know)"
        rf" {A}$",
        rf"^help (?:me|us) (?:to )?understand {A}$",
    ),
    *_frames(
        IntentTag.CORRECTION,
        rf"^{A} (?P<claim>(?:is|are|was|were) (?:not|never) {B})$",
        rf"^{A} (?P<claim>(?:is|are|was|were) {B}, not .+)$",
        rf"^{A} (?P<claim>(?:do|does|did|can|could|will|would|should|has|have|had) (?:not|never)"
        rf" {B})$",
        rf"^you (?:said|told me|claimed|wrote|mentioned|think)(?: that)? {A} (?:is|are|was|were"
        rf"|does|do|can) .+?,? but (?:actually |really |in fact )?(?:it|they|he|she) "
        rf"(?P<claim>(?:is|are|was|were|does|do|can) {B})$",
        question=False,
        strict=True,
        statement=True,
    ),
    Frame(IntentTag.VERIFICATION, rf"^{A} (?:is|are|was|were) {B}$", question=True, strict=True),
)

"""Every sentence form, most specific first; the first whose form covers a clause wins."""

ASKED_STATEMENT = Frame(
    IntentTag.VERIFICATION,
    r"^(?!(?:what|why|how|who|whom|which|where|when|whose)\b)"
    r"(?P<a>[a-z']+(?: (?!and\b|or\b)[a-z']+){2,})$",
    question=True,
    strict=True,
    min_content=2,
)
"""A question no form and no cue covers, of three or more words (none ``and``/``or``) with two
content words, is a statement asked: ``bees make honey?``."""

INTERJECTIONS = (
    "hmm+|um+|uh+|oh|ok|okay|so|well|now|hey|hi|hello|alright|and|but|then|also|cool|great"
    "|nice|wow|sure|yes|yeah|lol|haha+|hehe|sorry|wait|listen|look|please"
)


def _cue(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})\b")


CUES: tuple[tuple[IntentTag, re.Pattern[str], bool], ...] = (
    (
        IntentTag.RECALL,
        _cue(
            r"(?:i|we) (?:have |had |just |already |ever )*(?:said|told you|mentioned|asked"
            r"|say|tell you|mention|wrote|brought up|talked about)|remind (?:me|us)|remember"
            r"|recall"
        ),
        False,
    ),
    (
        IntentTag.FRAME_TRANSFER,
        _cue(
            r"metaphors?|analogy|analogies|similes?|as if|as though|pretend|imagine|in terms of"
            r"|through the eyes of"
        ),
        False,
    ),
    (
        IntentTag.COMPARISON,
        _cue(
            r"differences?|differ|differs|different|similar|similarity|similarities|alike"
            r"|versus|vs|compare|compared|comparing|comparison|contrast|distinguish|distinction"
            r"|the same as|in common|apart"
        ),
        False,
    ),
    (
        IntentTag.TRANSITIVE_QUERY,
        _cue(
            r"connect|connects|connected|connecting|connection|connections|link|links|linked"
            r"|linking|relate|relates|related|relation|relationship|relationships|to do with"
            r"|leads? to|led to|leads? into|path|chain"
        ),
        False,
    ),
    (
        IntentTag.PROCEDURE,
        _cue(
            r"how to|steps?|tips?|advice|instructions?|guide|guidance|ways? to|method|methods"
            r"|process|procedure|recipe|tutorial|techniques?"
        ),
        False,
    ),
    (
        IntentTag.EXAMPLE,
        _cue(r"examples?|instances?|such as|for instance|illustrate|illustration|samples?"),
        False,
    ),
    (
        IntentTag.CAUSE,
        _cue(
            r"why|cause|causes|caused|causing|reasons?|how come|origins?|comes? from|came from"
            r"|because|triggers?|responsible for"
        ),
        False,
    ),
    (
        IntentTag.VERIFICATION,
        _cue(r"true|false|correct|incorrect|right|verify|confirm|fact check|really"),
        True,
    ),
    (
        IntentTag.NARRATIVE,
        _cue(
            r"story|stories|tale|tales|history|describe|description|overview|account|narrate"
            r"|tell me about|talk about|tell me more"
        ),
        False,
    ),
    (
        IntentTag.DEFINITION,
        _cue(r"mean|means|meaning|meant|define|defined|definition|what is|what are|who is"),
        False,
    ),
)
"""Cue words, by intent, in the order they are tried: a clause no form covers is read by
the first row with a cue in it (a VERIFICATION cue only in a question)."""

_LEADS = re.compile(rf"^(?:(?:{INTERJECTIONS})\b[\s,;:.!?-]*)+")
WH = r",? (?=(?:what|why|how|who|whether|if|which|where|when) )"
"""A wrapper that only goes before a question word (a comma may stand between them)."""
_WRAPPERS = re.compile(
    r"^(?:please |kindly "
    r"|(?:can|could|would|will) (?:you|u) (?:please )?(?!say )"
    r"|(?:can|could|would|will) (?:someone|somebody|anyone|anybody) (?:please )?"
    r"|(?:i|we) (?:need|want|would like|would love|wish)(?: (?:you )?to)? "
    r"|(?:i|we) (?:have |had |do not |did not |never |really |always |still |just |often "
    r"|sometimes |am |was |were |have always |have never |have not |can not )*(?:know|knew"
    r"|known|understand|understood|get|got|see|wonder|wondered|wondering|been wondering"
    r"|curious|not sure|unsure|forget|forgot|remember|want to know|would like to know"
    rf"|need to know)(?: about)?{WH}"
    rf"|(?:i have |i had )?no idea{WH}"
    rf"|(?:know|understand|see|ask you|find out|learn){WH}"
    rf"|(?:tell|show|explain to|teach|remind|let) (?:me|us)(?: know)?{WH}"
    rf"|(?:explain|describe|clarify|sum up|summarize|summarise|break down|spell out|define)"
    rf"(?: to (?:me|us))?{WH}"
    rf"|help (?:me|us) (?:to )?understand{WH}"
    r"|how (?:would|do|can|could|should|might) (?:you|we|one|i) (?=(?:describe|define|explain"
    r"|characterize|summarize|summarise) )"
    r"|(?:do you know|any idea|have you any idea|do you have any idea|let me know),? "
    r"|(?:i|we) (?:think|believe|guess|suppose|reckon|bet|feel like|heard|have heard|read"
    r"|was told|were told|am sure|am pretty sure|am fairly sure)(?: that)? (?!of |about |so$)"
    r"|(?:someone|somebody|people|they) (?:told me|tell me|say|said)(?: that)? "
    r"|correct me if i am wrong,? (?:but )?"
    r"|(?:do|did) you think(?: that)? "
    r"|would you say(?: that)? )"
)
_BELIEF = re.compile(
    rf"^(?:(?:{INTERJECTIONS})\b[\s,;:.!?-]*)*(?:(?:i|we) (?:think|believe|guess|suppose|reckon"
    r"|bet|feel like|heard|have heard|read|was told|were told|am sure|am pretty sure"
    r"|am fairly sure)\b(?! of\b| about\b| so\b)|(?:someone|somebody|people|they) (?:told me"
    r"|tell me|say|said)\b|correct me if\b)"
)
"""A sentence that puts a belief forward, which asks whether it holds."""


def puts_belief(sentence: str) -> bool:
    """Whether *sentence* opens (past interjections) with a belief put forward."""
    return _BELIEF.match(sentence) is not None


_TRAILING = re.compile(r"(?:[\s.!?;:,\u2026\"'`]|\bplease\b|\bfor (?:me|us)\b)+$")
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
    r"|(?:let me|i have to|i must|allow me to) correct you\b)[\s,;:.!\u2014\u2013-]*"
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
    statement, the sentence a slot that refers back takes its referent from, and whether
    cue words (not a form) decided it."""

    intent: IntentTag
    slots: tuple[str, ...]
    claim: str | None = None
    action: bool = False
    statement: bool = False
    referent: str | None = None
    cued: bool = False


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
    says of its subject: ``is not a fish``)."""
    claim = None
    if frame.statement:
        found = frame.pattern.search(clause)
        claim = found["claim"] if found is not None else None
    return Reading(frame.intent, slots, claim or None, frame.action, frame.statement)


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
        rest = " ".join(cue.sub(" , ", clause).split())
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
        claim = sentence[copula.start() :].strip()
        return Reading(IntentTag.CORRECTION, (sentence[: copula.start()], claim), claim or None)
    for found in re.finditer(r"[^\W\d_]+(?:'[^\W\d_]+)?", sentence):
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
    several registers, or a prompt a user repeats, is read once.
    """

    def __init__(self, known: Callable[[str], bool]) -> None:
        self.known = known
        self.read = functools.lru_cache(maxsize=4096)(self._read)

    def _read(self, normalized: str) -> Reading:
        return read_text(reading_text(normalized, self.known))


_READERS: dict[int, tuple[Lexicon | None, Reader]] = {}


def reader_for(lexicon: Lexicon | None) -> Reader:
    """The reader of *lexicon*, built once per lexicon object (None: a lexicon of no words)."""
    kept = _READERS.get(id(lexicon))
    if kept is None or kept[0] is not lexicon:
        known = (lambda word: lexicon.lookup(word) is not None) if lexicon else (lambda _: False)
        kept = _READERS[id(lexicon)] = (lexicon, Reader(known))
    return kept[1]


def read(normalized: str, lexicon: Lexicon | None = None) -> Reading:
    """Read a normalised prompt (see :class:`Reader`)."""
    return reader_for(lexicon).read(normalized)


def match_intent(normalized: str, lexicon: Lexicon | None = None) -> IntentTag:
    """The intent a normalised prompt's form signals."""
    return read(normalized, lexicon).intent


def _referent_terms(
    reading: Reading, lexicon: Lexicon | None, context: str | None
) -> tuple[str, ...]:
    if reading.referent is not None:
        return slot_terms(clean_slot(reading.referent), lexicon, action=reading.action)
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
        if not words or subject_pronoun(cleaned, lexicon):
            for term in _referent_terms(reading, lexicon, context):
                terms.setdefault(term, None)
        for term in words:
            terms.setdefault(term, None)
    ordered = tuple(terms)
    subject = ordered[0] if ordered else None
    checked = None
    if reading.intent is IntentTag.VERIFICATION:
        checked = " ".join(s for s in (reading.referent, *reading.slots) if s)
    return IntentResult(reading.intent, subject, ordered, reading.claim, checked)
