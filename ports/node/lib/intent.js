'use strict';
// Reading a prompt (docs/intents.md § How a prompt is read): its words (misspelt form words
// mended, contractions spelt out), a correction lead, its sentences, each unwrapped and read
// by the forms of reference/truth/data/forms.json (normative with the table of forms), else
// by its cue words, else as a statement asked; then the sentence that decides, and the
// subjects of its slots (§ Subjects: verbs by position last, known lemmas first, words that
// refer back).

const fs = require('node:fs');
const { contentTerms, letterCount, tokenize, wordBase, readingText, FUNCTION_WORDS } = require('./text');

const WH = ",? (?=(?:what|why|how|who|whether|if|which|where|when) )";
const INTERJECTIONS =
  'hmm+|um+|uh+|oh|ok|okay|so|well|now|hey|hi|hello|alright|and|but|then|also|cool|great' +
  '|nice|wow|sure|yes|yeah|lol|haha+|hehe|sorry|wait|listen|look|please';
const LEADS = new RegExp(unicodeWords(`^(?:(?:${INTERJECTIONS})\\b[ ,;:.!?-]*)+`), 'u');
const WRAPPERS = new RegExp(
  '^(?:please |kindly ' +
    '|(?:can|could|would|will) (?:you|u) (?:please )?(?!say )' +
    '|(?:can|could|would|will) (?:someone|somebody|anyone|anybody) (?:please )?' +
    '|(?:i|we) (?:need|want|would like|would love|wish)(?: (?:you )?to)? ' +
    '|(?:i|we) (?:have |had |do not |did not |never |really |always |still |just |often ' +
    '|sometimes |am |was |were |can not )*(?:know' +
    '|understand|get|see|wonder|wondered|wondering|been wondering' +
    '|curious|not sure|unsure|forget|forgot|remember|want to know|would like to know' +
    `|need to know)(?: about)?${WH}` +
    `|(?:i have )?no idea${WH}` +
    `|(?:know|understand|see|ask you|find out|learn)${WH}` +
    `|(?:tell|show|explain to|teach|remind|let) (?:me|us)(?: know)?${WH}` +
    `|(?:explain|describe|clarify|sum up|summarize|break down|spell out|define)(?: to me)?${WH}` +
    `|help me understand${WH}` +
    '|how (?:would|do|can|could|should|might) (?:you|we|one|i) (?=(?:describe|define|explain' +
    '|characterize|summarize) )' +
    '|(?:do you know|any idea|have you any idea|do you have any idea|let me know),? ' +
    '|(?:i|we) (?:think|believe|guess|suppose|reckon|bet|feel like|heard|have heard|read' +
    '|was told|were told|am sure|am pretty sure|am fairly sure)(?: that)? (?!of |about |so$)' +
    '|(?:someone|somebody|people|they) (?:told me|tell me|say|said)(?: that)? ' +
    '|correct me if i am wrong,? (?:but )?' +
    '|(?:do|did) you think(?: that)? ' +
    '|would you say(?: that)? )',
  'u',
);
const BELIEF = new RegExp(
  unicodeWords(`^(?:(?:${INTERJECTIONS})\\b[ ,;:.!?-]*)*(?:(?:i|we) (?:think|believe|guess|suppose|reckon` +
    '|bet|feel like|heard|have heard|read|was told|were told|am sure|am pretty sure' +
    '|am fairly sure)\\b(?! of\\b| about\\b| so\\b)|(?:someone|somebody|people|they) (?:told me' +
    '|tell me|say|said)\\b|correct me if\\b)'),
  'u',
);
const TRAILING = new RegExp(unicodeWords(/(?:[ .!?;:,\u2026\u2014\u2013"'`-]|\bplease\b|\bfor (?:me|us)\b)+$/u.source), 'u');
const QUOTES = new RegExp(unicodeWords(/["`\u201c\u201d]|(?<!\w)'|'(?!\w)/gu.source), 'gu');
const CORRECTION_LEAD = new RegExp(
  unicodeWords('^(?:(?:no way|no|nope|nah|wrong|incorrect|not quite|not really|not so|not true' +
    '|not exactly|false|untrue|actually|correction|in fact|i disagree|i beg to differ' +
    '|nonsense|rubbish)\\b' +
    '|(?:that|this|it|you|that answer) (?:is|are|was|were) (?:wrong|incorrect|not right' +
    '|not correct|mistaken|not true|false|not it|a myth|not so|nonsense)\\b' +
    '|(?:you|i think you) (?:have )?(?:got|have|had|are getting) (?:it|that|this) (?:all )?' +
    '(?:wrong|backwards|mixed up)\\b' +
    '|i think you (?:are|were) (?:wrong|mistaken)\\b' +
    '|i do not think (?:so|that is (?:right|true|correct)|you are right)\\b|i do not agree\\b' +
    '|(?:let me|i have to|i must|allow me to) correct you\\b)[ ,;:.!\\u2014\\u2013-]*'),
  'u',
);
const COPULA = new RegExp(unicodeWords(/\b(?:is|are|was|were) /u.source), 'u');
const REFERRING_PHRASE = new RegExp(unicodeWords(/\b(?:that|this|the) (?:word|term|thing|one)$/u.source), 'u');
const SLOT_NOISE = new RegExp(unicodeWords(/\bthe (?:word|term) (?!and\b|or\b|with\b|to\b|is\b)(?=\w)|\b(?:a |an )?(?:kind|sort|type) of\b/gu.source), 'gu');
const REFERRING = new Set('it they them he she him her this that these those'.split(' '));
const ABBREVIATIONS = new Set(['vs', 'e.g', 'i.e', 'etc', 'mr', 'mrs', 'ms', 'dr', 'st']);
const SENTENCE_END = new RegExp(
  unicodeWords('[.!?;\\u2026]+(?= |$)|(?<= )[\\u2014\\u2013-]+(?= )|\\u2014' +
    '|:(?= +(?:what|why|how|who|which|where|when|is|are|was|were|does|do|did|can|could' +
    '|will|would|should|has|have|had|must|may|am)\\b)'),
  'gu',
);

// Subjects (docs/intents.md § Subjects).
const GENERIC_AGENTS = new Set('people person someone somebody anyone everyone humans'.split(' '));
const VERB_MARKERS = new Set(['i', 'we', 'you', 'they', 'it', 'to', ...GENERIC_AGENTS]);
const SKIPPED = new Set(
  'ever never always often really just also still sometimes usually actually even do does did not can could would will should might must may all both'.split(
    ' ',
  ),
);
const AUXILIARIES = new Set('do does did is are was were can could will would should has have had must may might am not'.split(' '));
const SUBJECT_PRONOUNS = new Set(['it', 'they', 'he', 'she']);

const cleanSlot = (text) => text.replace(REFERRING_PHRASE, 'it').replace(SLOT_NOISE, ' ');

function slotHasContent(text, refers) {
  const tokens = tokenize(text);
  return contentTerms(tokens).length > 0 || (refers && tokens.some((t) => REFERRING.has(t)));
}

function contentBase(token) {
  const base = wordBase(token);
  return base === null || FUNCTION_WORDS.has(base) || letterCount(base) < 2 ? null : base;
}

/** A slot's content words: not verbs by position first, then those that are; then known lemmas first. */
function slotTerms(text, lex, action, verbsMove) {
  const others = [];
  const verbs = [];
  let previous = null;
  tokenize(text).forEach((token, position) => {
    const base = contentBase(token);
    if (base === null) {
      if (!SKIPPED.has(token)) previous = token;
      return;
    }
    const verb = (verbsMove && VERB_MARKERS.has(previous)) || (action && position === 0) || GENERIC_AGENTS.has(base);
    (verb ? verbs : others).push(base);
    if (!SKIPPED.has(token)) previous = base;
  });
  const ordered = [...new Set([...others, ...verbs])];
  return [...ordered.filter((w) => lex.known(w)), ...ordered.filter((w) => !lex.known(w))];
}

/** The slot's subject (first word past auxiliaries) is it/they/he/she, except it before a known noun. */
function subjectPronoun(text, lex) {
  const tokens = tokenize(text);
  const index = tokens.findIndex((t) => !AUXILIARIES.has(t));
  if (index === -1 || !SUBJECT_PRONOUNS.has(tokens[index])) return false;
  if (tokens[index] !== 'it' || index + 1 >= tokens.length) return true;
  return !lex.isNoun(tokens[index + 1]);
}

// Forms, read from the shared data file.

function wordChar() { return '[\\p{L}\\p{N}_]'; }

/** *source* with Python's Unicode \\w and \\b (letters, numbers, `_`) in place of
 * JavaScript's ASCII ones, outside character classes; the forms are written for Python. */
function unicodeWords(source) {
  const boundary = `(?:(?<=${wordChar()})(?!${wordChar()})|(?<!${wordChar()})(?=${wordChar()}))`;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1];
      if (!inClass && next === 'w') out += wordChar();
      else if (!inClass && next === 'b') out += boundary;
      else out += c + next;
      i += 1;
    } else {
      if (c === '[') inClass = true;
      else if (c === ']') inClass = false;
      out += c;
    }
  }
  return out;
}

function toForm(raw) {
  const source = unicodeWords(raw.pattern.replace(/\(\?P</gu, '(?<'));
  return {
    intent: raw.intent,
    pattern: new RegExp(source, 'u'),
    action: Boolean(raw.action),
    refers: Boolean(raw.refers),
    question: raw.question === undefined ? null : raw.question,
    strict: Boolean(raw.strict),
    statement: Boolean(raw.statement),
    minContent: raw.min_content || 1,
    whole: Boolean(raw.whole),
    tag: Boolean(raw.tag),
    minWords: raw.min_words || 0,
    notWords: new Set(raw.not_words || []),
    notFirst: new Set(raw.not_first || []),
  };
}

/** The forms, the statement asked and the cue words of *file* (reference/truth/data/forms.json). */
function loadForms(file) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  return {
    forms: data.forms.map(toForm),
    asked: toForm(data.asked_statement),
    tagged: toForm(data.forms.find((f) => f.tag)),
    cues: data.cues.map((c) => ({
      intent: c.intent,
      test: new RegExp(unicodeWords(c.pattern), 'u'),
      all: new RegExp(unicodeWords(c.pattern), 'gu'),
      question: Boolean(c.question),
    })),
  };
}

/** Whether the words of *clause* (runs of letters) are at least minWords, none in notWords,
 * the first not in notFirst. */
function wordsFit(form, clause) {
  const words = tokenize(clause);
  if (words.length < form.minWords || words.some((w) => form.notWords.has(w))) return false;
  return words.length === 0 || !form.notFirst.has(words[0]);
}

function formSlots(form, clause) {
  const found = form.pattern.exec(clause);
  if (found === null || !wordsFit(form, clause)) return null;
  const groups = found.groups || {};
  let slots = ['a', 'b'].filter((name) => groups[name] !== undefined).map((name) => groups[name]);
  if (groups.a === undefined && form.refers) slots = ['it', ...slots];
  if (!slots.every((text) => slotHasContent(cleanSlot(text), !form.strict))) return null;
  if (form.minContent > 1) {
    const words = slots.flatMap((text) => contentTerms(tokenize(cleanSlot(text))));
    if (words.length < form.minContent) return null;
  }
  return slots;
}

function readingOf(form, slots, clause) {
  let claim = null;
  if (form.statement) claim = form.pattern.exec(clause).groups.claim || null;
  const whole = form.whole ? clause : null;
  return { intent: form.intent, slots, claim, action: form.action, statement: form.statement, referent: null, cued: false, whole };
}

const unknown = (slots) => ({ intent: 'UNKNOWN', slots, claim: null, action: false, statement: false, referent: null, cued: false, whole: null });

function stripLeading(pattern, text) {
  for (;;) {
    const found = pattern.exec(text);
    if (found === null || !found[0]) return text;
    text = text.slice(found[0].length);
  }
}

/** Interjections and wrappers, in turn, until neither is left; a wrapper before `if` makes it `whether`. */
function unwrap(clause) {
  for (;;) {
    const stripped = stripLeading(LEADS, clause);
    let unwrapped = stripLeading(WRAPPERS, stripped);
    if (unwrapped !== stripped && unwrapped.startsWith('if ')) unwrapped = `whether ${unwrapped.slice(3)}`;
    if (unwrapped === clause) return clause;
    clause = unwrapped;
  }
}

function prepare(text) {
  const clause = text.replace(QUOTES, '').replace(TRAILING, '');
  return unwrap(clause).replace(TRAILING, '');
}

const putsBelief = (sentence) => BELIEF.test(sentence);

/** *text* without the spaces at either end: after step 1 the only white space is U+0020
 * (docs/intents.md step 1), so never String.prototype.trim, which also takes U+FEFF. */
const trimSpaces = (text) => text.replace(/^ +| +$/g, '');

/** The sentences of *text*, each prepared, with whether it is a question (docs/intents.md step 6). */
function splitSentences(text) {
  const pieces = [];
  let start = 0;
  for (const end of text.matchAll(SENTENCE_END)) {
    const before = text.slice(start, end.index).split(' ');
    if (end[0] === '.' && ABBREVIATIONS.has(before[before.length - 1])) continue;
    pieces.push([trimSpaces(text.slice(start, end.index + end[0].length)), end[0].includes('?')]);
    start = end.index + end[0].length;
  }
  if (trimSpaces(text.slice(start))) pieces.push([trimSpaces(text.slice(start)), false]);
  return pieces
    .map(([piece, question]) => ({ clause: prepare(piece), question: question || putsBelief(piece) }))
    .filter((s) => s.clause);
}

const isRequest = (r) => r.intent !== 'UNKNOWN' && !r.statement && !r.cued;

class Reader {
  constructor(forms, lex) {
    this.forms = forms;
    this.lex = lex;
    this.cache = new Map();
  }

  read(normalized) {
    if (!this.cache.has(normalized)) {
      if (this.cache.size >= 4096) this.cache.delete(this.cache.keys().next().value);
      this.cache.set(normalized, this.readText(readingText(normalized, (w) => this.lex.known(w))));
    }
    return this.cache.get(normalized);
  }

  readForms(clause, question) {
    for (const form of this.forms.forms) {
      if (form.question !== null && form.question !== question) continue;
      const slots = formSlots(form, clause);
      if (slots !== null) return readingOf(form, slots, clause);
    }
    return null;
  }

  readCues(clause, question) {
    for (const cue of this.forms.cues) {
      if ((cue.question && !question) || !cue.test.test(clause)) continue;
      const rest = clause.replace(cue.all, ' , ').split(/ +/u).filter(Boolean).join(' ');
      const slot = slotHasContent(rest, true) ? rest : 'it';
      return { ...unknown([slot]), intent: cue.intent, cued: true };
    }
    return null;
  }

  readClause(clause, question) {
    const reading = this.readForms(clause, question) || this.readCues(clause, question);
    if (reading !== null) return reading;
    if (question) {
      const slots = formSlots(this.forms.asked, clause);
      if (slots !== null) return readingOf(this.forms.asked, slots, clause);
    }
    return unknown(clause ? [clause] : []);
  }

  /** The sentence that decides (docs/intents.md step 9). */
  static pick(readings) {
    const backwards = readings.map((_, i) => readings.length - 1 - i);
    for (const i of backwards) if (readings[i][0].question && isRequest(readings[i][1])) return i;
    for (let i = 0; i < readings.length; i += 1) if (isRequest(readings[i][1])) return i;
    for (const i of backwards) if (readings[i][0].question && readings[i][1].intent !== 'UNKNOWN') return i;
    for (let i = 0; i < readings.length; i += 1) if (readings[i][1].intent !== 'UNKNOWN') return i;
    return 0;
  }

  readSentences(text) {
    const sentences = splitSentences(text);
    if (!sentences.length) return unknown([]);
    const readings = sentences.map((s) => [s, this.readClause(s.clause, s.question)]);
    const chosen = Reader.pick(readings);
    const reading = readings[chosen][1];
    if (sentences.length === 1) return reading;
    if (reading.intent === 'UNKNOWN') return unknown(sentences.map((s) => s.clause));
    const order = [];
    for (let i = chosen - 1; i >= 0; i -= 1) order.push(i);
    for (let i = chosen + 1; i < sentences.length; i += 1) order.push(i);
    const other = order.find((i) => contentTerms(tokenize(sentences[i].clause)).length > 0);
    if (other === undefined) return reading;
    const refersOnly = reading.slots.every((slot) => contentTerms(tokenize(cleanSlot(slot))).length === 0);
    const deferred = readings[other][1];
    if (refersOnly && (isRequest(deferred) || deferred.cued)) return deferred;
    return { ...reading, referent: sentences[other].clause };
  }

  claimSplit(sentence) {
    const copula = COPULA.exec(sentence);
    if (copula !== null) {
      const claim = trimSpaces(sentence.slice(copula.index));
      return { ...unknown([sentence.slice(0, copula.index), claim]), intent: 'CORRECTION', claim: claim || null };
    }
    for (const found of sentence.matchAll(/\p{L}+(?:'\p{L}+)?/gu)) {
      if (!contentTerms([found[0]]).length) continue;
      const end = found.index + found[0].length;
      const claim = sentence.slice(end).replace(/^[ ,;:]+|[ ,;:]+$/gu, '');
      return { ...unknown([sentence.slice(0, end), claim]), intent: 'CORRECTION', claim: claim || null };
    }
    return { ...unknown(sentence ? [sentence] : []), intent: 'CORRECTION' };
  }

  readCorrection(rest) {
    if (!rest) return { ...unknown([]), intent: 'CORRECTION' };
    const inner = this.readSentences(rest);
    if (isRequest(inner) || (inner.intent === 'CORRECTION' && !inner.cued)) return inner;
    const stated = splitSentences(rest)
      .map((s) => s.clause)
      .find((c) => contentTerms(tokenize(c)).length > 0);
    return this.claimSplit(stated || '');
  }

  readText(text) {
    text = text.replace(QUOTES, '');
    const clause = unwrap(text);
    if (CORRECTION_LEAD.test(clause)) return this.readCorrection(stripLeading(CORRECTION_LEAD, clause).replace(TRAILING, ''));
    return this.readSentences(text);
  }
}

/** *statement* without a VERIFICATION tag at its end (the tags of the form marked `tag`). */
function withoutTag(statement, tagged) {
  const found = tagged.pattern.exec(statement);
  return found === null ? statement : found.groups.a;
}

/** The checked statement of a VERIFICATION: the statement it puts forward (the whole sentence of
 * a form that splits a statement into slots, else slot A), cleaned, or the sentence it refers
 * to; without a tag. */
function checked(reading, tagged) {
  if (reading.intent !== 'VERIFICATION' || !reading.slots.length) return null;
  let first = cleanSlot(reading.whole !== null && reading.whole !== undefined ? reading.whole : reading.slots[0]);
  if (!contentTerms(tokenize(first)).length && reading.referent !== null) first = cleanSlot(reading.referent);
  return withoutTag(first.split(/ +/u).filter(Boolean).join(' '), tagged);
}

/** The intent, its terms (slot by slot; a slot that refers back takes its referent), subject, claim, checked statement. */
function classify(reader, normalized, context) {
  const reading = reader.read(normalized);
  const lex = reader.lex;
  const terms = [];
  const add = (word) => {
    if (!terms.includes(word)) terms.push(word);
  };
  const referentTerms = () => {
    if (reading.referent !== null) return slotTerms(cleanSlot(reading.referent), lex, reading.action, reading.intent !== 'CAUSE');
    return context ? [context] : [];
  };
  reading.slots.forEach((slot, index) => {
    const cleaned = cleanSlot(slot);
    const words = slotTerms(cleaned, lex, reading.action && index === 0, reading.intent !== 'CAUSE');
    const refersBack = !words.length && tokenize(cleaned).some((t) => REFERRING.has(t));
    if (refersBack || subjectPronoun(cleaned, lex)) referentTerms().forEach(add);
    words.forEach(add);
  });
  return { intent: reading.intent, terms, subject: terms.length ? terms[0] : null, claim: reading.claim, checked: checked(reading, reader.forms.tagged) };
}

module.exports = { classify, loadForms, Reader };
