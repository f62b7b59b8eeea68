'use strict';
// JSON in and out, as docs/spec.md § Canonical JSON and docs/protocol.md § Framing define it.
//
// Parsing keeps what JSON.parse loses: an integer (no fraction, no exponent) stays an
// integer (a Number when it is safe, else a BigInt) and anything else becomes a Float,
// so `1.0` is never mistaken for `1`. Strings holding a lone surrogate are refused.
// Writing sorts keys by Unicode code point and escapes strings exactly as the spec says.

class Float {
  constructor(value) {
    this.value = value;
  }
}

class JsonError extends Error {}

const MAX_DEPTH = 64; // deepest nesting of arrays and objects (docs/protocol.md § Error codes)
const MAX_INTEGER_DIGITS = 1000;
const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function parse(text, { membersOnce = false } = {}) {
  let pos = 0;
  const fail = (what) => {
    throw new JsonError(`${what} at column ${pos + 1}`);
  };
  const skip = () => {
    while (pos < text.length && WS.has(text.charCodeAt(pos))) pos += 1;
  };
  const number = () => {
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) fail('Expecting value');
    pos += match[0].length;
    if (match[2] === undefined && match[3] === undefined) {
      if (match[0].replace('-', '').length > MAX_INTEGER_DIGITS) fail(`An integer has more than ${MAX_INTEGER_DIGITS} digits`);
      const big = BigInt(match[0]);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(big) + 0
        : big;
    }
    const x = Number(match[0]);
    if (!Number.isFinite(x)) fail('A number is too large for a double');
    return new Float(x);
  };
  const string = () => {
    pos += 1;
    let out = '';
    for (;;) {
      if (pos >= text.length) fail('Unterminated string');
      const c = text[pos];
      if (c === '"') {
        pos += 1;
        break;
      }
      if (c.charCodeAt(0) < 0x20) fail('Invalid control character');
      if (c !== '\\') {
        out += c;
        pos += 1;
        continue;
      }
      const e = text[pos + 1];
      if (e === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid \\uXXXX escape');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        pos += 2;
      } else {
        fail('Invalid \\escape');
      }
    }
    if (!out.isWellFormed()) fail('Lone surrogate in string');
    return out;
  };
  const value = (depth) => {
    skip();
    const c = text[pos];
    if ((c === '{' || c === '[') && depth >= MAX_DEPTH) fail(`Nested deeper than ${MAX_DEPTH} levels`);
    if (c === '{') {
      pos += 1;
      const obj = Object.create(null);
      skip();
      if (text[pos] === '}') {
        pos += 1;
        return obj;
      }
      for (;;) {
        skip();
        if (text[pos] !== '"') fail('Expecting property name enclosed in double quotes');
        const key = string();
        if (membersOnce && Object.hasOwn(obj, key)) fail('A member named twice');
        skip();
        if (text[pos] !== ':') fail("Expecting ':' delimiter");
        pos += 1;
        obj[key] = value(depth + 1);
        skip();
        if (text[pos] === ',') {
          pos += 1;
        } else if (text[pos] === '}') {
          pos += 1;
          return obj;
        } else {
          fail("Expecting ',' delimiter");
        }
      }
    }
    if (c === '[') {
      pos += 1;
      const arr = [];
      skip();
      if (text[pos] === ']') {
        pos += 1;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        skip();
        if (text[pos] === ',') {
          pos += 1;
        } else if (text[pos] === ']') {
          pos += 1;
          return arr;
        } else {
          fail("Expecting ',' delimiter");
        }
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    return number();
  };
  const result = value(0);
  skip();
  if (pos !== text.length) fail('Extra data');
  return result;
}

// Kinds ---------------------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Float);
const isInteger = (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
const isNumber = (v) => isInteger(v) || v instanceof Float;
const numberValue = (v) => (v instanceof Float ? v.value : Number(v));

// Writing -------------------------------------------------------------------------------------

/** Compare two strings by Unicode code point (not by UTF-16 code unit). */
function byCodePoint(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const SHORT = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A JSON string: `"` and `\` escaped, control characters below U+0020 escaped, nothing else. */
function quote(s) {
  let out = '"';
  for (const c of s) {
    if (Object.hasOwn(SHORT, c)) out += SHORT[c];
    else if (c.charCodeAt(0) < 0x20) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

function scalar(v, floats) {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) {
    return String(v + 0);
  }
  const x = v instanceof Float ? v.value : v;
  if (typeof x !== 'number') throw new TypeError(`not JSON: ${typeof v}`);
  if (!floats) throw new TypeError('a float reached a canonical encoding');
  if (!Number.isFinite(x)) throw new TypeError('NaN and Infinity are not JSON');
  return String(x);
}

function encode(v, floats, indent, level) {
  const pad = indent ? `\n${' '.repeat(indent * (level + 1))}` : '';
  const end = indent ? `\n${' '.repeat(indent * level)}` : '';
  const colon = indent ? ': ' : ':';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[${v.map((x) => pad + encode(x, floats, indent, level + 1)).join(',')}${end}]`;
  }
  if (isObject(v)) {
    const keys = Object.keys(v).sort(byCodePoint);
    if (keys.length === 0) return '{}';
    const items = keys.map((k) => pad + quote(k) + colon + encode(v[k], floats, indent, level + 1));
    return `{${items.join(',')}${end}}`;
  }
  return scalar(v, floats);
}

/** Canonical JSON text: sorted keys, no whitespace, integers only (floats refused). */
const canonical = (v) => encode(v, false, 0, 0);
/** Wire JSON: canonical, but finite floats are allowed (shortest round-trip form). */
const wire = (v) => encode(v, true, 0, 0);
/** Normal form of files: sorted keys, two-space indent, trailing newline. */
const pretty = (v) => `${encode(v, false, 2, 0)}\n`;

module.exports = {
  Float,
  JsonError,
  parse,
  isObject,
  isInteger,
  isNumber,
  numberValue,
  byCodePoint,
  canonical,
  wire,
  pretty,
};
