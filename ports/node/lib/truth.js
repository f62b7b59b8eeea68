'use strict';
// The truth side of a turn: normalise, classify, ground, evolve the field, seal the record.
// The record and its hash follow docs/trace-hash.md; how intents, subjects and grounding
// are decided is this engine's own (the spec constrains them only through the requirements).

const fs = require('node:fs');
const path = require('node:path');
const json = require('./json');
const algebra = require('./algebra');
const { sha256 } = require('./variation');

const RECORD_SCHEMA = 'core-truth-record/1';
const FUNCTION_WORDS = new Set(
  ('a an the of to in on at for with and or but is are was were be been am do does did i me my you your ' +
    'it its this that these those what which who whom why how when where tell about give show define ' +
    'compare no not yes kind as think said say connected related example work can could would should please')
    .split(' '),
);
const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

const normalize = (text) => text.normalize('NFC').toLowerCase().split(/\s+/u).filter(Boolean).join(' ');
const tokenize = (normalized) => normalized.match(TOKEN) || [];

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

function classify(text) {
  const rules = [
    [/^what did i say/, 'RECALL'],
    [/^(what is|what are|define)\b/, 'DEFINITION'],
    [/^why\b/, 'CAUSE'],
    [/^how is .* (connected|related) to /, 'TRANSITIVE_QUERY'],
    [/^(how do i|how to)\b/, 'PROCEDURE'],
    [/^compare\b/, 'COMPARISON'],
    [/^no\b/, 'CORRECTION'],
    [/^is .* a kind of /, 'VERIFICATION'],
    [/^think of\b/, 'FRAME_TRANSFER'],
    [/^tell me about\b/, 'NARRATIVE'],
    [/\bexample\b/, 'EXAMPLE'],
  ];
  const hit = rules.find(([pattern]) => pattern.test(text));
  return hit ? hit[1] : 'UNKNOWN';
}

/** Lexicon terms (longest match first) and content terms that are not in the lexicon. */
function scan(tokens, lexicon) {
  const found = [];
  const unknown = [];
  let i = 0;
  while (i < tokens.length) {
    let match = null;
    for (let n = Math.min(lexicon.longest, tokens.length - i); n >= 1 && !match; n -= 1) {
      const entry = lexicon.lemmas.get(tokens.slice(i, i + n).join(' '));
      if (entry) match = [entry, n];
    }
    if (match) {
      if (!found.includes(match[0])) found.push(match[0]);
      i += match[1];
    } else {
      if (!FUNCTION_WORDS.has(tokens[i]) && !unknown.includes(tokens[i])) unknown.push(tokens[i]);
      i += 1;
    }
  }
  return { found, unknown };
}

function teachingPath(chains, from, to) {
  for (const chain of chains) {
    const start = chain.steps.findIndex((s) => s.from === from);
    const end = chain.steps.findIndex((s) => s.to === to);
    if (start !== -1 && end >= start) {
      return chain.steps.slice(start, end + 1).map((s) => ({ chain_id: chain.chain_id, ...s }));
    }
  }
  return [];
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
    this.turnIdx = 0;
  }

  ground(intent, normalized, found, unknown) {
    const subject = found.length ? found[0] : null;
    if (intent === 'TRANSITIVE_QUERY' && found.length >= 2) {
      const steps = teachingPath(this.lexicon.chains, found[0].lemma, found[1].lemma);
      if (steps.length) return { source: 'teaching', steps, subject, hit: null, claim: null };
    }
    const claim = intent === 'CORRECTION' && subject ? normalized.replace(/^no\b[,.!]?\s*/, '') : null;
    const hit = subject && this.vault.has(subject.lemma) ? { ...this.vault.get(subject.lemma) } : null;
    if (hit && claim === null) return { source: 'vault', steps: [], subject, hit, claim };
    if (found.length) return { source: unknown.length ? 'partial' : 'pack', steps: [], subject, hit, claim };
    return { source: unknown.length ? 'oov' : 'none', steps: [], subject: null, hit: null, claim: null };
  }

  /** One turn: the sealed record (trace_hash included) and what the realizer needs. */
  run(text) {
    const normalized = normalize(text);
    const tokens = tokenize(normalized);
    const intent = classify(normalized);
    const { found, unknown } = scan(tokens, this.lexicon);
    const grounding = this.ground(intent, normalized, found, unknown);
    const turnVersor = found.map((e) => lemmaVersor(e.lemma)).reduce(algebra.product, algebra.blade0());
    this.field = algebra.product(this.field, turnVersor);
    const subjectTerm = found.length ? found[0].lemma : unknown.length ? unknown[0] : null;
    const content = {
      claim: grounding.claim,
      field_digest: sha256(json.canonical(this.field.map(quantize))).toString('hex'),
      grounded: found.map(lemmaContent),
      grounding_source: grounding.source,
      input: normalized,
      intent,
      schema: RECORD_SCHEMA,
      subject: subjectTerm,
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

module.exports = { loadLexicon, TruthPipeline, normalize, tokenize, quantize };
