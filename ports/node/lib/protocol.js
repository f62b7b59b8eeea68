'use strict';
// core-engine/1 (docs/protocol.md): the envelope, the op table and one handler per op.

const path = require('node:path');
const json = require('./json');
const algebra = require('./algebra');
const variation = require('./variation');
const registers = require('./registers');
const { lexiconRows } = require('./lexicon');
const { loadLexicon } = require('./truth');
const { ChatSession } = require('./chat');
const { StateOps, Pending } = require('./state/ops');
const { LivedSession } = require('./state/lived');
const { setCurrentVersion } = require('./state/records');
const {
  MAX_ANGLE,
  fail,
  badArg,
  stringArg,
  nullableStringArg,
  objectArg,
  indexArg,
  stringList,
  markersArg,
  intentArg,
  filesArg,
  withStagedFiles,
  finiteNumber,
  multivectorArg,
} = require('./args');

const { EngineError } = registers;
const PROTOCOL = 'core-engine/1';
const ENGINE = { name: 'core-node', version: '0.1.0', language: 'javascript' };

const mvResult = (mv) => ({ multivector: mv.map((x) => new json.Float(x + 0)) });

// Ops -----------------------------------------------------------------------------------------

class Engine {
  /** *only*: the capabilities to claim (null: all of them); other ops are unknown ops. */
  constructor(dataDir, only = null) {
    this.registerDir = path.join(dataDir, 'registers', 'data');
    this.lexiconDir = path.join(dataDir, 'lexicon', 'data');
    this.formsFile = path.join(dataDir, 'truth', 'data', 'forms.json');
    this.ops = {
      hello: { cap: null, args: [], run: () => this.hello() },
      'lexicon.list': { cap: 'lexicon', args: [], run: () => ({ lemmas: lexiconRows(this.lexiconDir) }) },
      'register.validate': {
        cap: 'registers.validate',
        args: ['pack'],
        optional: ['expected_id'],
        run: (a) => {
          const pack = objectArg(a, 'pack');
          const expected = nullableStringArg(a, 'expected_id');
          return { register_id: registers.parsePack(pack, expected).register_id };
        },
      },
      'register.ratify': { cap: 'registers.ratify', args: ['pack'], run: (a) => this.ratify(a) },
      'register.load': { cap: 'registers.load', args: ['register_id', 'files'], run: (a) => this.load(a) },
      'variation.select': {
        cap: 'variation',
        args: ['bucket', 'trace_hash', 'register_id', 'turn_idx', 'bucket_name'],
        run: (a) => {
          const bucket = stringList(a.bucket, 'bucket', "argument 'bucket'");
          const index = variation.selectIndex(
            bucket,
            stringArg(a, 'trace_hash'),
            stringArg(a, 'register_id'),
            indexArg(a, 'turn_idx'),
            stringArg(a, 'bucket_name'),
          );
          return { entry: index === null ? '' : bucket[index], index };
        },
      },
      'variation.decorate': {
        cap: 'variation',
        args: ['surface', 'discourse_markers', 'register_id', 'trace_hash', 'turn_idx'],
        run: (a) =>
          variation.decorate(
            stringArg(a, 'surface'),
            markersArg(a, 'discourse_markers'),
            stringArg(a, 'register_id'),
            stringArg(a, 'trace_hash'),
            indexArg(a, 'turn_idx'),
          ),
      },
      'overrides.resolve': {
        cap: 'overrides',
        args: ['realizer_overrides', 'intent'],
        run: (a) => {
          const overrides = objectArg(a, 'realizer_overrides');
          return { disclosure_domain_count: variation.resolveDepth(overrides, intentArg(a, 'intent')) };
        },
      },
      batch: { cap: 'batch', args: ['requests'], run: (a) => this.batch(a) },
      'session.open': { cap: 'sessions', args: ['register_id'], optional: ['files'], run: (a) => this.open(a) },
      'session.chat': {
        cap: 'sessions',
        args: ['session', 'text'],
        run: (a) => {
          const id = stringArg(a, 'session');
          const text = stringArg(a, 'text');
          return this.chat(id, text);
        },
      },
      'session.close': {
        cap: 'sessions',
        args: ['session'],
        run: (a) => {
          const id = stringArg(a, 'session');
          this.session(id);
          this.endSession(id);
          return {};
        },
      },
      'algebra.product': {
        cap: 'algebra',
        args: ['a', 'b'],
        run: (a) => mvResult(algebra.product(multivectorArg(a, 'a'), multivectorArg(a, 'b'))),
      },
      'algebra.reverse': { cap: 'algebra', args: ['a'], run: (a) => mvResult(algebra.reverse(multivectorArg(a, 'a'))) },
      'algebra.grade': {
        cap: 'algebra',
        args: ['a', 'grade'],
        run: (a) => {
          const mv = multivectorArg(a, 'a');
          if (typeof a.grade !== 'number' || !Number.isInteger(a.grade) || a.grade < 0 || a.grade > 5) {
            badArg('grade', "argument 'grade' must be an integer in 0..5");
          }
          return mvResult(algebra.gradePart(mv, a.grade));
        },
      },
      'algebra.rotor': { cap: 'algebra', args: ['bivector', 'angle'], run: (a) => this.rotor(a) },
      'algebra.versor_apply': {
        cap: 'algebra',
        args: ['versor', 'x'],
        run: (a) => mvResult(algebra.versorApply(multivectorArg(a, 'versor'), multivectorArg(a, 'x'))),
      },
      'algebra.versor_condition': {
        cap: 'algebra',
        args: ['versor'],
        run: (a) => ({ condition: new json.Float(algebra.versorCondition(multivectorArg(a, 'versor'))) }),
      },
    };
    this.emit = () => {};
    this.state = new StateOps((message) => this.emit(message));
    Object.assign(this.ops, this.state.table());
    for (const [name, op] of Object.entries(this.ops)) {
      if (only !== null && op.cap !== null && !only.includes(op.cap)) delete this.ops[name];
    }
    this.sessions = new Map();
    this.lives = new Map();
    this.sessionsOpened = 0;
    this.lexicon = null;
    const claimed = new Set(Object.values(this.ops).map((op) => op.cap).filter(Boolean));
    // `answers` gates no op: it puts `says` in every session.chat result.
    this.answers = claimed.has('sessions') && (only === null || only.includes('answers'));
    if (this.answers) claimed.add('answers');
    if ((only === null || only.includes('state.life')) && claimed.has('state') && claimed.has('sessions')) {
      claimed.add('state.life');
      this.ops['session.open'].optional.push('store');
    }
    if ((only === null || only.includes('state.delta')) && claimed.has('state.life')) claimed.add('state.delta');
    this.capabilities = [...claimed].sort();
    setCurrentVersion(claimed.has('state.delta') ? 5 : claimed.has('state.life') ? 4 : 3);
  }

