'use strict';
// Identity and manifests (docs/state.md § The manifest, § Schema versions, § Identity).

const crypto = require('node:crypto');
const json = require('../json');
const { currentVersion } = require('./records');
const { refuse } = require('./errors');
const { CORE } = require('./layout');

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** sha256_hex(b"core-state/" + ascii(version) + b"\n" + core bytes). */
const identity = (version, core) => sha256(Buffer.concat([Buffer.from(`core-state/${version}\n`, 'ascii'), core]));

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
    manifest = json.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
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
  if (!json.isObject(files) || !Object.hasOwn(files, CORE)) return `its manifest's files do not list ${CORE}`;
  const names = Object.keys(files);
  if (!names.every(isPlainName)) return "its manifest's files list a name that is not a plain file name";
  if (!names.every((name) => typeof files[name] === 'string')) return "its manifest's files hold a digest that is not a string";
  if (manifest.generation !== number) return `its manifest names generation ${describeValue(manifest.generation)}`;
  if (!isNonNegative(manifest.turn_count)) return 'its manifest turn_count is not an integer >= 0';
  if (typeof manifest.identity !== 'string') return 'its manifest identity is not a string';
  return null;
}

module.exports = { sha256, identity, encodeManifest, parseManifest, manifestProblem };
