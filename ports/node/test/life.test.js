'use strict';
// The persisted life (docs/state.md § The life; docs/protocol.md § Sessions on a store):
// bit patterns read back bit for bit, the record rules per schema version, and a session
// on a store that resumes its life in a fresh engine answers as the uninterrupted one.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Engine } = require('../lib/protocol');
const { rotorBits, rotorOf } = require('../lib/state/life');
const { checkRecord, RecordError } = require('../lib/state/records');

const DATA = path.join(__dirname, '..', '..', '..', 'reference');
const PROMPTS = [
  'Parent is a kind of relative.',
  'What did I say about parent?',
  'No, parent is kin.',
  'Tell me more about it.',
  'What have I told you so far?',
];

function call(engine, op, args) {
  const response = engine.handle({ id: 1, op, args });
  if (!response.ok) throw new Error(`${op}: ${response.error.code} ${response.error.field}`);
  return response.result;
}

function refusal(engine, op, args) {
  const response = engine.handle({ id: 1, op, args });
  assert.strictEqual(response.ok, false, `${op} was answered`);
  return [response.error.code, response.error.field];
}

function withDir(body) {
  const where = fs.mkdtempSync(path.join(os.tmpdir(), 'core-node-life-'));
  try {
    body(path.join(where, 'life'));
  } finally {
    fs.rmSync(where, { recursive: true, force: true });
  }
}

test('a rotor written as bit patterns reads back bit for bit', () => {
  const rotor = [1, -0, 0.1, -1e-300, 5e-324, Number.MAX_VALUE, 1 / 3, ...new Array(25).fill(0)];
  const bits = rotorBits(rotor);
  assert.strictEqual(bits[0], '3ff0000000000000');
  assert.strictEqual(bits[1], '8000000000000000');
  assert.ok(rotorOf(bits).every((x, i) => Object.is(x, rotor[i])));
});

test('life and vault records are known from schema 4 only, with their keys', () => {
  const life = { kind: 'life', key: 'life', turns: 0, context: null, rotor: new Array(32).fill('0000000000000000') };
  assert.deepStrictEqual(checkRecord(life, 4), life);
  assert.throws(() => checkRecord(life, 3), (err) => err instanceof RecordError && err.member === 'kind');
  assert.throws(() => checkRecord({ ...life, key: 'other' }, 4), (err) => err.member === 'key');
  assert.throws(() => checkRecord({ ...life, rotor: ['3FF0000000000000'] }, 4), (err) => err.member === 'rotor');
  const vault = { kind: 'vault', key: 'a'.repeat(64), lemma: 'x', count: 1, first_turn: 0, last_turn: 0, latest_claim: null, said: [] };
  assert.deepStrictEqual(checkRecord(vault, 4), vault);
  assert.throws(() => checkRecord({ ...vault, key: 'A'.repeat(64) }, 4), (err) => err.member === 'key');
  const said = { claim: null, text: 't', turn_idx: 0 };
  assert.throws(() => checkRecord({ ...vault, said: [said, said, said, said] }, 4), (err) => err.member === 'said');
  assert.throws(() => checkRecord({ ...vault, said: [{ ...said, extra: 1 }] }, 4), (err) => err.member === 'said');
});

test('a life resumed by a fresh engine answers as the uninterrupted session', () => {
  const whole = new Engine(DATA);
  const session = call(whole, 'session.open', { register_id: 'terse_v1' }).session;
  const expected = PROMPTS.map((text) => call(whole, 'session.chat', { session, text }));
  withDir((dir) => {
    const got = [];
    for (const [from, to] of [[0, 2], [2, 5]]) {
      const engine = new Engine(DATA);
      const store = call(engine, 'state.open', { dir }).store;
      const opened = call(engine, 'session.open', { register_id: 'terse_v1', store });
      assert.strictEqual(opened.turn_idx, from);
      for (const text of PROMPTS.slice(from, to)) got.push(call(engine, 'session.chat', { session: opened.session, text }));
      assert.strictEqual(call(engine, 'state.digest', { store }).dirty, false);
      engine.state.releaseAll();
    }
    assert.deepStrictEqual(got, expected);
  });
});

test('one life per store; a turn on a closed store ends its session', () => {
  withDir((dir) => {
    const engine = new Engine(DATA);
    const store = call(engine, 'state.open', { dir }).store;
    const first = call(engine, 'session.open', { register_id: null, store }).session;
    assert.deepStrictEqual(refusal(engine, 'session.open', { register_id: null, store }), ['STATE_IN_USE', 'store']);
    assert.deepStrictEqual(refusal(engine, 'session.open', { register_id: null, store: 'nope' }), ['STATE_NOT_OPEN', 'store']);
    assert.deepStrictEqual(refusal(engine, 'session.open', { register_id: null, store: 7 }), ['PROTOCOL_BAD_ARGS', 'store']);
    call(engine, 'state.close', { store });
    const turn = { session: first, text: 'What is light?' };
    assert.deepStrictEqual(refusal(engine, 'session.chat', turn), ['STATE_NOT_OPEN', 'store']);
    assert.strictEqual(refusal(engine, 'session.chat', turn)[0], 'SESSION_UNKNOWN');
  });
});

test('an engine that does not claim state.life stays at schema 3 and knows no store argument', () => {
  const engine = new Engine(DATA, ['state', 'sessions']);
  assert.ok(!call(engine, 'hello', {}).capabilities.includes('state.life'));
  withDir((dir) => {
    assert.strictEqual(call(engine, 'state.open', { dir }).schema_version, 3);
    engine.state.releaseAll();
  });
  assert.deepStrictEqual(refusal(engine, 'session.open', { register_id: null, store: 'st1' }), ['PROTOCOL_BAD_ARGS', 'store']);
  new Engine(DATA);
});
