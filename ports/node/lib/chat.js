'use strict';
// A chat session: the truth pipeline, then the realizer under a register (depth, decoration).
// The register only shapes the words after the record is sealed, so nothing it holds can
// reach the trace hash (invariants A, B and C of docs/spec.md).

const { TruthPipeline } = require('./truth');
const variation = require('./variation');
const { says } = require('./says');

const UNREGISTERED = { register_id: null, realizer_overrides: {}, discourse_markers: null };

const capitalize = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

function listed(words) {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const stepText = (steps) => steps.map((s) => `${s.from} ${s.relation} ${s.to}`).join(', then ');

/** What the pack says of a lemma: its gloss, else its first *depth* domains. */
function about(entry, depth) {
  if (entry.gloss !== null) return `${capitalize(entry.lemma)} is ${entry.gloss}.`;
  return `${capitalize(entry.lemma)} belongs to ${listed(entry.domains.slice(0, depth))}.`;
}

const grounded = (entries) => `pack-grounded (${[...new Set(entries.map((e) => e.pack_id))].join(', ')}).`;
const turnOf = (said) => `turn ${said.turn_idx + 1}`;

function saidLine(said, lemma) {
  return said.claim !== null ? `in ${turnOf(said)} you said ${lemma} ${said.claim}` : `in ${turnOf(said)} you said "${said.text}"`;
}

/** The user's words about one lemma, the latest claim first (docs/intents.md § Answers, RECALL). */
function recalled(hit) {
  const claims = hit.said.filter((s) => s.claim !== null);
  const others = hit.said.filter((s) => s.claim === null);
  const lines = [...claims, ...others].map((s) => saidLine(s, hit.lemma));
  // The latest claim comes first even when it is older than the turns quoted.
  if (!claims.length && hit.latest_claim) lines.unshift(`you said ${hit.lemma} ${hit.latest_claim}`);
  const head = lines.length ? `${capitalize(lines.join('; '))}.` : '';
  return `${head} ${capitalize(hit.lemma)} came up in ${hit.count} earlier turn(s).`.trim();
}

function verification(record, depth) {
  const { answer, subject, found, hit } = record.grounding;
  const word = answer.verdict === 'yes' ? 'Yes' : answer.verdict === 'no' ? 'No' : 'Not known';
  let why;
  if (answer.by === 'vault') why = `you said ${subject.lemma} ${hit.latest_claim}`;
  else if (answer.by === 'teaching') why = `${stepText(answer.told)} (teaching-grounded)`;
  else if (answer.by === 'gloss') why = `${subject.lemma} is ${subject.gloss}`;
  else why = 'nothing in the packs or the teaching chains settles it';
  const others = answer.by === null ? found.slice(1, 2).map((e) => ` ${about(e, depth)}`).join('') : '';
  return `${word}: ${why}. ${about(subject, depth)}${others} ${grounded([subject])}`;
}

/** What two lemmas share and what each has alone, among the first three domains of each. */
function compareLead(a, b) {
  const [first, second] = [a, b].map((e) => e.domains.slice(0, 3));
  const shared = first.filter((d) => second.includes(d));
  const own = (e, ds) => `${e.lemma} alone: ${listed(ds.filter((d) => !shared.includes(d))) || 'nothing'}`;
  return `${capitalize(a.lemma)} and ${b.lemma}: shared ${listed(shared) || 'nothing'}; ${own(a, first)}; ${own(b, second)}.`;
}

/** The answer over the known lemmas of a pack or partial turn, by intent. */
function packAnswer(record, depth) {
  const { found, subject, answer } = record.grounding;
  const entry = found[0];
  const intent = record.intent;
  if (['COMPARISON', 'FRAME_TRANSFER', 'TRANSITIVE_QUERY'].includes(intent) && found.length >= 2) {
    const [a, b] = found;
    const lead =
      intent === 'TRANSITIVE_QUERY'
        ? `No teaching chain links ${a.lemma} and ${b.lemma}, either way.`
        : intent === 'COMPARISON'
          ? compareLead(a, b)
          : `${capitalize(a.lemma)} seen as ${b.lemma}: ${[a, b].map((e) => `${e.lemma} spans ${listed(e.domains.slice(0, 2))}`).join('; ')}.`;
    return `${lead} ${about(a, depth)} ${about(b, depth)} ${grounded([a, b])}`;
  }
  if (intent === 'VERIFICATION' && answer) return verification(record, depth);
  const tail = `${about(entry, depth)} ${grounded([entry])}`;
  if (intent === 'RECALL') return `Nothing was said about ${entry.lemma} in this session. ${tail}`;
  if (intent === 'CAUSE') return `No teaching step leads into ${entry.lemma}. ${tail}`;
  if (intent === 'PROCEDURE') {
    const verb = found.slice(1).find((e) => e.pos === 'verb');
    return `To ${verb ? verb.lemma : 'work with'} ${entry.lemma}, start from ${listed(entry.domains.slice(0, 2))}. ${tail}`;
  }
  if ((intent === 'NARRATIVE' || intent === 'EXAMPLE') && answer && answer.told.length) {
    const ties = intent === 'NARRATIVE' && entry.gloss !== null ? ` It goes with ${listed(entry.domains.slice(0, depth))}.` : '';
    return `${about(entry, depth)}${ties} ${grounded([entry])} From the teaching chains: ${stepText(answer.told)}.`;
  }
  if (intent === 'EXAMPLE') return `${capitalize(entry.lemma)} shows up in ${listed(entry.domains.slice(0, 2))}. ${tail}`;
  if (intent === 'NARRATIVE') return `${about(entry, depth)} It goes with ${listed(entry.domains.slice(0, depth))}. ${grounded([entry])}`;
  void subject;
  return tail;
}

/** The undecorated answer: what the record says, at the register's disclosure depth. */
function compose(record, depth) {
  const { grounding, unknown } = record;
  if (grounding.source === 'teaching') {
    if (record.intent === 'VERIFICATION' && grounding.answer) return verification(record, depth);
    const lead = `${capitalize(stepText(grounding.steps))}.`;
    return `${lead} ${about(grounding.subject, depth)} teaching-grounded.`;
  }
  if (grounding.source === 'none') {
    return record.intent === 'RECALL' ? 'Nothing was said in this session yet.' : 'I have nothing to go on yet.';
  }
  if (grounding.source === 'oov') return `I do not know ${listed(unknown)} yet.`;
  const entry = grounding.subject;
  if (grounding.source === 'vault') {
    if (entry === null) return `What you said, latest first: ${grounding.hits.map((h) => recalled(h)).join(' ')}`;
    if (grounding.claim) return `${capitalize(entry.lemma)}: noted, ${grounding.claim}. ${about(entry, depth)}`;
    if (record.intent === 'VERIFICATION') return verification(record, depth);
    return recalled(grounding.hit);
  }
  const text = packAnswer(record, depth);
  return grounding.source === 'partial' ? `${text} I do not know ${listed(unknown)} yet.` : text;
}

class ChatSession {
  /** *answers*: carry `says` in every result (capability `answers`). */
  constructor(lexicon, register, answers = false) {
    this.truth = new TruthPipeline(lexicon);
    this.register = register || UNREGISTERED;
    this.answers = answers;
  }

  chat(text) {
    const record = this.truth.run(text);
    const depth = variation.resolveDepth(this.register.realizer_overrides, record.intent);
    const plain = compose(record, depth);
    const registerId = this.register.register_id;
    const decoration =
      registerId === null
        ? { decorated: plain, register_variant_id: '' }
        : variation.decorate(plain, this.register.discourse_markers, registerId, record.trace_hash, record.turn_idx);
    return {
      surface: decoration.decorated,
      pre_decoration_surface: plain,
      trace_hash: record.trace_hash,
      grounding_source: record.grounding_source,
      intent: record.intent,
      subject: record.subject,
      turn_idx: record.turn_idx,
      versor_condition: record.versor_condition,
      register_id: registerId,
      register_variant_id: decoration.register_variant_id,
      ...(this.answers ? { says: says(record) } : {}),
    };
  }
}

module.exports = { ChatSession };
