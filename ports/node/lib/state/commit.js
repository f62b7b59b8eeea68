'use strict';
// The commit protocol (docs/state.md § Commit protocol): staging, fsyncs, the rename into
// gen-N, the pointer swap, and the prune that keeps N and the live generation only.

const {
  CURRENT,
  CURRENT_TMP,
  CORE,
  DELTA,
  MANIFEST,
  MAX_GENERATION,
  generationName,
  generationNumber,
  isStaging,
  stagingName,
} = require('./layout');
const { encodeManifest } = require('./manifest');
const { EngineError, io, symlink } = require('./errors');
const { readGeneration } = require('./loader');

const DEFAULT_MODE = 0o644;

/** Whether generation *name* holds a file *file* (not a directory). */
function holds(dir, name, file) {
  const sub = dir.subdir(name, false);
  return sub !== null && sub.use(false, () => {
    const stat = sub.lstat(file, false);
    return stat !== null && !stat.isDirectory();
  });
}

/**
 * Whether generation *name* is kept by the prune: its core.jsonl or delta.jsonl exists while
 * the generation is not valid (the load may have fallen back from it; it may hold
 * acknowledged records).
 */
function keptByPrune(dir, name) {
  const n = generationNumber(name);
  let valid;
  try {
    valid = readGeneration(dir, n, false).state !== undefined;
  } catch (err) {
    if (!(err instanceof EngineError) || !KEEPS.includes(err.code)) throw err;
    valid = err.code === 'STATE_RECORD_MALFORMED';
  }
  if (valid) return false;
  const sub = dir.subdir(name, false);
  const held = (file) => {
    const stat = sub.lstat(file, false);
    return stat !== null && !stat.isDirectory();
  };
  // A core.jsonl or delta.jsonl that is a directory is no core: such a generation is removed.
  return sub !== null && sub.use(false, () => held(CORE) || held(DELTA));
}

/** Refusals of reading a generation that say what it is rather than that it cannot be read. */
const KEEPS = ['STATE_RECORD_MALFORMED', 'STATE_SCHEMA_TOO_NEW', 'STATE_SCHEMA_MALFORMED'];

/**
 * What a checkpoint from live generation *live* will do: {n, debris, prune}. *keep*: the
 * generations a kept one needs (the live generation's base when it is a delta); below a
 * generation kept for holding a delta.jsonl, every one holding a core.jsonl is kept too.
 * The prune list is newest first, so a prune cut short never leaves a delta without its base.
 */
function planCommit(dir, live, keep = []) {
  const names = dir.names(false);
  const generations = names.map(generationNumber).filter((n) => n !== null);
  const n = Math.max(live, ...generations) + 1;
  if (n > MAX_GENERATION) io(dir.shown, `no generation number is left past ${generationName(MAX_GENERATION)}`);
  const debris = names.filter((name) => isStaging(name) || name === CURRENT_TMP).sort();
  const others = generations
    .filter((g) => g !== live && !keep.includes(g))
    .sort((a, b) => a - b)
    .map(generationName);
  for (const name of [...debris, ...others]) {
    if (dir.lstat(name, false)?.isSymbolicLink()) symlink(dir.where(name));
  }
  const held = others.filter((name) => dir.lstat(name, false).isDirectory() && keptByPrune(dir, name));
  const floor = Math.max(0, ...held.filter((name) => holds(dir, name, DELTA)).map(generationNumber));
  const prune = others
    .filter((name) => !held.includes(name))
    .filter((name) => !(generationNumber(name) < floor && holds(dir, name, CORE)))
    .reverse();
  return { n, debris, prune };
}

/** The modes of the live generation's files (0644 for a file it lacks, or when fresh). */
function liveModes(dir, live) {
  const modes = { [CORE]: DEFAULT_MODE, [MANIFEST]: DEFAULT_MODE };
  if (live === 0) return modes;
  const sub = dir.subdir(generationName(live), false);
  if (sub === null) return modes;
  return sub.use(false, () => {
    for (const name of Object.keys(modes)) modes[name] = sub.mode(name, false) ?? DEFAULT_MODE;
    // core.jsonl and delta.jsonl count as one file: a core takes the mode of a live delta.
    if (sub.lstat(CORE, false) === null) modes[CORE] = sub.mode(DELTA, false) ?? DEFAULT_MODE;
    return modes;
  });
}

/**
 * Commit *core* and *turnCount* as generation plan.n (plan from planCommit), from live
 * generation *live*; returns once CURRENT names it durably, after the prune (a generation
 * is removed core.jsonl first, so a prune cut short never leaves a core without its manifest).
 */
function commit(dir, plan, live, core, turnCount) {
  for (const name of plan.debris) dir.remove(name);
  const modes = liveModes(dir, live);
  const staging = stagingName(plan.n);
  dir.mkdir(staging);
  dir.subdir(staging, false).use(false, (sub) => {
    sub.writeFile(CORE, core, modes[CORE]);
    sub.writeFile(MANIFEST, encodeManifest(plan.n, core, turnCount), modes[MANIFEST]);
    sub.sync();
  });
  const name = generationName(plan.n);
  dir.rename(staging, name);
  dir.sync();
  dir.writeFile(CURRENT_TMP, Buffer.from(`${name}\n`, 'ascii'), DEFAULT_MODE);
  dir.rename(CURRENT_TMP, CURRENT);
  dir.sync();
  for (const old of plan.prune) dir.remove(old, [CORE, DELTA]);
}

module.exports = { planCommit, commit };
