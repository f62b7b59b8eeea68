'use strict';
// The truth side of a turn: normalise, classify, ground, evolve the field, seal the record.
// The record and its hash follow docs/trace-hash.md; intents and subjects follow
// docs/intents.md, grounding the rules of docs/spec.md § Cognition.

const fs = require('node:fs');
const path = require('node:path');
const json = require('./json');
const algebra = require('./algebra');
const { classify } = require('./intent');
const { normalize, tokenize } = require('./text');
const { sha256 } = require('./variation');

const RECORD_SCHEMA = 'core-truth-record/1';

/** The language packs and teaching chains shipped as data in *dir*. */
function loadLexicon(dir) {
  const lemmas = new Map();
  const chains = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const data = json.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    if (Array.isArray(data.chains)) chains.push(...data.chains);
    if (typeof data.pack_id !== 'string' || !Array.isArray(data.lemmas)) continue;
    for (const entry of data.lemmas) {
      const words = tokenize(normalize(entry.lemma));
      lemmas.set(words.join(' '), {
        lemma: entry.lemma,
        pack_id: data.pack_id,
        pos: entry.pos,
        domains: entry.domains,
        gloss: typeof entry.gloss === 'string' ? entry.gloss : null,
        words: words.length,
      });
    }
  }
  const longest = Math.max(1, ...[...lemmas.values()].map((e) => e.words));
  return { lemmas, chains, longest };
}

/** The lemma a lowercase word names, folding simple plurals (`trees` -> `tree`). */
function lookup(lexicon, word) {
  const forms = [word];
  if (word.endsWith('ies') && word.length > 4) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves') && word.length > 4) forms.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`);
  if (word.endsWith('es') && word.length > 4) forms.push(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 3) forms.push(word.slice(0, -1));
  for (const form of forms) {
    const entry = lexicon.lemmas.get(form);
    if (entry) return entry;
  }
  return null;
}

/** Every teaching step with its chain, sorted by (from, relation, to, chain_id). */
function teachingSteps(chains) {
  const key = (s) => [s.from, s.relation, s.to, s.chain_id];
  const steps = chains.flatMap((c) => c.steps.map((s) => ({ chain_id: c.chain_id, ...s })));
  return steps.sort((x, y) => json.byCodePoint(json.canonical(key(x)), json.canonical(key(y))));
}

/** The shortest teaching path from *from* to *to* (breadth first over sorted steps); [] if none. */
function teachingPath(steps, from, to) {
  if (from === to) return [];
  const previous = new Map();
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    for (const step of steps) {
      if (step.from !== node || previous.has(step.to) || step.to === from) continue;
      previous.set(step.to, step);
      if (step.to === to) {
        const path = [];
        for (let at = to; at !== from; at = previous.get(at).from) path.unshift(previous.get(at));
        return path;
      }
      queue.push(step.to);
    }
  }
  return [];
}

/** The first teaching step leading into *to*, as a one-step path; [] if none. */
const teachingOrigin = (steps, to) => steps.filter((s) => s.to === to).slice(0, 1);

const lemmaContent = (e) => ({ domains: e.domains, gloss: e.gloss, lemma: e.lemma, pack_id: e.pack_id, pos: e.pos });

/** A unit rotor per lemma: three Euclidean plane rotations with SHA-256-drawn angles. */
function lemmaVersor(lemma) {
  const digest = sha256(`lemma-versor|${lemma}`);
  const planes = [0b0011, 0b0110, 0b1100];
  return planes.reduce((versor, plane, k) => {
    const bivector = new Array(algebra.SIZE).fill(0);
    bivector[plane] = 1;
    const angle = (digest.readUInt16BE(2 * k) / 65536) * 2 * Math.PI;
    return algebra.product(versor, algebra.rotor(bivector, angle));
  }, algebra.blade0());
}

/** round(x * 1e9), ties to even, -0 written as 0. */
function quantize(x) {
  const v = x * 1e9;
  const floor = Math.floor(v);
  const diff = v - floor;
  const r = diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  return r + 0;
}

