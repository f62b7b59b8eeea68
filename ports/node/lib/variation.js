'use strict';
// Seeded variation and the disclosure-depth override, as docs/spec.md § Normative formulas states.

const crypto = require('node:crypto');
const { isObject } = require('./json');

const sha256 = (text) => crypto.createHash('sha256').update(text, 'utf8').digest();

/** bucket index = first 8 bytes of sha256("trace|register|turn|bucket"), big-endian, mod len. */
function selectIndex(bucket, traceHash, registerId, turnIdx, bucketName) {
  if (bucket.length === 0) return null;
  const digest = sha256(`${traceHash}|${registerId}|${String(turnIdx)}|${bucketName}`);
  return Number(digest.readBigUInt64BE(0) % BigInt(bucket.length));
}

function pick(bucket, ...seed) {
  const index = selectIndex(bucket, ...seed);
  return index === null ? '' : bucket[index];
}

function variantId(opening, closing) {
  if (opening === '' && closing === '') return '';
  return sha256(`${opening}|${closing}`).toString('hex').slice(0, 12);
}

function decorate(surface, markers, registerId, traceHash, turnIdx) {
  const opening = pick(markers.openings, traceHash, registerId, turnIdx, 'openings');
  const closing = pick(markers.closings, traceHash, registerId, turnIdx, 'closings');
  const body = opening === '' ? surface : `${opening} ${surface}`;
  return { decorated: body + closing, opening, closing, register_variant_id: variantId(opening, closing) };
}

const DEPTH_KEY = 'disclosure_domain_count';
const validDepth = (v) => v === 1 || v === 2 || v === 3;

/** per_intent[intent] over the flat key over 3; a malformed value clamps to 3. */
function resolveDepth(overrides, intent) {
  const scoped = overrides.per_intent;
  const entry = isObject(scoped) && Object.hasOwn(scoped, intent) ? scoped[intent] : undefined;
  if (isObject(entry) && Object.hasOwn(entry, DEPTH_KEY)) {
    return validDepth(entry[DEPTH_KEY]) ? entry[DEPTH_KEY] : 3;
  }
  if (Object.hasOwn(overrides, DEPTH_KEY)) {
    return validDepth(overrides[DEPTH_KEY]) ? overrides[DEPTH_KEY] : 3;
  }
  return 3;
}

module.exports = { sha256, selectIndex, decorate, resolveDepth };
