'use strict';
// The Node engine's encoder against the suite's canonical-JSON known-answer vectors.

const test = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const json = require('../lib/json');

const FILE = path.join(__dirname, '..', '..', '..', 'conformance', 'data', 'vectors', 'canonical.jsonl');
const VECTORS = fs.readFileSync(FILE, 'ascii').split('\n').filter(Boolean).map(json.parse);
const sha256 = (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** The identity input: "core-state/<version>\n" and the records' lines in (kind, key) UTF-8 byte order. */
function identityText(value) {
  const utf8 = (s) => Buffer.from(s, 'utf8');
  const records = [...value.records].sort(
    (a, b) => Buffer.compare(utf8(a.kind), utf8(b.kind)) || Buffer.compare(utf8(a.key), utf8(b.key)),
  );
  return `core-state/${value.schema_version}\n${records.map((r) => `${json.canonical(r)}\n`).join('')}`;
}

for (const vector of VECTORS) {
  test(vector.name, () => {
    if (vector.canonical === null) {
      assert.throws(() => json.canonical(vector.value));
      return;
    }
    const text = vector.structure === 'state_identity' ? identityText(vector.value) : json.canonical(vector.value);
    assert.strictEqual(text, vector.canonical);
    assert.strictEqual(sha256(text), vector.sha256);
  });
}
