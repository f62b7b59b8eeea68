#!/usr/bin/env node
'use strict';
// A core-engine/1 engine in Node.js: one JSON request per stdin line, one response per stdout line.
// Usage: node ports/node/engine.js [DATA_DIR]   (DATA_DIR holds lexicon/data and registers/data;
// default: the reference engine's shipped data next to this repository's ports/ directory).

const path = require('node:path');
const { Engine } = require('./lib/protocol');

const dataDir = process.argv[2] || path.join(__dirname, '..', '..', 'reference');
const engine = new Engine(dataDir);
let pending = Buffer.alloc(0);

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

process.stdin.on('end', () => {
  if (pending.length > 0) answer(pending);
});
