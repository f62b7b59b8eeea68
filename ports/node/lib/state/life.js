'use strict';
// A session's life as core records (docs/state.md § The life): the `life` record (turns,
// latest subject, the field's rotor as bit patterns) and one `vault` record per address,
// and back. A bit pattern is a double's IEEE-754 bits, big-endian, in 16 lowercase hex
// digits, so the core holds no float and reading it back gives the same double bit for bit.

const { slot } = require('./records');

/** Each coefficient of *rotor* as its big-endian bit pattern. */
function rotorBits(rotor) {
  const bytes = Buffer.alloc(8);
  return rotor.map((x) => {
    bytes.writeDoubleBE(x, 0);
    return bytes.toString('hex');
  });
}

/** The coefficients whose bit patterns are *bits*. */
const rotorOf = (bits) => bits.map((b) => Buffer.from(b, 'hex').readDoubleBE(0));

/** The `life` record of *life* ({turns, context, rotor}). */
const lifeRecord = (life) => ({ kind: 'life', key: 'life', turns: life.turns, context: life.context, rotor: rotorBits(life.rotor) });

/** The `vault` record of one tally, keyed by its address. */
const vaultRecord = (hit) => ({
  kind: 'vault',
  key: hit.address,
  lemma: hit.lemma,
  count: hit.count,
  first_turn: hit.first_turn,
  last_turn: hit.last_turn,
  latest_claim: hit.latest_claim,
  said: hit.said.map((s) => ({ claim: s.claim, text: s.text, turn_idx: s.turn_idx })),
});

/** The tally a `vault` record holds. */
const hitOf = (record) => ({
  address: record.key,
  count: record.count,
  first_turn: record.first_turn,
  last_turn: record.last_turn,
  latest_claim: record.latest_claim,
  lemma: record.lemma,
  said: record.said.map((s) => ({ claim: s.claim, text: s.text, turn_idx: s.turn_idx })),
});

/**
 * The life core *records* (slot -> record) hold: {turns, context, rotor, hits}, or null when
 * they hold no `life` record (a fresh life; `vault` records alone are not a life).
 */
function lifeOf(records) {
  const found = records.get(slot('life', 'life'));
  if (found === undefined) return null;
  const hits = [...records.values()].filter((r) => r.kind === 'vault').map(hitOf);
  return { turns: found.turns, context: found.context, rotor: rotorOf(found.rotor), hits };
}

module.exports = { rotorBits, rotorOf, lifeRecord, vaultRecord, lifeOf };
