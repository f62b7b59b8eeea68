'use strict';
// A state directory held by a descriptor (docs/state.md § Confinement). Node has no
// openat(2), so each entry is reached as /proc/self/fd/<fd>/<name>: the kernel resolves
// the descriptor's directory (wherever it is now), then the one component <name> in it,
// and O_NOFOLLOW refuses a link there. Entries one level down are reached through a
// descriptor opened on their directory the same way, so no link is ever followed.
// Every change is reported to the directory's tracer, as state.trace_checkpoint's ops.

const fs = require('node:fs');
const { osRefusal, symlink, io } = require('./errors');

const C = fs.constants;
const NOFOLLOW_DIR = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
const CHUNK = 1 << 16;

/**
 * *body(fd)*, then the close of *fd*: a failure of *body* is the one reported (the close
 * is then quiet); a close that fails after *body* succeeded is refused for *where*.
 */
function using(fd, where, reading, body) {
  let result;
  try {
    result = body(fd);
  } catch (err) {
    try {
      fs.closeSync(fd);
    } catch {
      // the first failure is the one reported
    }
    throw err;
  }
  try {
    fs.closeSync(fd);
  } catch (err) {
    throw osRefusal(err, where, reading);
  }
  return result;
}

class Dir {
  /** *fd* is open on the directory shown to clients as *shown*; *rel* is its path in the state directory. */
  constructor(fd, shown, rel, tracer) {
    this.fd = fd;
    this.shown = shown;
    this.rel = rel;
    this.tracer = tracer;
  }

  /**
   * The directory at *path* (the path itself may be a link: the caller chose it), or null
   * when it does not exist.
   */
  static open(path, reading) {
    try {
      return new Dir(fs.openSync(path, C.O_RDONLY | C.O_DIRECTORY), path, '', null);
    } catch (err) {
      if (err.code === 'ENOENT') return null;
      throw osRefusal(err, path, reading);
    }
  }

  at(name) {
    return `/proc/self/fd/${this.fd}/${name}`;
  }

  /** *name* as a whole path (the directory itself for ''). */
  where(name) {
    return name === '' ? this.shown : `${this.shown}/${name}`;
  }

  relative(name) {
    return this.rel === '' ? name : `${this.rel}/${name}`;
  }

  trace(op) {
    if (this.tracer) this.tracer(op);
  }

  /** Run *body*, turning an OS error into the refusal for entry *name*. */
  guard(name, reading, body) {
    try {
      return body();
    } catch (err) {
      throw osRefusal(err, this.where(name), reading);
    }
  }

  /** Close the directory's descriptor; a failure is refused for the directory. */
  close(reading = false) {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    using(fd, this.shown, reading, () => {});
  }

  /** Close the descriptor after another failure, which is the one reported. */
  closeQuietly() {
    try {
      this.close();
    } catch {
      // the first failure is the one reported
    }
  }

  /** *body(this)*, then close(): a failure of *body* wins over one of the close. */
  use(reading, body) {
    let result;
    try {
      result = body(this);
    } catch (err) {
      this.closeQuietly();
      throw err;
    }
    this.close(reading);
    return result;
  }

  /** The names in the directory. */
  names(reading) {
    return this.guard('', reading, () => fs.readdirSync(this.at('')));
  }

  /** lstat of *name*, or null when it does not exist. */
  lstat(name, reading) {
    return this.guard(name, reading, () => fs.lstatSync(this.at(name), { throwIfNoEntry: false }) ?? null);
  }

  /** The subdirectory *name* (never through a link), or null when it does not exist. */
  subdir(name, reading) {
    const fd = this.guard(name, reading, () => {
      try {
        return fs.openSync(this.at(name), NOFOLLOW_DIR);
      } catch (err) {
        if (err.code === 'ENOENT') return null;
        if (err.code === 'ENOTDIR' && this.lstat(name, reading)?.isSymbolicLink()) symlink(this.where(name));
        throw err;
      }
    });
    return fd === null ? null : new Dir(fd, this.where(name), this.relative(name), this.tracer);
  }

