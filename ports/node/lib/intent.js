'use strict';
// Reading a prompt by its form (docs/intents.md): clean it, unwrap polite wrappers, then
// match the table of forms in order; a form applies only when each of its slots holds a
// content word. The subjects are the slots' content words, known lemmas first per slot.

const { contentTerms, tokenize } = require('./text');

const A = '(?<a>.+?)';
const B = '(?<b>.+?)';
const AUX =
  "(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|must|may|am" +
  "|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|can't|won't|hasn't|haven't)";
const USER = '(?:i|we)';
const SPEECH = '(?:\\w+)(?: you| to you| it)?';
const LINKED = '(?:connected|related|linked|tied|joined|bound)';
const LINK_NOUN = '(?:path|link|links|connection|connections|chain|route|relation|relationship|bridge)';
const EXAMPLE_NOUN = '(?:examples?|instances?|illustrations?|samples?)';
const FILLER = '(?:(?:a|an|some|one|the|any|another|more|good|great|real|concrete|simple|typical) )*';
const SINCE = '(?: (?:so far|earlier|before|previously|just now|already|last time|again))?';

const FORMS = [
  [
    'RECALL',
    `^what (?:did|have|had) ${USER} (?:just |already |ever )?${SPEECH}(?: (?:about|of|regarding|on|concerning) ${A})?${SINCE}$`,
    `^(?:what|everything|all|anything) ${USER} (?:said|told you|mentioned|claimed|asked|wrote|say|stated)(?: (?:about|of|regarding|on) ${A})?${SINCE}$`,
    `^what (?:was|were) ${USER} (?:saying|talking about|asking)(?: about)? ${A}${SINCE}$`,
    `^(?:did|have|had) ${USER} (?:ever |already |just )?(?:say|said|mention|mentioned|tell|told|talk|talked|ask|asked|bring up|brought up)(?: you| to you)?(?: anything)?(?: about| of| regarding)? ${A}${SINCE}$`,
    `^(?:do|did|can|could|will|would) you (?:still |even )?(?:remember|recall) (?:what|that|when|how|whatever) ${USER} ${SPEECH} (?:about|of|regarding) ${A}${SINCE}$`,
    `^(?:do|did|can|could|will|would) you (?:still |even )?(?:remember|recall) ${A}${SINCE}$`,
    `^what do you (?:remember|recall) (?:about|of|regarding) ${A}$`,
    `^what (?:did|have) you (?:say|said|tell|told)(?: me| us)? (?:about|of|regarding) ${A}$`,
    `^(?:remember|recall) (?!is |are |was |were )${A}${SINCE}$`,
    `^remind (?:me|us) (?:about|of) ${A}$`,
  ],
  [
    'FRAME_TRANSFER',
    `^(?:(?:describe|explain|define|present|express|picture|frame|understand|think about|talk about|tell me about|what is|what's|what are) )?${A} in terms of ${B}$`,
    `^(?:think of|imagine|picture|see|view|treat|consider|describe|regard|envision|visualize|visualise|frame|paint|present|cast|explain|reimagine) ${A} as (?:if it were |though it were |being )?${B}$`,
    `^(?:what if|suppose|imagine|pretend)(?: that)? ${A} (?:is|are|was|were) ${B}$`,
    `^if ${A} (?:was|were|is|are) ${B}(?:, .*)?$`,
    `^${A} (?:is|are|was|were|seems|feels) (?:just |a lot |much |a bit |kind of |sort of )?like ${B}$`,
    `^(?:how|why|in what way|in what ways) (?:is|are) ${A} like ${B}$`,
    `^(?:is|are) ${A} like ${B}$`,
    `^(?:\\w+ )?${A} through the (?:lens|eyes|image) of ${B}$`,
    `^(?:use |give me |draw |make |what is |what's )?(?:an? |the )?(?:analogy|metaphor) (?:between|for|of) ${A} (?:and|to|with|from) ${B}$`,
  ],
  [
    'COMPARISON',
    `^(?:compare|contrast|weigh|distinguish|differentiate) ${A} (?:and|with|to|against|from|versus|vs) ${B}$`,
    `^(?:compare|contrast) ${A}$`,
    `\\bdifferences? (?:between|of) ${A} (?:and|from|with|vs|versus) ${B}$`,
    `\\b(?:comparison|contrast|distinction|similarities|similarity) (?:of|between) ${A} (?:and|with|to|vs|versus) ${B}$`,
    `^how (?:does|do|is|are|did) ${A} (?:differ|different|compare|contrast|distinct|stack up)(?: (?:from|with|to|against))? ${B}$`,
    `^how (?:do|does|are|is) ${A} and ${B} (?:differ|compare|contrast|different)$`,
    `^(?:in what ways?|how) (?:is|are) ${A} (?:different from|unlike|similar to) ${B}$`,
    `^what (?:sets|tells|distinguishes|separates|differentiates) ${A} (?:apart )?from ${B}$`,
    `^what makes ${A} different from ${B}$`,
    `^(?:is|are) ${A} (?:different|distinct) from ${B}$`,
    `^what do ${A} and ${B} have in common$`,
    `^which (?:one |of them |of the two )?\\w+ [a-z' ]*?, ${A} or ${B}$`,
    `^(?:is|are) ${A} and ${B} (?:the same|alike|similar|different)(?: things?)?$`,
    `^(?:is|are) ${A} the same as ${B}$`,
    `^which (?:is|are) \\w+ (?:than the other )?[:,]? ?${A} or ${B}$`,
    `^${A} or ${B}[:,] which .*$`,
    `^${A} (?:versus|vs) ${B}$`,
    `^${A} compared (?:to|with) ${B}$`,
  ],
  [
    'TRANSITIVE_QUERY',
    `^(?:how|in what way) (?:is|are|was|were) ${A} ${LINKED} (?:to|with) ${B}$`,
    `^(?:how|in what way) (?:is|are|do|does) ${A} and ${B} (?:${LINKED}|connect|relate|link)$`,
    `^(?:how|in what way) (?:does|do|did|can|could|would|might|will) ${A} (?:connect to|connect with|relate to|link to|link with|lead to|lead into|tie to|turn into|grow into|become|give rise to|develop into|change into|get to) ${B}$`,
    `^how ${A} (?:(?:connects|links|relates|leads|is ${LINKED}|are ${LINKED}) (?:to|with|into)|becomes|turns into|grows into|gives rise to) ${B}$`,
    `^(?:is|are|was|were) ${A} ${LINKED} (?:to|with) ${B}$`,
    `^(?:is|are) there (?:a |any |some )?${LINK_NOUN} (?:from|between) ${A} (?:to|and) ${B}$`,
    `^(?:what|where) (?:is|are) (?:the |a )?${LINK_NOUN} (?:from|between) ${A} (?:to|and) ${B}$`,
    `^what's (?:the |a )?${LINK_NOUN} (?:from|between) ${A} (?:to|and) ${B}$`,
    `^(?:trace|show|find|give|walk|follow|draw|map|explain|describe)(?: me| us)?(?: through)? (?:the |a )?${LINK_NOUN} (?:from|between) ${A} (?:to|and) ${B}$`,
    `^what (?:connects|links|relates|ties|joins|bridges) ${A} (?:and|to|with) ${B}$`,
    `^what (?:leads|goes|gets you) from ${A} to ${B}$`,
    `^how (?:do|does|can|could) (?:i|we|you|one) (?:get|go|move|travel) from ${A} to ${B}$`,
    `^(?:does|do|can|could|will|did) ${A} (?:lead|connect|link|relate) (?:to|with|into) ${B}$`,
    `^${A} (?:leads|connects|links|relates) (?:to|with) ${B}$`,
    `^from ${A} to ${B}$`,
  ],
  [
    'PROCEDURE',
    `^how (?:do|can|should|would|could|might|must|shall|will|does|did) (?:i|you|we|one|someone|anyone|people|a person|somebody) (?:best |actually |properly |ever )?${A}$`,
    `\\bhow to ${A}$`,
    `^(?:(?:what are|what're|give me|list|show me|tell me|i need|walk me through) )?(?:the )?(?:steps|stages|instructions|procedure|process|method|recipe|directions) (?:to|for|of|in) ${A}$`,
    `^(?:what is|what's|what are) (?:the |a |some )?(?:best |right |proper |good |easiest |usual |simplest )?(?:way|ways|method|methods|means) (?:to|of|for) ${A}$`,
    `^walk (?:me|us) through ${A}$`,
    `^(?:teach|show) (?:me|us) (?:how )?to ${A}$`,
    `^what (?:should|must|can|do) (?:i|we|one) do (?:to|for|about|with) ${A}$`,
  ],
  [
    'CAUSE',
    `^why(?: ${A})?$`,
    `^what (?:causes|caused|makes|made|produces|produced|creates|brings about|drives|triggers|gives rise to|leads to) ${A}$`,
    `^(?:what is|what's|what are|what were|what was) (?:the )?(?:main |real |root |underlying )?(?:cause|causes|reason|reasons|origin|origins|source) (?:of|for|behind) ${A}$`,
    `^(?:the )?(?:cause|causes|reason|reasons|origin) (?:of|for|behind) ${A}$`,
    `^how come ${A}$`,
    `^how (?:is|are|was|were) ${A} (?:made|formed|created|born|caused)$`,
    `^how (?:does|do|did) ${A}$`,
    `^where (?:does|do|did) ${A} come from$`,
    `^what (?:is|are) ${A} caused by$`,
    `^(?:for )?what reason ${A}$`,
  ],
  [
    'EXAMPLE',
    `^(?:give|show|name|list|offer|provide|share|tell|find|cite|suggest)(?: me| us)? ${FILLER}${EXAMPLE_NOUN} (?:of|for) ${A}$`,
    `^(?:what|which) (?:is|are|would be|could be|might be) ${FILLER}${EXAMPLE_NOUN} of ${A}$`,
    `^what's ${FILLER}${EXAMPLE_NOUN} of ${A}$`,
    `^${FILLER}${EXAMPLE_NOUN} (?:of|for) ${A}$`,
    `^(?:is|are) there ${FILLER}${EXAMPLE_NOUN} of ${A}$`,
    `^${A},? (?:for example|for instance|such as what|e g)$`,
    `^(?:for example|for instance),? ${A}$`,
    `^illustrate ${A}(?: (?:with|by|using) ${FILLER}${EXAMPLE_NOUN})?$`,
  ],
  [
    'VERIFICATION',
    `^(?:is|isn't) it (?:true|correct|right|so|the case|a fact|accurate|false) (?:that |whether |if )?${A}$`,
    `^(?:true|right|correct|fact|yes) or (?:false|wrong|not|incorrect|fiction|no)[:,]? ${A}$`,
    `^(?:verify|confirm|check|prove|validate)(?: for me)? (?:that |whether |if )?${A}$`,
    `^(?:am i right|is it right|would i be right) (?:that|to say that|in thinking that) ${A}$`,
    `^${AUX} ${A}$`,
    `^${A},? (?:right|correct|true|isn't it|aren't they|yes or no)$`,
  ],
  [
    'NARRATIVE',
    `\\btell (?:me|us)(?: (?:a|the|some|one|a little|more|everything|something|anything|all|a bit|a short))?(?: (?:story|stories|tale|tales|bit|more))? (?:about|of|on|regarding) ${A}$`,
    `^(?:describe|depict|portray|characterize|sketch|narrate|recount|discuss|explore|summarize|summarise) ${A}$`,
    `\\b(?:talk|speak|chat|write|say something|say a little|say more|say a bit|say a few words)(?: to me| with me| to us)? (?:about|of|on|regarding) ${A}$`,
    `^(?:hear|learn|know|read) (?:more |something |a bit |a little )?(?:about|on) ${A}$`,
    `^what (?:can|could|would|do) you (?:tell|say|share|know)(?: me| us)? (?:about|of|regarding) ${A}$`,
    `^(?:a |the )?(?:story|stories|tale|tales|history) (?:of|about) ${A}$`,
    `^(?:what is|what's|what are) (?:the )?(?:story|stories|tale|history) (?:of|about|behind) ${A}$`,
    `^what (?:is|are|was|were) ${A} like$`,
    `^(?:more|anything|something) (?:about|on) ${A}$`,
  ],
  [
    'DEFINITION',
    `^what (?:does|do|did) ${A} (?:mean|stand for|signify|refer to)$`,
    `^what (?:do|does|did) (?:we|you|they|people|one|i|someone) mean (?:by|with) ${A}$`,
    `^what(?:'s| is) meant by ${A}$`,
    `\\b(?:meaning|definition|sense|significance) of ${A}$`,
    `^(?:what|who)(?: is| are| was| were|'s|s)(?: exactly| really| actually)? ${A}$`,
    `^(?:define|explain|clarify|interpret|unpack|elucidate) ${A}$`,
    `^(?:what|who) ${A} (?:is|are|means|mean|was|were)$`,
    `^${A} means what$`,
    `^(?:what|which) (?:kind|sort|type) of (?:thing |word |concept |being |person )?(?:is|are) ${A}$`,
  ],
].flatMap(([intent, ...patterns]) => patterns.map((p) => ({ intent, pattern: new RegExp(p, 'u') })));

