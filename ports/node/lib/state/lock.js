'use strict';
// The single-writer lock (docs/state.md § Single writer): a Unix socket bound in Linux's
// abstract namespace under a name made of the state directory's device and inode numbers.
// The kernel refuses a second bind of the name (in this process or another) and frees it
// when the holder's socket closes, at exit or SIGKILL. LOCK holds the holder's pid, for
// the refusal message only; it is written and read without following a link.

const fs = require('node:fs');
const net = require('node:net');
const { LOCK } = require('./layout');
const { refuse, osRefusal } = require('./errors');

const SUN_PATH = 108;

/** The abstract address of the lock on the directory with descriptor *fd*: NUL, the name, NULs to 108 bytes. */
function lockAddress(fd) {
  const stat = fs.fstatSync(fd, { bigint: true });
  const name = `core-state-lock/${stat.dev}/${stat.ino}`;
  return `\u0000${name}${'\u0000'.repeat(SUN_PATH - 1 - name.length)}`;
}

/** The pid LOCK names, or "unknown" (LOCK missing, a link, unreadable, or not ASCII digits). */
function holder(dir) {
  try {
    const data = dir.read(LOCK, true);
    const text = data === null ? '' : data.subarray(0, 64).toString('latin1').trim();
    return /^[0-9]+$/.test(text) ? text : 'unknown';
  } catch {
    return 'unknown';
  }
}

class WriterLock {
  constructor(dir) {
    this.dir = dir;
    this.server = null;
    this.pidFd = null;
  }

  /** Take the lock or refuse with STATE_LOCKED naming the holder's pid. */
  acquire() {
    const server = net.createServer((connection) => connection.destroy());
    server.on('error', () => {});
    // A pipe server binds and listens synchronously: `listening` says whether the bind held.
    server.listen({ path: lockAddress(this.dir.fd), exclusive: true });
    if (!server.listening) {
      refuse('STATE_LOCKED', `state directory ${this.dir.shown} is locked by pid ${holder(this.dir)}`, 'path');
    }
    server.unref();
    this.server = server;
  }

  /** Write this process's pid into LOCK (STATE_IO when it cannot be written). */
  writePid() {
    const where = this.dir.where(LOCK);
    try {
      const C = fs.constants;
      this.pidFd = fs.openSync(this.dir.at(LOCK), C.O_RDWR | C.O_CREAT | C.O_NOFOLLOW | C.O_NONBLOCK, 0o644);
      if (!fs.fstatSync(this.pidFd).isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EINVAL' });
      fs.ftruncateSync(this.pidFd, 0);
      fs.writeSync(this.pidFd, Buffer.from(`${process.pid}\n`, 'ascii'), 0, undefined, 0);
    } catch (err) {
      throw osRefusal(err, where, false);
    }
  }

  /**
   * Empty LOCK and free the name (a no-op when not held). LOCK's pid is advisory: a failure
   * to empty or close it cannot matter, so it is dropped quietly.
   */
  release() {
    if (this.pidFd !== null) {
      const fd = this.pidFd;
      this.pidFd = null;
      for (const step of [() => fs.ftruncateSync(fd, 0), () => fs.closeSync(fd)]) {
        try {
          step();
        } catch {
          // advisory only; the lock itself is the socket
        }
      }
    }
    if (this.server !== null) this.server.close();
    this.server = null;
  }
}

module.exports = { WriterLock, lockAddress };
