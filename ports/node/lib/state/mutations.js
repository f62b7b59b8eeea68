'use strict';
// state.apply's batches (docs/state.md § Mutations, § Refusals): checked whole, then applied.

const json = require('../json');
const { currentVersion, kindsAt, RecordError, checkRecord, isKey, slot } = require('./records');
const { refuse } = require('./errors');

const MEMBERS = { put: ['op', 'record'], delete: ['op', 'kind', 'key'], turn: ['op'] };

/** STATE_BAD_MUTATION with *field*; the message names its last component, without an index. */
function badMutation(field, problem) {
  const last = field.split('.').pop().replace(/\[\d+\]$/, '');
  refuse('STATE_BAD_MUTATION', `${last}: ${problem} (${field})`, field);
}

/** Mutation *i* checked: a function that applies it to a {records, turnCount} state. */
function checkMutation(mutation, i) {
  const at = `mutations[${i}]`;
  if (!json.isObject(mutation)) badMutation(at, 'a mutation must be an object');
  if (!Object.hasOwn(mutation, 'op')) badMutation(`${at}.op`, 'the op is missing');
  const { op } = mutation;
  if (typeof op !== 'string' || !Object.hasOwn(MEMBERS, op)) badMutation(`${at}.op`, 'op must be put, delete or turn');
  for (const name of Object.keys(mutation).sort(json.byCodePoint)) {
    if (!MEMBERS[op].includes(name)) badMutation(`${at}.${name}`, `a ${op} has no member ${JSON.stringify(name)}`);
  }
  for (const name of MEMBERS[op]) {
    if (!Object.hasOwn(mutation, name)) badMutation(`${at}.${name}`, `a ${op} needs ${name}`);
  }
  if (op === 'turn') return (state) => {
    state.turnCount += 1;
  };
  if (op === 'delete') {
    const { kind, key } = mutation;
    const kinds = kindsAt(currentVersion());
    if (typeof kind !== 'string' || !kinds.includes(kind)) badMutation(`${at}.kind`, `kind must be one of ${kinds.join(', ')}`);
    if (!isKey(key)) badMutation(`${at}.key`, 'key must be a string of 1 to 128 characters');
    return (state) => {
      state.records.delete(slot(kind, key));
    };
  }
  let record;
  try {
    record = checkRecord(mutation.record, currentVersion());
  } catch (err) {
    if (!(err instanceof RecordError)) throw err;
    badMutation(err.member === null ? `${at}.record` : `${at}.record.${err.member}`, err.message);
  }
  return (state) => {
    state.records.set(slot(record.kind, record.key), record);
  };
}

/** Check every mutation of *mutations*, then apply them all to *state*. */
function applyBatch(state, mutations) {
  const steps = mutations.map(checkMutation);
  for (const step of steps) step(state);
}

module.exports = { applyBatch };
