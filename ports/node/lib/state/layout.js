'use strict';
// The names of a state directory's entries (docs/state.md § Directory layout).

const LOCK = 'LOCK';
const CURRENT = 'CURRENT';
const CURRENT_TMP = 'CURRENT.tmp';
const CORE = 'core.jsonl';
const DELTA = 'delta.jsonl';
const MANIFEST = 'manifest.json';
const JOURNALS = { proposals: 'proposals.journal', overflow: 'overflow.journal', lineage: 'lineage.journal' };
const MAX_GENERATION = 99999999;
const GENERATION = /^gen-([0-9]{8})$/;

/** "gen-" and *n* as 8 decimal digits. */
const generationName = (n) => `gen-${String(n).padStart(8, '0')}`;

/** The number a generation's name holds, or null for any other name (gen-00000000 included). */
function generationNumber(name) {
  const match = GENERATION.exec(name);
  if (!match) return null;
  const n = Number(match[1]);
  return n >= 1 ? n : null;
}

const isStaging = (name) => name.startsWith('staging-');
const stagingName = (n) => `staging-${n}`;

module.exports = {
  LOCK,
  CURRENT,
  CURRENT_TMP,
  CORE,
  DELTA,
  MANIFEST,
  JOURNALS,
  MAX_GENERATION,
  generationName,
  generationNumber,
  isStaging,
  stagingName,
};
