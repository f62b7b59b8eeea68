'use strict';
// Loading a state directory (docs/state.md § Recovery rules): the generation CURRENT
// names, else a fall back to the newest valid one; what cannot be read is refused.

const { CURRENT, CORE, DELTA, MANIFEST, generationName, generationNumber } = require('./layout');
const { currentVersion, RecordError, decodeCore, encodeCore } = require('./records');
const { sha256, identity, parseManifest, manifestProblem, manifestBase } = require('./manifest');
const { applyDelta, DeltaDamaged } = require('./delta');
const { refuse } = require('./errors');

const POINTER = /^gen-([0-9]{8})\n$/;

/** A fresh state: no records, turn count 0, the current schema version. */
function freshState() {
  const core = Buffer.alloc(0);
  return {
    fresh: true,
    generation: 0,
    version: currentVersion(),
    records: new Map(),
    turnCount: 0,
    core,
    identity: identity(currentVersion(), core),
    recovered: null,
    pointer: null,
    generations: [],
  };
}

/**
 * Generation *n* of *dir* read and checked: {state} when valid, {problem} when proven
 * invalid; refusals (unreadable, a link, a schema version, a malformed record) are thrown.
 * *reading*: a load's read (STATE_UNREADABLE), not a writer's (STATE_IO).
 */
function readGeneration(dir, n, reading = true) {
  const name = generationName(n);
  const sub = dir.subdir(name, reading);
  if (sub === null) return { problem: `${name} does not exist` };
  return sub.use(reading, () => checkGeneration(dir, sub, n, reading));
}

function checkGeneration(dir, sub, n, reading) {
  const name = generationName(n);
  const manifestBytes = sub.read(MANIFEST, reading);
  if (manifestBytes === null) return { problem: `${name} has no ${MANIFEST}` };
  const parsed = parseManifest(manifestBytes);
  if (parsed.problem) return { problem: `${name}: ${parsed.problem}` };
  const { manifest, version } = parsed;
  const problem = manifestProblem(manifest, n);
  if (problem) return { problem: `${name}: ${problem}` };
  const named = manifestBase(manifest, version, n);
  if (named.problem) return { problem: `${name}: ${named.problem}` };
  const files = {};
  for (const file of Object.keys(manifest.files).sort()) {
    const bytes = sub.read(file, reading);
    if (bytes === null) return { problem: `${name}: listed file ${file} is missing` };
    if (sha256(bytes) !== manifest.files[file]) return { problem: `${name}: the SHA-256 of ${file} does not match` };
    files[file] = bytes;
  }
  if (named.base !== null) return checkDelta(dir, sub, n, reading, { manifest, version, base: named.base, delta: files[DELTA] });
  const core = files[CORE];
  if (manifest.identity !== identity(version, core)) return { problem: `${name}: its identity does not match its core` };
  let records;
  try {
    records = decodeCore(core, version);
  } catch (err) {
    if (err instanceof RecordError) refuse('STATE_RECORD_MALFORMED', `${sub.where(CORE)}: ${err.message}`);
    throw err;
  }
  return { state: { generation: n, version, records, turnCount: manifest.turn_count, core, identity: manifest.identity, base: null } };
}

/**
 * A delta generation (docs/state.md § Delta generations): its base must be a valid full
 * generation of schema version 5 whose core has the SHA-256 named, its frames must check
 * (else it is proven invalid), and its entries applied to the base give its identity.
 */
function checkDelta(dir, sub, n, reading, { manifest, version, base, delta }) {
  const name = generationName(n);
  const baseName = generationName(base.generation);
  const read = readGeneration(dir, base.generation, reading);
  if (read.problem) return { problem: `${name}: its base is not valid (${read.problem})` };
  if (read.state.base !== null || read.state.version < 5) return { problem: `${name}: its base ${baseName} is not a full generation` };
  if (sha256(read.state.core) !== base.core) return { problem: `${name}: its base ${baseName} has another core` };
  let records;
  try {
    records = applyDelta(read.state.records, delta, version);
  } catch (err) {
    if (err instanceof DeltaDamaged) return { problem: `${name}: ${err.message}` };
    if (err instanceof RecordError) refuse('STATE_RECORD_MALFORMED', `${sub.where(DELTA)}: ${err.message}`);
    throw err;
  }
  const core = encodeCore(records);
  if (manifest.identity !== identity(version, core)) return { problem: `${name}: its identity does not match its records` };
  return {
    state: { generation: n, version, records, turnCount: manifest.turn_count, core, identity: manifest.identity, base: base.generation },
  };
}

/** The generation number *bytes* (CURRENT's content) names, or why it names none. */
function readPointer(bytes) {
  if (bytes === null) return { why: 'CURRENT is missing' };
  if (bytes.length === 0) return { why: 'CURRENT is empty' };
  const match = POINTER.exec(bytes.toString('latin1'));
  const n = match ? Number(match[1]) : 0;
  if (n < 1 || bytes.some((b) => b > 0x7f)) return { why: 'CURRENT does not hold a generation name and a newline' };
  return { n };
}

/** The state *dir* holds (null: the directory does not exist), by the recovery rules. */
function loadState(dir) {
  if (dir === null) return freshState();
  const names = dir.names(true);
  const generations = names.map(generationNumber).filter((n) => n !== null).sort((a, b) => a - b);
  const pointerBytes = dir.read(CURRENT, true);
  if (pointerBytes === null && generations.length === 0) return { ...freshState(), fresh: true };
  const pointer = readPointer(pointerBytes);
  let why = pointer.why;
  if (pointer.n !== undefined) {
    const read = generations.includes(pointer.n)
      ? readGeneration(dir, pointer.n)
      : { problem: `CURRENT names ${generationName(pointer.n)}, which does not exist` };
    if (read.state) return { ...read.state, fresh: false, recovered: null, pointer: pointer.n, generations };
    why = read.problem.startsWith('CURRENT') ? read.problem : `CURRENT names an invalid generation: ${read.problem}`;
  }
  const tried = [];
  for (const n of [...generations].reverse()) {
    if (n === pointer.n) continue;
    const read = readGeneration(dir, n);
    if (read.state) {
      const recovered = `${why}; fell back to ${generationName(n)}${tried.length ? ` (past ${tried.join(', ')})` : ''}`;
      return { ...read.state, fresh: false, recovered, pointer: pointer.n ?? null, generations };
    }
    tried.push(read.problem);
  }
  return refuse('STATE_CORRUPT', `no valid generation in ${dir.shown}: ${why}${tried.length ? `; ${tried.join('; ')}` : ''}`);
}

module.exports = { freshState, readGeneration, loadState };
