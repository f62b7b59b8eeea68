'use strict';
// The persistent core (docs/state.md § The persistent core): record rules per schema
// version, additive-optional fields, and core.jsonl's bytes in (kind, key) order.

const json = require('../json');

/** The engine's current schema version: 5 when it claims state.delta, 4 when state.life, else 3 (one per process). */
const schema = { current: 3 };
const currentVersion = () => schema.current;
const setCurrentVersion = (version) => {
  schema.current = version;
};
const MAX_KEY = 128;
const SAID_KEPT = 3;
const ROTOR_SIZE = 32;
const STATUSES = ['speculative', 'coherent', 'rejected'];
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const isString = (v) => typeof v === 'string';
const isInt = (v) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= MAX_SAFE;
const isKey = (v) => isString(v) && v.length > 0 && [...v].length <= MAX_KEY;
const isCount = (v) => isInt(v) && v >= 0;
const isStringOrNull = (v) => v === null || isString(v);
const isBits = (v) => isString(v) && /^[0-9a-f]{16}$/.test(v);
const isSaid = (v) =>
  json.isObject(v) &&
  Object.keys(v).sort().join(',') === 'claim,text,turn_idx' &&
  isStringOrNull(v.claim) &&
  isString(v.text) &&
  isCount(v.turn_idx);
const COUNT = { check: isCount, what: 'an integer >= 0' };

/** Each kind's fields: a type check, and for an additive-optional field its version and default. */
const KINDS = {
  candidate: {
    key: { check: isKey, what: 'a string of 1 to 128 characters' },
    lemma: { check: isString, what: 'a string' },
    score: { check: isInt, what: 'an integer' },
    status: { check: (v) => STATUSES.includes(v), what: `one of ${STATUSES.join(', ')}` },
    evidence: { check: isInt, what: 'an integer', since: 3, default: 0 },
  },
  recognizer: {
    key: { check: isKey, what: 'a string of 1 to 128 characters' },
    pattern: { check: isString, what: 'a string' },
    weight: { check: isInt, what: 'an integer' },
    label: { check: isString, what: 'a string', since: 2, default: '' },
  },
  session: {
    key: { check: (v) => v === 'session', what: 'the string "session"' },
    register_id: { check: isStringOrNull, what: 'a string or null' },
  },
  life: {
    key: { check: (v) => v === 'life', what: 'the string "life"' },
    turns: COUNT,
    context: { check: isStringOrNull, what: 'a string or null' },
    rotor: {
      check: (v) => Array.isArray(v) && v.length === ROTOR_SIZE && v.every(isBits),
      what: `a list of ${ROTOR_SIZE} bit patterns (16 lowercase hex digits each)`,
    },
  },
  vault: {
    key: { check: (v) => isString(v) && /^[0-9a-f]{64}$/.test(v), what: 'the address: 64 lowercase hex digits' },
    lemma: { check: isString, what: 'a string' },
    count: COUNT,
    first_turn: COUNT,
    last_turn: COUNT,
    latest_claim: { check: isStringOrNull, what: 'a string or null' },
    said: {
      check: (v) => Array.isArray(v) && v.length <= SAID_KEPT && v.every(isSaid),
      what: `a list of at most ${SAID_KEPT} objects {claim, text, turn_idx}`,
    },
  },
};

/** The schema version that introduced each kind (an older version does not know it). */
const KIND_SINCE = { candidate: 1, recognizer: 1, session: 1, life: 4, vault: 4 };

/** The kinds schema *version* knows, sorted. */
const kindsAt = (version) => Object.keys(KINDS).filter((k) => KIND_SINCE[k] <= version).sort();

class RecordError extends Error {
  /** *member*: the record's offending field (null when the record is not an object). */
  constructor(member, message) {
    super(message);
    this.member = member;
  }
}

const bad = (member, message) => {
  throw new RecordError(member, message);
};

/**
 * *value* checked as a record of schema *version*: the record with every default-valued
 * optional field omitted, or a RecordError naming the first offending field.
 */
function checkRecord(value, version) {
  if (!json.isObject(value)) bad(null, 'a record must be an object');
  if (!Object.hasOwn(value, 'kind')) bad('kind', "the record's kind is missing");
  if (!isString(value.kind) || !kindsAt(version).includes(value.kind)) {
    bad('kind', `kind must be one of ${kindsAt(version).join(', ')}`);
  }
  const fields = KINDS[value.kind];
  const known = (name) => name === 'kind' || (Object.hasOwn(fields, name) && (fields[name].since || 1) <= version);
  for (const name of Object.keys(value).sort(json.byCodePoint)) {
    if (!known(name)) bad(name, `field ${JSON.stringify(name)} is unknown to a ${value.kind} record of schema version ${version}`);
  }
  const out = { kind: value.kind };
  for (const [name, rule] of Object.entries(fields)) {
    if (!known(name)) continue;
    if (!Object.hasOwn(value, name)) {
      if (rule.since === undefined) bad(name, `field ${name} is missing`);
      continue;
    }
    if (!rule.check(value[name])) bad(name, `field ${name} must be ${rule.what}`);
    if (rule.since === undefined || value[name] !== rule.default) out[name] = value[name];
  }
  return out;
}

const slot = (kind, key) => `${kind}\u0000${key}`;
const utf8 = (s) => Buffer.from(s, 'utf8');

/** (kind, key) order: the UTF-8 bytes of kind, then of key. */
const byKindKey = (a, b) => Buffer.compare(utf8(a.kind), utf8(b.kind)) || Buffer.compare(utf8(a.key), utf8(b.key));

/** core.jsonl's bytes for the records of *map* (slot -> record). */
function encodeCore(map) {
  const records = [...map.values()].sort(byKindKey);
  return Buffer.from(records.map((r) => `${json.canonical(r)}\n`).join(''), 'utf8');
}

/**
 * core.jsonl's *bytes* read as records of schema *version*: a Map slot -> record, or a
 * RecordError on a line that is not a record's canonical JSON (an additive-optional field
 * equal to its default included), or a duplicated or out-of-order one.
 */
function decodeCore(bytes, version) {
  const map = new Map();
  if (bytes.length === 0) return map;
  if (bytes[bytes.length - 1] !== 0x0a) bad(null, 'core.jsonl does not end with a newline');
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    bad(null, 'core.jsonl is not UTF-8');
  }
  let previous = null;
  text.slice(0, -1).split('\n').forEach((line, i) => {
    let value;
    try {
      value = json.parse(line);
    } catch (err) {
      bad(null, `line ${i + 1} of core.jsonl is not JSON: ${err.message}`);
    }
    let record;
    try {
      record = checkRecord(value, version);
    } catch (err) {
      bad(err.member, `line ${i + 1} of core.jsonl: ${err.message}`);
    }
    if (json.canonical(record) !== line) bad(null, `line ${i + 1} of core.jsonl is not the canonical JSON of its record`);
    if (previous !== null && byKindKey(previous, record) >= 0) {
      bad(null, `line ${i + 1} of core.jsonl is duplicated or out of (kind, key) order`);
    }
    previous = record;
    map.set(slot(record.kind, record.key), record);
  });
  return map;
}

module.exports = {
  currentVersion,
  setCurrentVersion,
  kindsAt,
  RecordError,
  checkRecord,
  isKey,
  slot,
  encodeCore,
  decodeCore,
};
