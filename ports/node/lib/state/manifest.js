'use strict';
// Identity and manifests (docs/state.md § The manifest, § Schema versions, § Identity).

const crypto = require('node:crypto');
const json = require('../json');
const { currentVersion } = require('./records');
const { refuse } = require('./errors');
const { CORE, DELTA } = require('./layout');

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The schema version from which the identity hashes each core line's digest (docs/state.md § Identity). */
const LINE_DIGESTS_SINCE = 5;

/** The lines of *core* (each with its "\n"; a last line without one kept as it is). */
function coreLines(core) {
  const lines = [];
  let start = 0;
  while (start < core.length) {
    const end = core.indexOf(0x0a, start);
    const stop = end === -1 ? core.length : end + 1;
    lines.push(core.subarray(start, stop));
    start = stop;
  }
  return lines;
}

/**
 * The state identity of *core* at *version*: before version 5 sha256_hex(b"core-state/" +
 * ascii(version) + b"\n" + core bytes), from it over the prefix and each line's raw SHA-256.
 */
function identity(version, core) {
  const prefix = Buffer.from(`core-state/${version}\n`, 'ascii');
  if (version < LINE_DIGESTS_SINCE) return sha256(Buffer.concat([prefix, core]));
  const digests = coreLines(core).map((line) => crypto.createHash('sha256').update(line).digest());
  return sha256(Buffer.concat([prefix, ...digests]));
}

const REQUIRED = ['checksum', 'files', 'generation', 'identity', 'turn_count'];
const isNonNegative = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isPlainName = (name) => name !== '' && name !== '.' && name !== '..' && !name.includes('/');

/** manifest.json's bytes for generation *generation* holding *core*. */
function encodeManifest(generation, core, turnCount) {
  const body = {
    files: { [CORE]: sha256(core) },
    generation,
    identity: identity(currentVersion(), core),
    schema_version: currentVersion(),
    turn_count: turnCount,
  };
  return Buffer.from(`${json.canonical({ ...body, checksum: sha256(json.canonical(body)) })}\n`, 'utf8');
}

/**
 * The schema version of a manifest that parsed as an object with the other required
 * fields: refuses a newer one (STATE_SCHEMA_TOO_NEW) and a missing, non-integer or
 * non-positive one (STATE_SCHEMA_MALFORMED).
 */
function schemaVersion(manifest) {
  const v = manifest.schema_version;
  if (!Object.hasOwn(manifest, 'schema_version') || !(typeof v === 'number' && Number.isInteger(v)) || v < 1) {
    refuse('STATE_SCHEMA_MALFORMED', `schema_version ${describeValue(v)} is not a positive integer`, 'schema_version');
  }
  if (v > currentVersion()) {
    refuse('STATE_SCHEMA_TOO_NEW', `schema_version ${v} is newer than this engine's ${currentVersion()}`, 'schema_version');
  }
  return v;
}

function describeValue(v) {
  if (v === undefined) return '(missing)';
  try {
    return json.wire(v);
  } catch {
    return String(v);
  }
}

/**
 * *bytes* read as a manifest: {manifest, version} when it parses as an object with its
 * required fields (a schema refusal is thrown), else {problem} saying why it is invalid.
 */
function parseManifest(bytes) {
  let manifest;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    manifest = json.parse(text, { membersOnce: true });
  } catch {
    return { problem: 'its manifest is not JSON' };
  }
  if (!json.isObject(manifest)) return { problem: 'its manifest is not an object' };
  const missing = REQUIRED.filter((name) => !Object.hasOwn(manifest, name));
  if (missing.length > 0) return { problem: `its manifest lacks ${missing.join(', ')}` };
  return { manifest, version: schemaVersion(manifest) };
}

/** Why *manifest*'s own fields make its generation invalid, or null (its files are checked apart). */
function manifestProblem(manifest, number) {
  const { checksum, ...body } = manifest;
  let expected;
  try {
    expected = sha256(json.canonical(body));
  } catch {
    return 'its manifest holds a value canonical JSON cannot encode';
  }
  if (checksum !== expected) return 'its manifest checksum does not match';
  const files = manifest.files;
  const main = Object.hasOwn(manifest, 'base') ? DELTA : CORE;
  if (!json.isObject(files) || !Object.hasOwn(files, main)) return `its manifest's files do not list ${main}`;
  const names = Object.keys(files);
  if (!names.every(isPlainName)) return "its manifest's files list a name that is not a plain file name";
  if (!names.every((name) => typeof files[name] === 'string')) return "its manifest's files hold a digest that is not a string";
  if (manifest.generation !== number) return `its manifest names generation ${describeValue(manifest.generation)}`;
  if (!isNonNegative(manifest.turn_count)) return 'its manifest turn_count is not an integer >= 0';
  if (typeof manifest.identity !== 'string') return 'its manifest identity is not a string';
  return null;
}

/**
 * The base a delta generation's manifest names ({base: {generation, core}}, or {base: null}
 * for a full generation), or {problem} when its base member is not one (docs/state.md §
 * Delta generations).
 */
function manifestBase(manifest, version, number) {
  if (!Object.hasOwn(manifest, 'base')) return { base: null };
  const base = manifest.base;
  if (version < 5) return { problem: `its manifest names a base at schema version ${version}` };
  if (!json.isObject(base) || Object.keys(base).sort().join(',') !== 'core,generation') {
    return { problem: 'its manifest base is not an object of core and generation' };
  }
  if (!isNonNegative(base.generation) || base.generation < 1 || typeof base.core !== 'string') {
    return { problem: 'its manifest base is malformed' };
  }
  if (base.generation >= number) return { problem: 'its manifest base is not an earlier generation' };
  return { base: { generation: base.generation, core: base.core } };
}

module.exports = { sha256, identity, encodeManifest, parseManifest, manifestProblem, manifestBase };