  hello() {
    return { protocol: PROTOCOL, engine: ENGINE, capabilities: this.capabilities };
  }

  /** Argument checks, then the store (STATE_NOT_OPEN, STATE_IN_USE), then the register. */
  open(a) {
    const id = nullableStringArg(a, 'register_id');
    const withFiles = Object.hasOwn(a, 'files');
    if (withFiles && !this.capabilities.includes('registers.load')) badArg('files', "argument 'files' needs the registers.load capability");
    const files = withFiles ? filesArg(a, 'files') : null;
    const storeId = Object.hasOwn(a, 'store') ? stringArg(a, 'store') : null;
    const store = storeId === null ? null : this.state.store({ store: storeId });
    if (this.lives.has(storeId)) {
      fail('STATE_IN_USE', `store ${JSON.stringify(storeId)} carries the life of session ${JSON.stringify(this.lives.get(storeId))}`, 'store');
    }
    const pack =
      files === null
        ? id === null
          ? null
          : registers.loadPack(id, [this.registerDir])
        : withStagedFiles(files, (dir) => (id === null ? null : registers.loadPack(id, [dir, this.registerDir])));
    if (this.lexicon === null) this.lexicon = loadLexicon(this.lexiconDir, this.formsFile);
    const chat = new ChatSession(this.lexicon, pack, this.answers);
    this.sessionsOpened += 1;
    const session = `s${this.sessionsOpened}`;
    if (store === null) {
      this.sessions.set(session, { chat, store: null });
      return { session };
    }
    const lived = new LivedSession(chat, store);
    this.sessions.set(session, { chat, store: storeId, lived });
    this.lives.set(storeId, session);
    return { session, turn_idx: lived.turnIdx };
  }

  /** One turn; a session on a store answers once its checkpoint is durable, and a refused
   * turn (its store closed, its checkpoint refused) ends the session. */
  chat(id, text) {
    const entry = this.session(id);
    if (entry.store === null) return entry.chat.chat(text);
    try {
      const store = this.state.store({ store: entry.store });
      if (store !== entry.lived.store) fail('STATE_NOT_OPEN', `store ${JSON.stringify(entry.store)} is not open`, 'store');
      return entry.lived.turn(text);
    } catch (err) {
      this.endSession(id);
      throw err;
    }
  }

  endSession(id) {
    const entry = this.sessions.get(id);
    this.sessions.delete(id);
    if (entry && entry.store !== null && this.lives.get(entry.store) === id) this.lives.delete(entry.store);
  }

  session(id) {
    if (!this.sessions.has(id)) fail('SESSION_UNKNOWN', `no open session ${JSON.stringify(id)}`, 'session');
    return this.sessions.get(id);
  }

  ratify(a) {
    const pack = registers.parsePack(objectArg(a, 'pack'), null);
    const { report, pack: sealed } = registers.ratify(pack);
    const id = pack.register_id;
    const encode = (value) => Buffer.from(json.pretty(value), 'utf8').toString('base64');
    return { files: { [`${id}.json`]: encode(sealed), [`${id}.mastery_report.json`]: encode(report) }, report };
  }

