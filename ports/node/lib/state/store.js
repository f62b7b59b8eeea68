'use strict';
// A writer's store (docs/state.md): the open (lock, load, leftovers, journal repair, boot
// event), mutations in memory, checkpoints, proposals and the close.

const fs = require('node:fs');
const { Dir } = require('./dir');
const { WriterLock } = require('./lock');
const { loadState, readGeneration } = require('./loader');
const { planCommit, commit } = require('./commit');
const { applyBatch } = require('./mutations');
const { currentVersion, encodeCore } = require('./records');
const { identity } = require('./manifest');
const { frame, parseJournal } = require('./journal');
const { bootEvent } = require('./lineage');
const { Appender } = require('./appender');
const { CURRENT_TMP, JOURNALS, generationName, isStaging } = require('./layout');
const { EngineError, refuse, describe } = require('./errors');

const MAX_PENDING = 256;

/** Open the writer's directory at *path*, creating it when missing. */
function openWriterDir(path) {
  const dir = Dir.open(path, true);
  if (dir !== null) return dir;
  try {
    fs.mkdirSync(path, { recursive: true, mode: 0o755 });
  } catch (err) {
    refuse('STATE_IO', `cannot create ${path}: ${describe(err)}`, 'path');
  }
  return Dir.open(path, true) ?? refuse('STATE_IO', `${path} vanished as it was created`, 'path');
}

/** The entries a writer's open removes: debris, and invalid generations past CURRENT. */
function leftovers(dir, loaded) {
  const names = dir.names(true);
  const remove = names.filter((name) => isStaging(name) || name === CURRENT_TMP).sort();
  for (const name of remove) {
    if (dir.lstat(name, true)?.isSymbolicLink()) refuse('STATE_SYMLINK', `${dir.where(name)} is a symbolic link`, 'path');
  }
  if (loaded.pointer !== null && loaded.generations.includes(loaded.pointer)) {
    for (const n of loaded.generations.filter((g) => g > loaded.pointer)) {
      if (!keepsPastCurrent(dir, n)) remove.push(generationName(n));
    }
  }
  return remove;
}

/**
 * Whether generation *n* past CURRENT stays: it is not proven invalid (a generation whose
 * records are malformed stays too). A schema refusal refuses the open: it may be a newer
 * engine's checkpoint, which numbering past and pruning would destroy.
 */
function keepsPastCurrent(dir, n) {
  try {
    return readGeneration(dir, n).state !== undefined;
  } catch (err) {
    if (err instanceof EngineError && err.code === 'STATE_RECORD_MALFORMED') return true;
    throw err;
  }
}

/** Each journal read for the open: {name, bytes (null when missing), parsed}. */
function readJournals(dir) {
  return Object.values(JOURNALS).map((name) => {
    const bytes = dir.read(name, true);
    return { name, bytes, parsed: parseJournal(bytes ?? Buffer.alloc(0)) };
  });
}

class Store {
  constructor(dir, lock, loaded, journals) {
    this.dir = dir;
    this.lock = lock;
    this.live = loaded.generation;
    /** The base of the live generation when it is a delta: the prune keeps it. */
    this.liveBase = loaded.base ?? null;
    this.state = { records: loaded.records, turnCount: loaded.turnCount };
    this.durable = { identity: loaded.identity, turnCount: loaded.turnCount };
    const byName = Object.fromEntries(journals.map((j) => [j.name, j.parsed]));
    this.pending = byName[JOURNALS.proposals].entries.length;
    this.overflowHolds = byName[JOURNALS.overflow].entries.length > 0;
    this.appenders = Object.fromEntries(
      journals.map(({ name, bytes, parsed }) => [name, new Appender(dir, name, bytes && bytes.subarray(0, parsed.keep))]),
    );
  }

  /** Open *path* for writing: the lock, the load, then leftovers, repairs and the boot event. */
  static open(path) {
    const dir = openWriterDir(path);
    const lock = new WriterLock(dir);
    try {
      lock.acquire();
      const loaded = loadState(dir);
      const remove = leftovers(dir, loaded);
      const journals = readJournals(dir);
      lock.writePid();
      for (const name of remove) dir.remove(name);
      for (const { name, parsed } of journals) {
        if (parsed.cut > 0) dir.truncate(name, parsed.keep);
      }
      const store = new Store(dir, lock, loaded, journals);
      const lineage = journals.find((j) => j.name === JOURNALS.lineage).parsed.entries;
      store.boot = bootEvent(lineage, loaded, store.identity());
      store.appenders[JOURNALS.lineage].append(frame(store.boot));
      return store;
    } catch (err) {
      lock.release();
      dir.closeQuietly();
      throw err;
    }
  }

  core() {
    return encodeCore(this.state.records);
  }

  identity() {
    return identity(currentVersion(), this.core());
  }

  get dirty() {
    return this.identity() !== this.durable.identity || this.state.turnCount !== this.durable.turnCount;
  }

  digest() {
    return { identity: this.identity(), generation: this.live, turn_count: this.state.turnCount, dirty: this.dirty };
  }

  apply(mutations) {
    const next = { records: new Map(this.state.records), turnCount: this.state.turnCount };
    applyBatch(next, mutations);
    this.state = next;
    return { dirty: this.dirty };
  }

  /** What the next checkpoint will be: {generation, identity, plan}. */
  plan() {
    const plan = planCommit(this.dir, this.live, this.liveBase === null ? [] : [this.liveBase]);
    return { generation: plan.n, identity: this.identity(), plan };
  }

  /** Checkpoint (with *planned* from plan() when given); *tracer* sees every file operation. */
  checkpoint(planned = null, tracer = null) {
    const { plan } = planned ?? this.plan();
    const core = this.core();
    this.dir.tracer = tracer;
    try {
      commit(this.dir, plan, this.live, core, this.state.turnCount);
    } finally {
      this.dir.tracer = null;
    }
    this.live = plan.n;
    this.liveBase = null;
    this.durable = { identity: identity(currentVersion(), core), turnCount: this.state.turnCount };
    return { generation: this.live, identity: this.durable.identity, turn_count: this.state.turnCount };
  }

  /** Append *proposal* to the pending journal, or to the overflow journal past the cap. */
  propose(proposal) {
    let line;
    try {
      line = frame(proposal);
    } catch {
      refuse('STATE_BAD_MUTATION', 'proposal holds a value canonical JSON cannot encode (a number that is not an integer)', 'proposal');
    }
    if (this.pending < MAX_PENDING && !this.overflowHolds) {
      this.appenders[JOURNALS.proposals].append(line);
      this.pending += 1;
      return { queued: true, spilled: false, pending: this.pending };
    }
    this.appenders[JOURNALS.overflow].append(line);
    this.overflowHolds = true;
    return { queued: false, spilled: true, pending: this.pending };
  }

  /** Commit when dirty, then release; the handle is closed even when the commit fails. */
  close() {
    try {
      if (this.dirty) this.checkpoint();
    } catch (err) {
      this.release();
      throw err;
    }
    this.lock.release();
    this.dir.close(false);
    return { generation: this.live, identity: this.identity(), turn_count: this.state.turnCount };
  }

  /** Release the lock and the directory without a commit (what no checkpoint was asked for is dropped). */
  release() {
    this.lock.release();
    this.dir.closeQuietly();
  }
}

module.exports = { Store };
