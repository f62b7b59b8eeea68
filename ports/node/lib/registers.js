'use strict';
// Register packs: structural checks, the ratification gate and the loader (docs/registers.md).

const fs = require('node:fs');
const path = require('node:path');
const { sha256 } = require('./variation');
const json = require('./json');

const REQUIRED_FIELDS = [
  'register_id',
  'version',
  'description',
  'schema_version',
  'display_name',
  'depth_preference',
  'realizer_overrides',
  'discourse_markers',
];
const SEAL_FIELD = 'mastery_report_sha256';
const STRING_FIELDS = ['version', 'description', 'schema_version', 'display_name', 'depth_preference', SEAL_FIELD];
const SCHEMA_VERSIONS = ['1.0.0'];
const DEPTHS = ['terse', 'standard', 'pedagogical'];
const BUCKETS = ['openings', 'transitions', 'closings'];
const MAX_MARKERS = 32;
const MAX_MARKER_LEN = 128;
const OVERRIDE_KEYS = ['disclosure_domain_count', 'per_intent'];
const INTENTS = [
  'DEFINITION', 'CAUSE', 'PROCEDURE', 'COMPARISON', 'CORRECTION', 'RECALL',
  'VERIFICATION', 'TRANSITIVE_QUERY', 'FRAME_TRANSFER', 'NARRATIVE', 'EXAMPLE', 'UNKNOWN',
];

class EngineError extends Error {
  constructor(code, message, field) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

const refuse = (code, message, field) => {
  throw new EngineError(`REGISTER_${code}`, message, field);
};
const sorted = (keys) => [...keys].sort(json.byCodePoint);
const digest = (value) => sha256(json.canonical(value)).toString('hex');

/** The first register-id rule *id* breaks, or null. */
function idProblem(id) {
  if (typeof id !== 'string') return 'a register id must be a string';
  if (id === '') return 'a register id must not be empty';
  if ([...id].length > 64) return 'a register id has at most 64 characters';
  if (id.includes('/') || id.includes('\\')) return 'a register id has no path separator';
  if (id.includes('..')) return "a register id has no '..'";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'a register id has no control character';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id)) return 'a register id matches [A-Za-z0-9][A-Za-z0-9_.-]*';
  return null;
}

function checkId(id, field) {
  const problem = idProblem(id);
  // A parsed object has no prototype, so String() cannot convert it.
  const shown = json.isObject(id) ? 'an object' : JSON.stringify(String(id));
  if (problem) refuse('INVALID_ID', `${field} ${shown} is invalid: ${problem}`, field);
}

function checkMarkers(markers) {
  if (!json.isObject(markers)) refuse('MALFORMED', 'discourse_markers must be an object', 'discourse_markers');
  for (const key of sorted(Object.keys(markers))) {
    if (!BUCKETS.includes(key)) refuse('UNKNOWN_BUCKET', `discourse_markers.${key} is not a bucket`, `discourse_markers.${key}`);
  }
  for (const bucket of BUCKETS) {
    const where = `discourse_markers.${bucket}`;
    const items = Object.hasOwn(markers, bucket) ? markers[bucket] : [];
    if (!Array.isArray(items)) refuse('MALFORMED', `${where} must be a list`, where);
    if (items.length > MAX_MARKERS) refuse('BUCKET_TOO_LARGE', `${where} holds more than ${MAX_MARKERS} markers`, where);
    items.forEach((marker, i) => {
      if (typeof marker !== 'string') refuse('MALFORMED', `${where}[${i}] must be a string`, `${where}[${i}]`);
      if ([...marker].length > MAX_MARKER_LEN) {
        refuse('MARKER_TOO_LONG', `${where}[${i}] is longer than ${MAX_MARKER_LEN} characters`, `${where}[${i}]`);
      }
    });
  }
}

function checkFlat(values, where, allowed) {
  for (const key of sorted(Object.keys(values))) {
    if (!allowed.includes(key)) refuse('UNKNOWN_OVERRIDE', `${where}.${key} is not a known override`, `${where}.${key}`);
  }
  const depth = values.disclosure_domain_count;
  if (Object.hasOwn(values, 'disclosure_domain_count') && !(depth === 1 || depth === 2 || depth === 3)) {
    const field = `${where}.disclosure_domain_count`;
    refuse('OVERRIDE_OUT_OF_BOUNDS', `${field} must be an integer in {1, 2, 3}`, field);
  }
}

