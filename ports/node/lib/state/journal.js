'use strict';
// Framed journals (docs/state.md § Journals): "<length> <crc32> <payload>\n" lines, torn
// tails cut, corrupt lines reported by number and skipped.

const zlib = require('node:zlib');
const json = require('../json');

const HEADER = /^([0-9a-f]{8}) ([0-9a-f]{8}) /;

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO-HDLC, as zlib computes it) of *bytes*. */
function crc32(bytes) {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(bytes) >>> 0;
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const hex8 = (n) => n.toString(16).padStart(8, '0');

/** Throw when *value* holds a number canonical JSON does not encode (one that is not an integer). */
function checkEncodable(value) {
  if (value instanceof json.Float) throw new TypeError('a number that is not an integer');
  if (Array.isArray(value)) value.forEach(checkEncodable);
  else if (json.isObject(value)) Object.values(value).forEach(checkEncodable);
}

/** One framed line holding the canonical JSON of *payload* (a TypeError when it has none). */
function frame(payload) {
  checkEncodable(payload);
  const body = Buffer.from(json.canonical(payload), 'utf8');
  return Buffer.concat([Buffer.from(`${hex8(body.length)} ${hex8(crc32(body))} `, 'ascii'), body, Buffer.from('\n')]);
}

/**
 * The payload of one complete line: {entry}, {short} (shorter than its length), {checked}
 * (its frame checks but its payload is not a JSON object: corrupt) or {} (corrupt).
 */
function readLine(line) {
  const header = HEADER.exec(line.subarray(0, 18).toString('latin1'));
  if (!header) return {};
  const body = line.subarray(18);
  const length = parseInt(header[1], 16);
  if (body.length < length) return { short: true };
  if (body.length !== length || crc32(body) !== parseInt(header[2], 16)) return {};
  try {
    const entry = json.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body));
    return json.isObject(entry) ? { entry } : { checked: true };
  } catch {
    return { checked: true };
  }
}

/**
 * A journal's *bytes* read: {entries, skipped (1-based line numbers), notObjects (those of
 * them whose frame checks), cut (bytes of the torn tail), keep (bytes up to the end of the
 * last complete line)}.
 */
function parseJournal(bytes) {
  const entries = [];
  const skipped = [];
  const notObjects = [];
  let start = 0;
  let number = 0;
  while (start < bytes.length) {
    number += 1;
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) return { entries, skipped, notObjects, cut: bytes.length - start, keep: start };
    const read = readLine(bytes.subarray(start, end));
    if (read.short && end + 1 === bytes.length) return { entries, skipped, notObjects, cut: bytes.length - start, keep: start };
    if (read.entry !== undefined) entries.push(read.entry);
    else skipped.push(number);
    if (read.checked) notObjects.push(number);
    start = end + 1;
  }
  return { entries, skipped, notObjects, cut: 0, keep: bytes.length };
}

module.exports = { crc32, frame, parseJournal };
