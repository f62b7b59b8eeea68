'use strict';
// The truth side of a turn: normalise, classify, ground, evolve the field, seal the record.
// The record and its hash follow docs/trace-hash.md; intents and subjects follow
// docs/intents.md, grounding the rules of docs/spec.md § Cognition.

const fs = require('node:fs');
const path = require('node:path');
const json = require('./json');
const algebra = require('./algebra');
const { classify, loadForms, Reader } = require('./intent');
const { normalize, tokenize, contentTerms, baseForms, sameWord } = require('./text');
const { sha256 } = require('./variation');

const RECORD_SCHEMA = 'core-truth-record/1';

/** The language packs and teaching chains shipped as data in *dir*, and the reader of
 * *formsFile* (reference/truth/data/forms.json) against them. */
function loadLexicon(dir, formsFile) {
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
  const lexicon = { lemmas, chains, longest };
  const lex = {
    known: (word) => lookup(lexicon, word) !== null,
    isNoun: (word) => {
      const entry = lookup(lexicon, word);
      return entry !== null && entry.pos === 'noun';
    },
  };
  lexicon.reader = new Reader(loadForms(formsFile), lex);
  return lexicon;
}

/** The lemma a lowercase word names, by word folding (`trees` -> `tree`, `listening` -> `listen`). */
function lookup(lexicon, word) {
  for (const form of baseForms(word)) {
    const entry = lexicon.lemmas.get(form);
    if (entry) return entry;
  }
  return null;
}