const LEADS = /^(?:(?:hmm+|um+|uh+|oh|ok|okay|so|well|now|hey|hi|hello|alright|and|but|then|also)\b[\s,;:.!-]*)+/u;
const WRAPPERS = new RegExp(
  '^(?:please |kindly ' +
    '|(?:can|could|would|will) (?:you|u) (?:please )?' +
    "|(?:(?:i|we) (?:need|want|would like|wish|wonder|am wondering|am curious)|i'd like" +
    "|we'd like|i'm wondering|i'm curious)(?: (?:you )?to)? " +
    '|(?:know|understand|see|ask you) (?=what|why|how|who|whether|if|which)' +
    '|(?:tell|show|explain to|teach|remind) (?:me|us) (?=what|why|how|who|whether|if|which)' +
    '|(?:explain|describe) (?=what|why|how|who|whether|if|which)' +
    '|how (?:would|do|can|could|should|might) (?:you|we|one|i) (?=(?:describe|define|explain' +
    '|characterize|summarize|summarise) )' +
    '|(?:do you know|any idea|have you any idea|let me know) )',
  'u',
);
const TRAILING = /(?:[\s.!?;:,\u2026"'`]|\bplease\b)+$/u;
const QUOTES = /["`\u201c\u201d]|(?<!\w)'|'(?!\w)/gu;
const CORRECTION_LEAD = new RegExp(
  '^(?:(?:no|nope|nah|wrong|incorrect|not quite|not really|not so|not true|actually' +
    '|correction|in fact)\\b' +
    "|(?:that's|that is|this is|it's|it is|you're|you are|you were) (?:wrong|incorrect" +
    '|not right|not correct|mistaken|not true)\\b' +
    "|i think you(?:'re| are) (?:wrong|mistaken)\\b)[\\s,;:.!-]*",
  'u',
);
const COPULA = /\b(?:is|are|was|were) /u;
const SLOT_NOISE = /\bthe (?:word|term) (?!and\b|or\b|with\b|to\b|is\b)(?=\w)|\b(?:a |an )?(?:kind|sort|type) of\b/gu;

const cleanSlot = (text) => text.replace(SLOT_NOISE, ' ');
const slotHasContent = (text) => contentTerms(tokenize(cleanSlot(text))).length > 0;

/** *text* with every leading match of *pattern* removed. */
function stripLeading(pattern, text) {
  for (;;) {
    const found = pattern.exec(text);
    if (found === null || !found[0]) return text;
    text = text.slice(found[0].length);
  }
}

/** The clause a prompt's form is read from: no quotes, leads, polite wrappers or tail. */
function prepare(normalized) {
  let clause = normalized.replace(QUOTES, '').replace(TRAILING, '');
  clause = stripLeading(LEADS, clause);
  return stripLeading(WRAPPERS, clause).replace(TRAILING, '');
}

/** The first form covering *clause* with content in every slot; UNKNOWN over the clause otherwise. */
function readClause(clause) {
  for (const { intent, pattern } of FORMS) {
    const found = pattern.exec(clause);
    if (found === null) continue;
    const slots = [found.groups.a, found.groups.b].filter((s) => s !== undefined);
    if (slots.every(slotHasContent)) return { intent, slots, claim: null };
  }
  return { intent: 'UNKNOWN', slots: clause ? [clause] : [], claim: null };
}

function readCorrection(rest) {
  if (rest) {
    const inner = readClause(prepare(rest));
    if (inner.intent !== 'UNKNOWN') return inner;
  }
  const copula = COPULA.exec(rest);
  if (copula === null) return { intent: 'CORRECTION', slots: rest ? [rest] : [], claim: null };
  const claim = rest.slice(copula.index + copula[0].length).trim();
  return { intent: 'CORRECTION', slots: [rest.slice(0, copula.index), claim], claim: claim || null };
}

/** Read a normalised prompt: a correction lead first, then the forms. */
function read(normalized) {
  const clause = prepare(normalized);
  if (CORRECTION_LEAD.test(clause)) return readCorrection(stripLeading(CORRECTION_LEAD, clause));
  return readClause(clause);
}

/** The intent, its subjects (slot by slot, known lemmas first per slot, once each) and claim. */
function classify(normalized, isKnown) {
  const reading = read(normalized);
  const terms = [];
  for (const slot of reading.slots) {
    const words = contentTerms(tokenize(cleanSlot(slot)));
    const ordered = [...words.filter(isKnown), ...words.filter((w) => !isKnown(w))];
    for (const word of ordered) if (!terms.includes(word)) terms.push(word);
  }
  return { intent: reading.intent, terms, subject: terms.length ? terms[0] : null, claim: reading.claim };
}

module.exports = { classify, read, prepare };