function checkOverrides(overrides) {
  const where = 'realizer_overrides';
  if (!json.isObject(overrides)) refuse('MALFORMED', `${where} must be an object`, where);
  checkFlat(overrides, where, OVERRIDE_KEYS);
  if (!Object.hasOwn(overrides, 'per_intent')) return;
  const scoped = overrides.per_intent;
  if (!json.isObject(scoped)) refuse('OVERRIDE_OUT_OF_BOUNDS', `${where}.per_intent must be an object`, `${where}.per_intent`);
  const intents = sorted(Object.keys(scoped));
  for (const intent of intents) {
    if (!INTENTS.includes(intent)) {
      refuse('UNKNOWN_INTENT', `${where}.per_intent.${intent} is not an intent name`, `${where}.per_intent.${intent}`);
    }
  }
  for (const intent of intents) {
    const field = `${where}.per_intent.${intent}`;
    if (!json.isObject(scoped[intent])) refuse('OVERRIDE_OUT_OF_BOUNDS', `${field} must be an object`, field);
    checkFlat(scoped[intent], field, ['disclosure_domain_count']);
  }
}

/** Structural validation in the documented order; returns the pack's JSON (nine fields). */
function parsePack(data, expectedId) {
  if (!json.isObject(data)) refuse('MALFORMED', 'a register pack must be a JSON object', null);
  for (const name of REQUIRED_FIELDS) {
    if (!Object.hasOwn(data, name)) refuse('MISSING_FIELD', `required field '${name}' is missing`, name);
  }
  for (const name of sorted(Object.keys(data))) {
    if (!REQUIRED_FIELDS.includes(name) && name !== SEAL_FIELD) refuse('MALFORMED', `unknown field '${name}'`, name);
  }
  for (const name of STRING_FIELDS) {
    if (Object.hasOwn(data, name) && typeof data[name] !== 'string') refuse('MALFORMED', `${name} must be a string`, name);
  }
  if (!SCHEMA_VERSIONS.includes(data.schema_version)) {
    refuse('SCHEMA_VERSION', `schema_version ${JSON.stringify(data.schema_version)} is not supported`, 'schema_version');
  }
  checkId(data.register_id, 'register_id');
  if (expectedId !== null && data.register_id !== expectedId) {
    refuse('ID_MISMATCH', `register_id '${data.register_id}' is not '${expectedId}'`, 'register_id');
  }
  if (!DEPTHS.includes(data.depth_preference)) refuse('BAD_DEPTH_PREFERENCE', 'unknown depth_preference', 'depth_preference');
  checkMarkers(data.discourse_markers);
  checkOverrides(data.realizer_overrides);
  const markers = Object.fromEntries(BUCKETS.map((b) => [b, data.discourse_markers[b] ?? []]));
  return {
    ...Object.fromEntries(REQUIRED_FIELDS.map((name) => [name, data[name]])),
    discourse_markers: markers,
    [SEAL_FIELD]: data[SEAL_FIELD] ?? '',
  };
}

function withoutSeal(pack) {
  const copy = { ...pack };
  delete copy[SEAL_FIELD];
  return copy;
}

/** The ratification gate without an evidence probe: the sealed report and the sealed pack. */
function ratify(pack) {
  const markers = pack.discourse_markers;
  const overrideKeys = sorted(Object.keys(pack.realizer_overrides));
  const isNull = overrideKeys.length === 0 && markers.openings.length === 0 && markers.closings.length === 0;
  if (isNull && pack.depth_preference !== 'standard') {
    refuse('EMPTY_NON_NULL', 'a pack with no overrides and no markers must have depth_preference standard', 'depth_preference');
  }
  const methods = [];
  if (isNull) methods.push('byte_identity_null_lift');
  if (overrideKeys.length) methods.push('known_key_overrides_invariant_grounding');
  if (markers.openings.length || markers.closings.length) methods.push('seeded_variation_replay_equivalence');
  const scoped = pack.realizer_overrides.per_intent;
  const report = {
    register_id: pack.register_id,
    pack_version: pack.version,
    pack_source_sha256: digest(withoutSeal(pack)),
    schema_version: '1.0.0',
    verdict: 'ratified',
    methods: sorted(methods),
    evidence: {
      marker_bucket_sizes: Object.fromEntries(BUCKETS.map((b) => [b, markers[b].length])),
      per_intent_keys: json.isObject(scoped) ? sorted(Object.keys(scoped)) : [],
      transitions_reserved: markers.transitions.length > 0,
      realizer_overrides_keys: overrideKeys,
      null_register: isNull,
    },
  };
  report.seal = digest(report);
  return { report, pack: { ...pack, [SEAL_FIELD]: report.seal } };
}

