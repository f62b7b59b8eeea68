'use strict';
// Delta generations (docs/state.md § Delta generations): delta.jsonl's framed entries,
// applied to the records of a base.

const { parseJournal, frame } = require('./journal');
const { RecordError, checkRecord, kindsAt, isKey, slot } = require('./records');

/** A delta.jsonl whose frames do not check (torn or corrupt): its generation is proven invalid. */
class DeltaDamaged extends Error {}

const utf8 = (s) => Buffer.from(s, 'utf8');
const order = (a, b) => Buffer.compare(utf8(a.kind), utf8(b.kind)) || Buffer.compare(utf8(a.key), utf8(b.key));

/** One entry read: {kind, key, record (null for a delete)}, or a RecordError. */
function readEntry(entry, number, version) {
  const members = Object.keys(entry).sort().join(',');
  if (entry.op === 'put' && members === 'op,record') {
    let record;
    try {
      record = checkRecord(entry.record, version);
    } catch (err) {
      if (err instanceof RecordError) throw new RecordError(err.member, `delta.jsonl entry ${number}: ${err.message}`);
      throw err;
    }
    return { kind: record.kind, key: record.key, record };
  }
  if (entry.op === 'delete' && members === 'key,kind,op') {
    if (typeof entry.kind !== 'string' || !kindsAt(version).includes(entry.kind)) {
      throw new RecordError('kind', `delta.jsonl entry ${number} deletes an unknown kind`);
    }
    if (!isKey(entry.key)) throw new RecordError('key', `delta.jsonl entry ${number} deletes a malformed key`);
    return { kind: entry.kind, key: entry.key, record: null };
  }
  throw new RecordError('op', `delta.jsonl entry ${number} is neither a put nor a delete`);
}

/**
 * The records of *base* (a Map slot -> record) with the entries of *bytes* applied: a
 * DeltaDamaged when any frame does not check, else a RecordError when an entry is not one
 * the format writes (not a JSON object, another op or member, a malformed record, not
 * canonical, out of order).
 */
function applyDelta(base, bytes, version) {
  const parsed = parseJournal(bytes);
  const damaged = parsed.skipped.filter((n) => !parsed.notObjects.includes(n));
  if (damaged.length > 0 || parsed.cut > 0) throw new DeltaDamaged('delta.jsonl holds a frame that does not check');
  if (parsed.notObjects.length > 0) {
    throw new RecordError('record', `delta.jsonl entry ${parsed.notObjects[0]} is not a JSON object`);
  }
  const records = new Map(base);
  const lines = [];
  let previous = null;
  parsed.entries.forEach((entry, i) => {
    const read = readEntry(entry, i + 1, version);
    if (previous !== null && order(previous, read) >= 0) {
      throw new RecordError('key', `delta.jsonl entry ${i + 1} is out of (kind, key) order or repeated`);
    }
    previous = read;
    if (read.record === null) {
      records.delete(slot(read.kind, read.key));
      lines.push(frame({ op: 'delete', kind: read.kind, key: read.key }));
    } else {
      records.set(slot(read.kind, read.key), read.record);
      lines.push(frame({ op: 'put', record: read.record }));
    }
  });
  if (!Buffer.concat(lines).equals(bytes)) throw new RecordError('record', 'delta.jsonl holds an entry that is not canonical JSON');
  return records;
}

module.exports = { DeltaDamaged, applyDelta };