/** Every teaching step with its chain, sorted by (from, to, relation, chain_id). */
function teachingSteps(chains) {
  const key = (s) => [s.from, s.to, s.relation, s.chain_id];
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

/** The path from *a* to *b*, else from *b* to *a* (docs/spec.md § Cognition, rule 4). */
function eitherWay(steps, a, b) {
  const forward = teachingPath(steps, a, b);
  return forward.length ? forward : teachingPath(steps, b, a);
}

// Answers (docs/intents.md § Answers).

const NEGATIONS = new Set(['not', 'never', 'no']);
const words = (text) => contentTerms(tokenize(text));
const covered = (ws, by) => ws.every((w) => by.some((o) => sameWord(w, o)));
const negated = (statement) => tokenize(statement).slice(1).some((w) => NEGATIONS.has(w));

/** Whether one step states the predicate *ws* of *subject* (a step out of it, or a kind step). */
function states(step, ws, subject) {
  if (step.from === subject) {
    const relation = words(step.relation);
    if (step.relation === 'is a form of' && covered(ws, [step.to])) return true;
    return ws.some((w) => sameWord(w, step.to)) && covered(relation, ws) && covered(ws, [step.to, ...relation]);
  }
  return step.to === subject && step.relation === 'includes' && covered(ws, [step.from]);
}

/** yes/no/unknown on *statement* about *entry*, what decided it, and the deciding steps. */
function verdict(statement, entry, claim, steps) {
  const ws = words(statement).filter((w) => !sameWord(w, entry.lemma));
  const flip = negated(statement);
  if (!ws.length) return { verdict: 'unknown', by: null, told: [] };
  if (claim !== null && claim !== undefined && covered(ws, words(claim))) {
    const agrees = negated(`${entry.lemma} ${claim}`) === flip;
    return { verdict: agrees ? 'yes' : 'no', by: 'vault', told: [] };
  }
  const around = [...steps.filter((s) => s.from === entry.lemma), ...steps.filter((s) => s.to === entry.lemma)];
  const step = around.find((s) => states(s, ws, entry.lemma));
  if (step) return { verdict: flip ? 'no' : 'yes', by: 'teaching', told: [step] };
  if (entry.gloss !== null && covered(ws, words(entry.gloss))) return { verdict: flip ? 'no' : 'yes', by: 'gloss', told: [] };
  return { verdict: 'unknown', by: null, told: [] };
}

/** The steps an account tells: out of the subject, then into it; for an EXAMPLE, kind steps first. */
function told(steps, lemma, example) {
  const out = steps.filter((s) => s.from === lemma);
  const into = steps.filter((s) => s.to === lemma);
  if (example) {
    const kinds = [...out.filter((s) => s.relation === 'includes'), ...into.filter((s) => s.relation === 'is a form of')];
    if (kinds.length) return kinds.slice(0, 3);
  }
  return [...out, ...into].slice(0, 3);
}

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
  const coords = [0, 1, 2].map((k) => ((digest.readUInt16BE(2 * k) >> 6) - 512) / 512);
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
    this.context = null;
  }

  /** What the session has lived that changes later turns: {turns, context, rotor}. */
  life() {
    return { turns: this.turnIdx, context: this.context, rotor: this.field };
  }

  /** Resume a life ({turns, context, rotor, hits}) read back from a store. */
  resume(life) {
    this.turnIdx = life.turns;
    this.context = life.context;
    this.field = [...life.rotor];
    this.vault = new Map(life.hits.map((hit) => [hit.lemma, hit]));
  }

  /** The hits of the latest three lemmas something was said about, the latest first. */
  latest() {
    const said = [...this.vault.values()].filter((h) => h.said.length);
    said.sort((a, b) => b.said[0].turn_idx - a.said[0].turn_idx);
    return said.slice(0, 3).map((h) => ({ ...h, said: h.said.map((s) => ({ ...s })) }));
  }

  /** The grounding of a classified turn: the first rule of docs/spec.md § Cognition that applies. */
  ground(reading) {
    const none = { source: 'none', steps: [], subject: null, hit: null, hits: [], claim: null, found: [], unknown: [], answer: null };
    if (reading.intent === 'RECALL' && !reading.terms.length) {
      const recalled = this.latest();
      if (recalled.length) return { ...none, source: 'vault', hits: recalled };
    }
    if (!reading.terms.length) return none;
    const found = [];
    const unknown = [];
    for (const term of reading.terms) {
      const entry = lookup(this.lexicon, term);
      if (entry === null) unknown.push(term);
      else if (!found.includes(entry)) found.push(entry);
    }
    const first = found.length ? found[0] : null;
    const hit = first && this.vault.has(first.lemma) ? { ...this.vault.get(first.lemma) } : null;
    const subjectKnown = first !== null && !unknown.includes(reading.subject);
    let answer = null;
    if (subjectKnown && reading.intent === 'VERIFICATION') {
      answer = { ...verdict(reading.checked || '', first, hit ? hit.latest_claim : null, this.steps), checked: reading.checked || '' };
    } else if (subjectKnown && (reading.intent === 'NARRATIVE' || reading.intent === 'EXAMPLE')) {
      answer = { verdict: null, by: null, checked: null, told: told(this.steps, first.lemma, reading.intent === 'EXAMPLE') };
    }
    let steps = [];
    if (reading.intent === 'TRANSITIVE_QUERY' && found.length >= 2) {
      steps = eitherWay(this.steps, found[0].lemma, found[1].lemma);
    } else if (reading.intent === 'CAUSE' && first) {
      steps = found.length >= 2 ? eitherWay(this.steps, found[0].lemma, found[1].lemma) : [];
      if (!steps.length) steps = teachingOrigin(this.steps, first.lemma);
    }
    if (answer && answer.by === 'teaching') steps = answer.told;
    let source;
    if (reading.intent === 'CORRECTION' && subjectKnown && reading.claim) source = 'vault';
    else if (reading.intent === 'RECALL' && hit) source = 'vault';
    else if (answer && answer.by === 'vault') source = 'vault';
    else if (steps.length) source = 'teaching';
    else if (!found.length) source = 'oov';
    else source = unknown.length ? 'partial' : 'pack';
    const claim = source === 'vault' && reading.intent === 'CORRECTION' ? reading.claim : null;
    const sealedSteps = source === 'teaching' ? steps : [];
    return { source, steps: sealedSteps, subject: first, hit, hits: hit ? [hit] : [], claim, found, unknown, answer };
  }

  /** One turn: the sealed record (trace_hash included) and what the realizer needs. */
  run(text) {
    const normalized = normalize(text);
    const tokens = tokenize(normalized);
    const reading = classify(this.lexicon.reader, normalized, this.context);
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
      vault_hits: grounding.source === 'vault' ? grounding.hits : [],
    };
    if (grounding.answer) content.answer = grounding.answer;
    const record = {
      ...content,
      trace_hash: sha256(json.canonical(content)).toString('hex'),
      versor_condition: algebra.versorCondition(this.field),
      grounding,
      found,
      unknown,
    };
    this.remember(grounding, reading.intent === 'RECALL' ? null : normalized);
    if (reading.subject !== null) this.context = reading.subject;
    this.turnIdx += 1;
    return record;
  }

  /** Tally the turn's subject; *said* (not on a RECALL) joins the latest three things said about it. */
  remember(grounding, said) {
    const subject = grounding.subject;
    if (!subject) return;
    const seen = this.vault.get(subject.lemma);
    const before = seen ? seen.said : [];
    const entry = { claim: grounding.claim, text: said === null ? null : [...said].slice(0, 160).join(''), turn_idx: this.turnIdx };
    this.vault.set(subject.lemma, {
      address: seen ? seen.address : vaultAddress(subject.lemma),
      count: seen ? seen.count + 1 : 1,
      first_turn: seen ? seen.first_turn : this.turnIdx,
      last_turn: this.turnIdx,
      latest_claim: grounding.claim ?? (seen ? seen.latest_claim : null),
      lemma: subject.lemma,
      said: said === null ? before : [entry, ...before].slice(0, 3),
    });
  }
}

module.exports = { loadLexicon, lookup, TruthPipeline, quantize };
