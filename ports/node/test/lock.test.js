'use strict';
// The writer lock (docs/state.md § Single writer): the abstract name is taken synchronously,
// refused while held in this process, and free again once released.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Dir } = require('../lib/state/dir');
const { WriterLock, lockAddress } = require('../lib/state/lock');

function withDir(body) {
  const where = fs.mkdtempSync(path.join(os.tmpdir(), 'core-node-lock-'));
  const dir = Dir.open(where, true);
  try {
    body(dir, where);
  } finally {
    dir.close();
    fs.rmSync(where, { recursive: true, force: true });
  }
}

test('the address is NUL, the name of the directory numbers, NULs to 108 bytes', () => {
  withDir((dir) => {
    const stat = fs.fstatSync(dir.fd, { bigint: true });
    const address = lockAddress(dir.fd);
    assert.strictEqual(Buffer.byteLength(address), 108);
    assert.strictEqual(address.replace(/\u0000+$/, ''), `\u0000core-state-lock/${stat.dev}/${stat.ino}`);
  });
});

test('a second lock on one directory is refused at once, and taken once the first is released', () => {
  withDir((dir) => {
    const first = new WriterLock(dir);
    first.acquire();
    const second = new WriterLock(dir);
    assert.throws(() => second.acquire(), (err) => err.code === 'STATE_LOCKED' && /pid unknown/.test(err.message));
    first.writePid();
    assert.throws(() => second.acquire(), (err) => err.code === 'STATE_LOCKED' && err.message.includes(`pid ${process.pid}`));
    first.release();
    second.acquire();
    second.release();
  });
});
