'use strict';
// state.soak (docs/protocol.md § Persisted-state ops): checkpoints in a loop, each
// announced by a begin event and acknowledged by an ack event once durable.

const crypto = require('node:crypto');
const { Store } = require('./store');

/** Iteration *i*'s mutations under *seed*: a recognizer put, every third a delete, and a turn. */
function soakMutations(seed, i) {
  const h = crypto.createHash('sha256').update(`core-node-soak|${seed}|${i}`, 'utf8').digest();
  const record = { kind: 'recognizer', key: `soak-${h[0] % 8}`, pattern: h.subarray(1, 9).toString('hex'), weight: h.readUInt16BE(9) };
  const mutations = [{ op: 'put', record }, { op: 'turn' }];
  if (i % 3 === 2) mutations.push({ op: 'delete', kind: 'recognizer', key: `soak-${h[11] % 8}` });
  return mutations;
}

/**
 * Run *iterations* checkpoints on *path*, yielding BEGUN once a checkpoint's begin is emitted and
 * ACKNOWLEDGED after each acknowledged one (so that the caller can let each line reach its
 * reader before the engine goes on); *emit* writes an event line. Returns the last commit. Ended early (its `return`), it releases the store without
 * a commit: what the last acknowledged checkpoint holds is all there is.
 */
const BEGUN = 'begun';
const ACKNOWLEDGED = 'acknowledged';

function* soakSteps(path, iterations, seed, emit) {
  const store = Store.open(path);
  let last = store.digest();
  let done = false;
  try {
    for (let i = 0; i < iterations; i += 1) {
      store.apply(soakMutations(seed, i));
      const planned = store.plan();
      emit({ event: 'begin', generation: planned.generation, identity: planned.identity });
      yield BEGUN;
      last = store.checkpoint(planned);
      emit({ event: 'ack', generation: last.generation, identity: last.identity });
      if (i + 1 < iterations) yield ACKNOWLEDGED;
    }
    done = true;
  } finally {
    if (!done) store.release();
  }
  store.close();
  return { iterations, generation: last.generation, identity: last.identity };
}

/** Run a soak to its end at once (a soak inside a batch). */
function soak(path, iterations, seed, emit) {
  const steps = soakSteps(path, iterations, seed, emit);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

module.exports = { BEGUN, soak, soakSteps };
