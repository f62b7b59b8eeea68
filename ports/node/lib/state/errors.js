'use strict';
// State refusals (docs/state.md § Error codes): typed STATE_* errors, and the mapping of an
// operating-system error on an entry to STATE_SYMLINK, STATE_UNREADABLE or STATE_IO.

const { EngineError } = require('../registers');

const refuse = (code, message, field) => {
  throw new EngineError(code, message, field);
};

/** Errors that say an existing entry cannot be read (a load refuses them as STATE_UNREADABLE). */
const UNREADABLE = new Set(['EACCES', 'EPERM', 'EIO']);

/** The OS error's code and its words, e.g. "EACCES (permission denied)". */
function describe(err) {
  const words = String(err.message || '').split(',')[0].replace(/^[A-Z0-9]+: /, '');
  return err.code ? `${err.code} (${words})` : words;
}

/**
 * The refusal for OS error *err* met on *where* (a path as the client sees it): a link is
 * STATE_SYMLINK; when *reading* for a load, what exists but cannot be read is
 * STATE_UNREADABLE; anything else is STATE_IO, naming the path and the OS error.
 */
function osRefusal(err, where, reading) {
  if (err instanceof EngineError) return err;
  if (err.code === 'ELOOP') return new EngineError('STATE_SYMLINK', `${where} is a symbolic link`, 'path');
  if (reading && UNREADABLE.has(err.code)) {
    return new EngineError('STATE_UNREADABLE', `cannot read ${where}: ${describe(err)}`, 'path');
  }
  return new EngineError('STATE_IO', `${where}: ${describe(err)}`, 'path');
}

const symlink = (where) => refuse('STATE_SYMLINK', `${where} is a symbolic link`, 'path');
const io = (where, what) => refuse('STATE_IO', `${where}: ${what}`, 'path');

module.exports = { EngineError, refuse, describe, osRefusal, symlink, io };