/** A vault address: SHA-256 of the lemma's grid point as big-endian doubles (docs/trace-hash.md). */
function vaultAddress(lemma) {
  const digest = sha256(`vault-point|${lemma}`);
  const coords = [0, 1, 2].map((k) => ((digest.readUInt16BE(2 * k) % 1024) - 512) / 512);
  const point = new Array(algebra.SIZE).fill(0);
  coords.forEach((c, k) => {
    point[1 << k] = c;
  });
  const half = (coords[0] ** 2 + coords[1] ** 2 + coords[2] ** 2) / 2;
  point[8] += half - 0.5;
  point[16] += half + 0.5;
  const bytes = Buffer.alloc(8 * algebra.SIZE);
  point.forEach((c, k) => bytes.writeDoubleBE(c, 8 * k));
  return sha256(bytes).toString('hex');
}

class TruthPipeline {
  constructor(lexicon) {
    this.lexicon = lexicon;
    this.field = algebra.blade0();
    this.vault = new Map();
    this.steps = teachingSteps(lexicon.chains);
    this.turnIdx = 0;
  }

  /** The grounding of a classified turn: the first rule of docs/spec.md § Cognition that applies. */
  ground(reading) {
    const found = [];
    const unknown = [];
    for (const term of reading.terms) {
      const entry = lookup(this.lexicon, term);
      if (entry === null) unknown.push(term);
      else if (!found.includes(entry)) found.push(entry);
    }
    const subject = found.length ? found[0] : null;
    const hit = subject && this.vault.has(subject.lemma) ? { ...this.vault.get(subject.lemma) } : null;
    let steps = [];
    if (reading.intent === 'TRANSITIVE_QUERY' && found.length >= 2) {
      steps = teachingPath(this.steps, found[0].lemma, found[1].lemma);
    } else if (reading.intent === 'CAUSE' && subject) {
      steps = teachingOrigin(this.steps, subject.lemma);
    }
    const subjectKnown = subject !== null && !unknown.includes(reading.subject);
    let source;
    if (!reading.terms.length) source = 'none';
    else if (reading.intent === 'CORRECTION' && subjectKnown && reading.claim) source = 'vault';
    else if (reading.intent === 'RECALL' && hit) source = 'vault';
    else if (steps.length) source = 'teaching';
    else if (!found.length) source = 'oov';
    else source = unknown.length ? 'partial' : 'pack';
    const claim = source === 'vault' && reading.intent === 'CORRECTION' ? reading.claim : null;
    return { source, steps: source === 'teaching' ? steps : [], subject, hit, claim, found, unknown };
  }

  /** One turn: the sealed record (trace_hash included) and what the realizer needs. */
  run(text) {
    const normalized = normalize(text);
    const tokens = tokenize(normalized);
    const reading = classify(normalized, (word) => lookup(this.lexicon, word) !== null);
    const intent = reading.intent;
    const grounding = this.ground(reading);
    const { found, unknown } = grounding;
    const turnVersor = found.map((e) => lemmaVersor(e.lemma)).reduce(algebra.product, algebra.blade0());
    this.field = algebra.product(this.field, turnVersor);
    const content = {
      claim: grounding.claim,
      field_digest: sha256(json.canonical(this.field.map(quantize))).toString('hex'),
      grounded: found.map(lemmaContent),
      grounding_source: grounding.source,
      input: normalized,
      intent,
      schema: RECORD_SCHEMA,
      subject: reading.subject,
      teaching_path: grounding.steps,
      tokens,
      turn_idx: this.turnIdx,
      unknown,
      vault_hits: grounding.hit && grounding.source === 'vault' ? [grounding.hit] : [],
    };
    const record = {
      ...content,
      trace_hash: sha256(json.canonical(content)).toString('hex'),
      versor_condition: algebra.versorCondition(this.field),
      grounding,
      found,
      unknown,
    };
    this.remember(grounding);
    this.turnIdx += 1;
    return record;
  }

  remember(grounding) {
    const subject = grounding.subject;
    if (!subject) return;
    const seen = this.vault.get(subject.lemma);
    this.vault.set(subject.lemma, {
      address: seen ? seen.address : vaultAddress(subject.lemma),
      count: seen ? seen.count + 1 : 1,
      first_turn: seen ? seen.first_turn : this.turnIdx,
      last_turn: this.turnIdx,
      latest_claim: grounding.claim ?? (seen ? seen.latest_claim : null),
      lemma: subject.lemma,
    });
  }
}

module.exports = { loadLexicon, lookup, TruthPipeline, quantize };
