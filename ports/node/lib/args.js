'use strict';
// Typed request arguments (docs/protocol.md): each helper returns the value or throws
// PROTOCOL_BAD_ARGS naming the top-level argument.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const json = require('./json');
const { SIZE } = require('./algebra');
const { EngineError, INTENTS } = require('./registers');

const MAX_COEFFICIENT = 1e50;
const MAX_ANGLE = 64;

const fail = (code, message, field) => {
  throw new EngineError(code, message, field);
};
const badArg = (name, message) => fail('PROTOCOL_BAD_ARGS', message, name);

function stringArg(args, name) {
  if (typeof args[name] !== 'string') badArg(name, `argument '${name}' must be a string`);
  return args[name];
}

function nullableStringArg(args, name) {
  const value = Object.hasOwn(args, name) ? args[name] : null;
  if (value !== null && typeof value !== 'string') badArg(name, `argument '${name}' must be a string or null`);
  return value;
}

function objectArg(args, name) {
  if (!json.isObject(args[name])) badArg(name, `argument '${name}' must be an object`);
  return args[name];
}

function indexArg(args, name) {
  const value = args[name];
  if (!json.isInteger(value) || value < 0) badArg(name, `argument '${name}' must be an integer >= 0`);
  return value;
}

function stringList(value, name, where) {
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) badArg(name, `${where} must be a list of strings`);
  return value;
}

function markersArg(args, name) {
  const markers = objectArg(args, name);
  for (const key of Object.keys(markers).sort(json.byCodePoint)) {
    if (!['openings', 'closings', 'transitions'].includes(key)) badArg(name, `${name}.${key} is not a marker bucket`);
  }
  for (const key of ['openings', 'closings']) {
    if (!Object.hasOwn(markers, key)) badArg(name, `${name}.${key} is missing`);
  }
  const out = {};
  for (const key of ['openings', 'closings', 'transitions']) {
    out[key] = stringList(Object.hasOwn(markers, key) ? markers[key] : [], name, `${name}.${key}`);
  }
  return out;
}

function intentArg(args, name) {
  const value = stringArg(args, name);
  if (!INTENTS.includes(value)) badArg(name, `argument '${name}' is not an IntentTag name`);
  return value;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const isPlainFileName = (name) =>
  name.endsWith('.json') && !/[/\\]/.test(name) && !/[\u0000-\u001f\u007f-\u009f]/.test(name);

function filesArg(args, name) {
  const files = objectArg(args, name);
  const out = [];
  for (const key of Object.keys(files).sort(json.byCodePoint)) {
    if (!isPlainFileName(key)) badArg(name, `file name ${JSON.stringify(key)} is not a plain *.json name`);
    if (typeof files[key] !== 'string') badArg(name, `files[${JSON.stringify(key)}] must be a base64 string`);
    if (!BASE64.test(files[key])) badArg(name, `files[${JSON.stringify(key)}] is not valid base64`);
    out.push([key, Buffer.from(files[key], 'base64')]);
  }
  return out;
}

/** Run *body* with the files written into a fresh temporary directory, removed afterwards. */
function withStagedFiles(files, body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-node-'));
  try {
    for (const [name, data] of files) {
      try {
        fs.writeFileSync(path.join(dir, name), data);
      } catch (err) {
        badArg('files', `file ${JSON.stringify(name)} cannot be written: ${err.code || err.message}`);
      }
    }
    return body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function finiteNumber(value, bound) {
  return json.isNumber(value) && Number.isFinite(json.numberValue(value)) && Math.abs(json.numberValue(value)) <= bound;
}

function multivectorArg(args, name) {
  const value = args[name];
  if (!Array.isArray(value) || value.length !== SIZE) badArg(name, `argument '${name}' must be a list of 32 numbers`);
  value.forEach((x, i) => {
    if (!finiteNumber(x, MAX_COEFFICIENT)) badArg(name, `${name}[${i}] must be a finite number of magnitude <= 1e50`);
  });
  return value.map(json.numberValue);
}

module.exports = {
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
};
