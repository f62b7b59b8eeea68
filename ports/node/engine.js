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

const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string' } } });
const dataDir = values.data || path.join(__dirname, '..', '..', 'reference');
const engine = new Engine(dataDir, values.only ? values.only.split(',') : null);
let pending = Buffer.alloc(0);
engine.emit = (message) => process.stdout.write(`${json.wire(message)}\n`);

function answer(line) {
  process.stdout.write(`${engine.handleLine(line)}\n`);
}

process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  let newline = pending.indexOf(0x0a);
  while (newline !== -1) {
    answer(pending.subarray(0, newline));
    pending = pending.subarray(newline + 1);
    newline = pending.indexOf(0x0a);
  }
});

// End of input, SIGTERM and SIGINT release every store still open without a commit and
// empty LOCK (docs/state.md § Shutdown); a signal ends the process with 128 + its number.
// A signal is handled between stdin chunks, so a request in flight is answered first.
process.stdin.on('end', () => {
  if (pending.length > 0) answer(pending);
  engine.state.releaseAll();
});

for (const [name, number] of [['SIGTERM', 15], ['SIGINT', 2]]) {
  process.on(name, () => {
    engine.state.releaseAll();
    process.exit(128 + number);
  });
}
