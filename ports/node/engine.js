#!/usr/bin/env node
'use strict';
// A core-engine/1 engine in Node.js: one JSON request per stdin line, one response per stdout line.
// Usage: node ports/node/engine.js [--data DIR] [--only CAP,CAP...]
//   --data DIR   holds lexicon/data and registers/data (default: the reference engine's
//                shipped data, ../../reference from this file)
//   --only CAPS  claim only these capabilities; the ops of the others are unknown ops

const path = require('node:path');
const { parseArgs } = require('node:util');
const { Engine } = require('./lib/protocol');
const json = require('./lib/json');
const { BEGUN } = require('./lib/state/soak');

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string' } } });
const dataDir = values.data || path.join(__dirname, '..', '..', 'reference');
const engine = new Engine(dataDir, values.only ? values.only.split(',') : null);
engine.emit = (message) => process.stdout.write(`${json.wire(message)}\n`);

// Lines are answered one at a time, each in its own turn of the event loop, so a signal is
// seen between them; a top-level state.soak runs one acknowledged checkpoint per turn, the
// next once the last ack has been written out.
// End of input, SIGTERM and SIGINT release every store still open without a commit and
// empty LOCK (docs/state.md § Shutdown); a signal ends the process with 128 + its number.
// A signal that arrives while a request is in flight is held until its answer is written
// (a soak: until the iteration in flight is acknowledged; it then gets no response); a
// second signal is held like the first.
let pending = Buffer.alloc(0);
let busy = false;
let ended = false;
let held = null;
let stopping = false;

/** Release every store, then exit with 128 + *number* once what was written has drained. */
function stop(number) {
  if (stopping) return;
  stopping = true;
  engine.state.releaseAll();
  process.stdout.write('', () => process.exit(128 + number));
}

function next() {
  busy = false;
  if (held !== null) stop(held);
  if (stopping) return;
  const newline = pending.indexOf(0x0a);
  if (newline !== -1) {
    const line = pending.subarray(0, newline);
    pending = pending.subarray(newline + 1);
    busy = true;
    setImmediate(() => answer(line));
  } else if (ended) {
    if (pending.length > 0) {
      process.stdout.write(`${engine.handleLine(pending)}\n`);
      pending = Buffer.alloc(0);
    }
    engine.state.releaseAll();
  }
}

function answer(line) {
  const started = engine.startLine(line);
  if (Object.hasOwn(started, 'line')) {
    process.stdout.write(`${started.line}\n`);
    next();
  } else {
    step(started.steps, started.finish);
  }
}

function step(steps, finish) {
  let outcome;
  try {
    const done = steps.next();
    if (!done.done) {
      if (held !== null && done.value !== BEGUN) {
        steps.return();
        stop(held);
        return;
      }
      // A checkpoint is committed once its begin has reached stdout, and the next one begins
      // once its ack has: however the reader lags, what the engine acknowledged is what the
      // reader can receive (a begin is always followed by its ack, signal or not).
      process.stdout.write('', () => setImmediate(() => step(steps, finish)));
      return;
    }
    outcome = { value: done.value };
  } catch (error) {
    outcome = { error };
  }
  process.stdout.write(`${finish(outcome)}\n`);
  next();
}

process.stdin.on('data', (chunk) => {
  if (stopping) return;
  pending = Buffer.concat([pending, chunk]);
  if (!busy) next();
});

process.stdin.on('end', () => {
  if (stopping) return;
  ended = true;
  if (!busy) next();
});

for (const [name, number] of [['SIGTERM', 15], ['SIGINT', 2]]) {
  process.on(name, () => {
    if (!busy) stop(number);
    if (held === null) held = number;
  });
}