  /** The bytes of regular file *name*, or null when it does not exist. */
  read(name, reading) {
    return this.guard(name, reading, () => {
      let fd;
      try {
        fd = fs.openSync(this.at(name), C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
      } catch (err) {
        if (err.code === 'ENOENT') return null;
        throw err;
      }
      return using(fd, this.where(name), reading, () => {
        if (!fs.fstatSync(fd).isFile()) io(this.where(name), 'not a regular file');
        return readAll(fd);
      });
    });
  }

  /** The mode bits of regular file *name*, or null when it does not exist. */
  mode(name, reading) {
    const stat = this.lstat(name, reading);
    if (stat === null) return null;
    if (stat.isSymbolicLink()) symlink(this.where(name));
    return stat.mode & 0o7777;
  }

  /** Create (or replace) file *name* holding *data* with *mode*, and fsync it. */
  writeFile(name, data, mode) {
    this.guard(name, false, () => {
      const fd = fs.openSync(this.at(name), C.O_WRONLY | C.O_CREAT | C.O_TRUNC | C.O_NOFOLLOW, mode);
      using(fd, this.where(name), false, () => {
        fs.fchmodSync(fd, mode);
        writeAll(fd, data);
        this.trace({ op: 'write', path: this.relative(name), data: data.toString('base64'), mode });
        fs.fsyncSync(fd);
        this.trace({ op: 'fsync', path: this.relative(name) });
      });
    });
  }

  /** Append *data* to file *name* (created when missing), and fsync it. */
  append(name, data) {
    this.guard(name, false, () => {
      const fd = fs.openSync(this.at(name), C.O_WRONLY | C.O_APPEND | C.O_CREAT | C.O_NOFOLLOW | C.O_NONBLOCK, 0o644);
      using(fd, this.where(name), false, () => {
        if (!fs.fstatSync(fd).isFile()) io(this.where(name), 'not a regular file');
        writeAll(fd, data);
        this.trace({ op: 'append', path: this.relative(name), data: data.toString('base64') });
        fs.fsyncSync(fd);
        this.trace({ op: 'fsync', path: this.relative(name) });
      });
    });
  }

  /** Cut file *name* to *size* bytes, and fsync it. */
  truncate(name, size) {
    this.guard(name, false, () => {
      const fd = fs.openSync(this.at(name), C.O_WRONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
      using(fd, this.where(name), false, () => {
        if (!fs.fstatSync(fd).isFile()) io(this.where(name), 'not a regular file');
        fs.ftruncateSync(fd, size);
        this.trace({ op: 'truncate', path: this.relative(name), size });
        fs.fsyncSync(fd);
        this.trace({ op: 'fsync', path: this.relative(name) });
      });
    });
  }

  mkdir(name) {
    this.guard(name, false, () => fs.mkdirSync(this.at(name), 0o755));
    this.trace({ op: 'mkdir', path: this.relative(name) });
  }

  rename(src, dst) {
    this.guard(src, false, () => fs.renameSync(this.at(src), this.at(dst)));
    this.trace({ op: 'rename', src: this.relative(src), dst: this.relative(dst) });
  }

  /** fsync the directory itself. */
  sync() {
    this.guard('', false, () => fs.fsyncSync(this.fd));
    this.trace({ op: 'fsync_dir', path: this.rel === '' ? '.' : this.rel });
  }

  /**
   * Remove entry *name*: a file is unlinked, a directory removed with all it holds (links
   * inside it are unlinked, never followed; the names in *first* before the others).
   * *name* itself being a link is STATE_SYMLINK.
   */
  remove(name, first = [], inside = false) {
    const stat = this.lstat(name, false);
    if (stat === null) return;
    if (stat.isSymbolicLink() && !inside) symlink(this.where(name));
    if (!stat.isDirectory()) {
      this.guard(name, false, () => fs.unlinkSync(this.at(name)));
      this.trace({ op: 'unlink', path: this.relative(name) });
      return;
    }
    const tracer = this.tracer;
    this.tracer = null;
    try {
      this.subdir(name, false).use(false, (sub) => {
        sub.tracer = null;
        const names = sub.names(false);
        const ordered = [...first.filter((n) => names.includes(n)), ...names.filter((n) => !first.includes(n))];
        for (const child of ordered) sub.remove(child, [], true);
      });
      this.guard(name, false, () => fs.rmdirSync(this.at(name)));
    } finally {
      this.tracer = tracer;
    }
    this.trace({ op: 'remove_tree', path: this.relative(name) });
  }
}

function readAll(fd) {
  const chunks = [];
  for (;;) {
    const chunk = Buffer.alloc(CHUNK);
    const n = fs.readSync(fd, chunk, 0, CHUNK, null);
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, n));
  }
}

function writeAll(fd, data) {
  let done = 0;
  while (done < data.length) done += fs.writeSync(fd, data, done, data.length - done);
}

module.exports = { Dir };