  load(a) {
    const id = stringArg(a, 'register_id');
    const files = filesArg(a, 'files');
    return withStagedFiles(files, (dir) => ({ pack: registers.loadPack(id, [dir, this.registerDir]) }));
  }

  rotor(a) {
    const bivector = multivectorArg(a, 'bivector');
    if (!finiteNumber(a.angle, MAX_ANGLE)) badArg('angle', "argument 'angle' must be a finite number of magnitude <= 64");
    try {
      return mvResult(algebra.rotor(bivector, json.numberValue(a.angle)));
    } catch (err) {
      if (err instanceof algebra.DomainError) badArg('bivector', err.message);
      throw err;
    }
  }

  batch(a) {
    const requests = a.requests;
    if (!Array.isArray(requests)) badArg('requests', "argument 'requests' must be a list");
    requests.forEach((item, i) => {
      if (json.isObject(item) && item.op === 'batch') badArg('requests', `requests[${i}] is a nested batch`);
    });
    return { responses: requests.map((item) => this.handle(item)) };
  }

  /** Check the envelope and argument names, then run the op. */
  dispatch(request, stepped = false) {
    if (!json.isObject(request)) fail('PROTOCOL_BAD_JSON', 'a request must be a JSON object', undefined);
    if (!validId(request.id)) fail('PROTOCOL_BAD_REQUEST', 'id must be an integer or a string', 'id');
    if (typeof request.op !== 'string') fail('PROTOCOL_BAD_REQUEST', 'op must be a string', 'op');
    const args = Object.hasOwn(request, 'args') ? request.args : Object.create(null);
    if (!json.isObject(args)) fail('PROTOCOL_BAD_REQUEST', 'args must be an object', 'args');
    const op = Object.hasOwn(this.ops, request.op) ? this.ops[request.op] : null;
    if (op === null) fail('PROTOCOL_UNKNOWN_OP', `unknown op ${JSON.stringify(request.op)}`, 'op');
    const known = [...op.args, ...(op.optional || [])];
    for (const name of Object.keys(args).sort(json.byCodePoint)) {
      if (!known.includes(name)) badArg(name, `unknown argument ${JSON.stringify(name)}`);
    }
    for (const name of op.args) {
      if (!Object.hasOwn(args, name)) badArg(name, `missing argument '${name}'`);
    }
    return op.run(args, request.id, stepped);
  }

  /** One parsed request in, one response object out; never throws. With *stepped* (a
   * top-level request), a soak's result is a Pending whose steps the caller runs. */
  handle(request, stepped = false) {
    const id = json.isObject(request) && validId(request.id) ? request.id : null;
    try {
      return { id, ok: true, result: this.dispatch(request, stepped) };
    } catch (err) {
      return this.refusal(id, err);
    }
  }

  /** The response refusing request *id* for *err*. */
  refusal(id, err) {
    if (err instanceof EngineError) {
      const error = { code: err.code, message: oneLine(err.message) };
      if (err.field !== undefined && err.field !== null) error.field = err.field;
      return { id: err.code === 'PROTOCOL_BAD_JSON' ? null : id, ok: false, error };
    }
    return { id, ok: false, error: { code: 'ENGINE_INTERNAL', message: oneLine(`internal error: ${err.message}`) } };
  }

  /** One line of bytes in, one response line out. */
  handleLine(bytes) {
    const started = this.startLine(bytes, false);
    return started.line;
  }

  /**
   * One line of bytes in: `{line}`, its response line, or (with *stepped*, for a top-level
   * state.soak) `{steps, finish}`: a generator yielding between acknowledged checkpoints, and
   * the function that turns how it ended (`{value}` or `{error}`) into the response line.
   */
  startLine(bytes, stepped = true) {
    let request;
    try {
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      request = json.parse(text);
    } catch (err) {
      const message = oneLine(`line is not JSON: ${err.message}`);
      return { line: json.wire({ id: null, ok: false, error: { code: 'PROTOCOL_BAD_JSON', message } }) };
    }
    const response = this.handle(request, stepped);
    if (!(response.ok && response.result instanceof Pending)) return { line: json.wire(response) };
    const { id } = response;
    const finish = (ended) =>
      json.wire(Object.hasOwn(ended, 'error') ? this.refusal(id, ended.error) : { id, ok: true, result: ended.value });
    return { steps: response.result.steps, finish };
  }
}

function validId(id) {
  return json.isInteger(id) || typeof id === 'string';
}

/**
 * A message on one line (docs/protocol.md § Responses): each line break one space, each other
 * control character a \xNN escape; past 500 code points it is cut, never inside a character.
 */
function oneLine(text) {
  const flat = String(text)
    .split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/)
    .join(' ')
    .replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const chars = Array.from(flat);
  return chars.length <= 500 ? flat : `${chars.slice(0, 497).join('')}...`;
}

module.exports = { Engine };