// Loading -----------------------------------------------------------------------------------

function readJson(file, code, what, field = null) {
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(fs.readFileSync(file));
    return { text, data: json.parse(text) };
  } catch (err) {
    return refuse(code, `${what} ${file} cannot be read as UTF-8 JSON: ${err.message}`, field);
  }
}

function findPack(id, searchPath) {
  for (const dir of searchPath) {
    const file = path.join(dir, `${id}.json`);
    if (fs.existsSync(file)) return file;
  }
  return refuse('NOT_FOUND', `no pack ${id}.json in ${searchPath.join(', ')}`, 'register_id');
}

/** The pack at *file*, read and parsed; a malformed pack the gate sealed is TAMPERED. */
function readPack(file, id, sealed) {
  try {
    const { text, data } = readJson(file, 'MALFORMED', 'pack');
    return { text, pack: parsePack(data, id) };
  } catch (err) {
    if (sealed && err instanceof EngineError && err.code === 'REGISTER_MALFORMED') {
      refuse('TAMPERED', `pack ${id} was changed since it was ratified: ${err.message}`, err.field);
    }
    throw err;
  }
}

/** The sealed mastery report beside a pack; every check of docs/registers.md step 7. */
function readReport(reportFile, id) {
  const { text, data: report } = readJson(reportFile, 'SEAL_MISMATCH', 'report', 'mastery_report');
  const mismatch = (why, field) => refuse('SEAL_MISMATCH', `report of ${id}: ${why}`, field);
  if (!json.isObject(report) || typeof report.seal !== 'string') {
    mismatch('not a sealed report', 'mastery_report');
  }
  const unsealed = { ...report };
  delete unsealed.seal;
  let selfSeal;
  try {
    selfSeal = digest(unsealed);
  } catch (err) {
    mismatch(err.message, 'mastery_report');
  }
  if (selfSeal !== report.seal) mismatch('its self-seal does not verify', 'mastery_report');
  if (json.pretty(report) !== text) mismatch('it is not in normal form', 'mastery_report');
  if (report.register_id !== id) mismatch('it names another register', 'mastery_report.register_id');
  if (report.verdict !== 'ratified') mismatch('its verdict is not ratified', 'mastery_report.verdict');
  return report;
}

/** Load a ratified pack along *searchPath* (the shipped directory last); every check runs. */
function loadPack(id, searchPath) {
  checkId(id, 'register_id');
  if (id === 'unregistered') {
    refuse('NOT_FOUND', "'unregistered' is the sentinel's id, never loaded from a file", 'register_id');
  }
  const file = findPack(id, searchPath);
  const reportFile = path.join(path.dirname(file), `${id}.mastery_report.json`);
  const { text, pack } = readPack(file, id, fs.existsSync(reportFile));
  if (!pack[SEAL_FIELD] || !fs.existsSync(reportFile)) {
    refuse('NOT_RATIFIED', `pack ${id} is not ratified; run python -m reference ratify ${file}`, SEAL_FIELD);
  }
  const report = readReport(reportFile, id);
  if (pack[SEAL_FIELD] !== report.seal) {
    refuse('SEAL_MISMATCH', `the pack's mastery_report_sha256 is not the seal of ${id}'s report`, SEAL_FIELD);
  }
  if (digest(withoutSeal(pack)) !== report.pack_source_sha256) {
    refuse('TAMPERED', `pack ${id} differs from the pack that was ratified`, 'pack_source_sha256');
  }
  if (json.pretty(pack) !== text) refuse('TAMPERED', `pack ${id} is not in normal form`, null);
  return pack;
}

module.exports = { EngineError, INTENTS, parsePack, ratify, loadPack, checkId };
