'use strict';
// All-or-nothing journal appends (docs/state.md § Journals, § I/O errors): a line is
// acknowledged only once it and every line before it are durable; after a failure the
// journal is rewritten from its good lines (staging-<journal name>, fsync, rename over the
// journal, fsync the directory) before any other line is appended; the rewritten journal
// keeps the mode of the one it replaces.

const STAGING = 'staging-';

class Appender {
  /** Journal *name* of *dir*, whose acknowledged bytes are *good* (null: it does not exist). */
  constructor(dir, name, good) {
    this.dir = dir;
    this.name = name;
    this.good = good ?? Buffer.alloc(0);
    this.exists = good !== null;
    this.stale = false;
  }

  /** Append *line*, or refuse with the first failure and leave the journal as it was. */
  append(line) {
    if (this.stale) this.rewrite();
    try {
      this.dir.append(this.name, line);
      if (!this.exists) this.dir.sync();
    } catch (err) {
      this.stale = true;
      this.tryRewrite();
      throw err;
    }
    this.exists = true;
    this.good = Buffer.concat([this.good, line]);
  }

  /** Make the journal its good lines again, durably, with the mode of the journal it
   * replaces (0644 when there is none). */
  rewrite() {
    const staging = `${STAGING}${this.name}`;
    const mode = this.dir.mode(this.name, false);
    this.dir.writeFile(staging, this.good, mode === null ? 0o644 : mode);
    this.dir.rename(staging, this.name);
    this.dir.sync();
    this.exists = true;
    this.stale = false;
  }

  /** rewrite(), after a failure that is the one reported: a journal still stale is rewritten by the next append. */
  tryRewrite() {
    try {
      this.rewrite();
    } catch {
      // the first failure is the one reported; the next append retries the rewrite
    }
  }
}

module.exports = { Appender };
