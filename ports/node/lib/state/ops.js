'use strict';
// The state.* ops of docs/protocol.md § Persisted-state ops: argument checks, store
// handles, and each op's result.

const json = require('../json');
const { Dir } = require('./dir');
const { Store } = require('./store');
const { loadState } = require('./loader');
const { parseJournal } = require('./journal');
const { soak, soakSteps } = require('./soak');
const { currentVersion } = require('./records');
const { JOURNALS } = require('./layout');
const { refuse } = require('./errors');

const badArg = (name, message) => refuse('PROTOCOL_BAD_ARGS', message, name);

function dirArg(args) {
  const dir = args.dir;
  if (typeof dir !== 'string' || dir === '' || dir.includes('\u0000')) badArg('dir', "argument 'dir' must be a non-empty path without NUL");
  if (!dir.startsWith('/')) badArg('dir', "argument 'dir' must be an absolute path");
  return dir;
}

/** A non-negative integer argument; past 2^53 - 1 only when *big* (a seed is text to hash). */
function countArg(args, name, big = false) {
  const value = args[name];
  if (!json.isInteger(value) || value < 0) badArg(name, `argument '${name}' must be an integer >= 0`);
  if (typeof value === 'bigint' && !big) badArg(name, `argument '${name}' must be at most 2^53 - 1`);
  return value;
}

/** A request whose work runs in steps (a top-level state.soak): *steps* is a generator that
 * yields between them and returns the result. */
class Pending {
  constructor(steps) {
    this.steps = steps;
  }
}

/** The state ops, keyed by name, for an engine whose soak events go to *emit(id, message)*. */
class StateOps {
  constructor(emit) {
    this.emit = emit;
    this.stores = new Map();
    this.opened = 0;
  }

  table() {
    const store = ['store'];
    return {
      'state.open': { cap: 'state', args: ['dir'], run: (a) => this.open(dirArg(a)) },
      'state.apply': { cap: 'state', args: ['mutations', 'store'], run: (a) => this.apply(a) },
      'state.checkpoint': { cap: 'state', args: store, run: (a) => this.store(a).checkpoint() },
      'state.digest': { cap: 'state', args: store, run: (a) => this.store(a).digest() },
      'state.close': { cap: 'state', args: store, run: (a) => this.close(a) },
      'state.load': { cap: 'state', args: ['dir'], run: (a) => this.load(dirArg(a)) },
      'state.propose': { cap: 'state', args: ['proposal', 'store'], run: (a) => this.propose(a) },
      'state.journal': { cap: 'state', args: ['dir', 'name'], optional: ['repair'], run: (a) => this.journal(a) },
      'state.trace_checkpoint': { cap: 'state.trace', args: store, run: (a) => this.traceCheckpoint(a) },
      'state.soak': { cap: 'state.soak', args: ['dir', 'iterations', 'seed'], run: (a, id, stepped) => this.soak(a, id, stepped) },
    };
  }

  /** The open store *args.store* names (STATE_NOT_OPEN when unknown or closed). */
  store(args) {
    const id = args.store;
    if (typeof id !== 'string') badArg('store', "argument 'store' must be a string");
    if (!this.stores.has(id)) refuse('STATE_NOT_OPEN', `store ${JSON.stringify(id)} is not open`, 'store');
    return this.stores.get(id);
  }

  open(dir) {
    const store = Store.open(dir);
    this.opened += 1;
    const id = `st${this.opened}`;
    this.stores.set(id, store);
    const { boot } = store;
    return {
      store: id,
      ...store.digest(),
      schema_version: currentVersion(),
      boot: boot.boot,
      reason: boot.reason,
      parent: boot.parent,
      recovered: boot.recovered,
    };
  }

  apply(args) {
    if (!Array.isArray(args.mutations)) badArg('mutations', "argument 'mutations' must be a list");
    return this.store(args).apply(args.mutations);
  }

  close(args) {
    const store = this.store(args);
    this.stores.delete(args.store);
    return store.close();
  }

  propose(args) {
    if (!json.isObject(args.proposal)) badArg('proposal', "argument 'proposal' must be an object");
    return this.store(args).propose(args.proposal);
  }

  traceCheckpoint(args) {
    const store = this.store(args);
    const ops = [];
    const done = store.checkpoint(null, (op) => ops.push(op));
    return { ...done, ops };
  }

  /** Release every store still open, without a commit (the end of input). */
  releaseAll() {
    for (const store of this.stores.values()) store.release();
    this.stores.clear();
  }

  load(path) {
    const dir = Dir.open(path, true);
    const loaded = dir === null ? loadState(null) : dir.use(true, () => loadState(dir));
    return {
      identity: loaded.identity,
      generation: loaded.generation,
      turn_count: loaded.turnCount,
      schema_version: loaded.version,
      recovered: loaded.recovered,
      fresh: loaded.fresh,
      records: loaded.records.size,
    };
  }

  journal(args) {
    const path = dirArg(args);
    if (typeof args.name !== 'string' || !Object.hasOwn(JOURNALS, args.name)) badArg('name', "argument 'name' must be proposals, overflow or lineage");
    const repair = Object.hasOwn(args, 'repair') ? args.repair : false;
    if (typeof repair !== 'boolean') badArg('repair', "argument 'repair' must be a boolean");
    const dir = Dir.open(path, true);
    if (dir === null) return { entries: [], skipped: [], cut_bytes: 0 };
    return dir.use(true, () => {
      const name = JOURNALS[args.name];
      const parsed = parseJournal(dir.read(name, true) ?? Buffer.alloc(0));
      if (repair && parsed.cut > 0) dir.truncate(name, parsed.keep);
      return { entries: parsed.entries, skipped: parsed.skipped, cut_bytes: parsed.cut };
    });
  }

  /** A soak, run to its end; with *stepped* (a top-level request), its steps as a Pending
   * result that the caller runs one acknowledged checkpoint at a time. */
  soak(args, id, stepped = false) {
    const path = dirArg(args);
    const iterations = countArg(args, 'iterations');
    const seed = countArg(args, 'seed', true);
    const emit = (event) => this.emit({ id, ...event });
    if (stepped) return new Pending(soakSteps(path, iterations, seed, emit));
    return soak(path, iterations, seed, emit);
  }
}

module.exports = { StateOps, Pending };
