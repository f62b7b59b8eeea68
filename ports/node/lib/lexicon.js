'use strict';
// The lexicon: every lemma of every language pack shipped as data (docs/protocol.md § lexicon.list).

const fs = require('node:fs');
const path = require('node:path');
const json = require('./json');

/** One row per lemma of every language pack in *dir*, sorted by lemma (code point order). */
function lexiconRows(dir) {
  const rows = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const pack = json.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    if (!json.isObject(pack) || typeof pack.pack_id !== 'string' || !Array.isArray(pack.lemmas)) continue;
    for (const entry of pack.lemmas) {
      rows.push({
        lemma: entry.lemma,
        pack: pack.pack_id,
        pos: entry.pos,
        has_gloss: typeof entry.gloss === 'string',
      });
    }
  }
  return rows.sort((a, b) => json.byCodePoint(a.lemma, b.lemma));
}

module.exports = { lexiconRows };
