'use strict';
// Cl(4,1) as docs/spec.md § Algebra defines it: 32 coefficients in blade-bitmask order,
// e1..e4 square to +1 and e5 to -1, e_A e_B = sign(A, B) e_(A xor B).

const SIZE = 32;
const METRIC = [1, 1, 1, 1, -1];
const NULL_TOLERANCE = 1e-12;
const SIMPLE_TOLERANCE = 1e-10;

const bits = (mask) => [0, 1, 2, 3, 4].filter((i) => (mask >> i) & 1);
const grade = (mask) => bits(mask).length;

function sign(left, right) {
  let swaps = 0;
  for (const i of bits(left)) for (const j of bits(right)) if (i > j) swaps += 1;
  let s = swaps % 2 ? -1 : 1;
  for (const i of bits(left & right)) s *= METRIC[i];
  return s;
}

const SIGN = Array.from({ length: SIZE }, (_, a) => Array.from({ length: SIZE }, (__, b) => sign(a, b)));
const GRADE = Array.from({ length: SIZE }, (_, m) => grade(m));
const REVERSE = GRADE.map((g) => (((g * (g - 1)) / 2) % 2 ? -1 : 1));

function product(a, b) {
  const out = new Array(SIZE).fill(0);
  for (let i = 0; i < SIZE; i += 1) {
    if (a[i] === 0) continue;
    for (let j = 0; j < SIZE; j += 1) {
      if (b[j] !== 0) out[i ^ j] += SIGN[i][j] * a[i] * b[j];
    }
  }
  return out;
}

const reverse = (a) => a.map((x, m) => REVERSE[m] * x);
const gradePart = (a, r) => a.map((x, m) => (GRADE[m] === r ? x : 0));
const squaredNorm = (a) => a.reduce((sum, x) => sum + x * x, 0);

class DomainError extends Error {}

/** exp(-angle/2 * B_hat) for a simple non-zero bivector B, in closed form. */
function rotor(bivector, angle) {
  if (bivector.some((x, m) => GRADE[m] !== 2 && x !== 0)) {
    throw new DomainError('rotor needs a pure grade-2 bivector');
  }
  const size = squaredNorm(bivector);
  if (size === 0) throw new DomainError('rotor needs a non-zero bivector');
  const square = product(bivector, bivector);
  if (Math.sqrt(squaredNorm(gradePart(square, 4))) > SIMPLE_TOLERANCE * size) {
    throw new DomainError('rotor needs a simple bivector (B wedge B must vanish)');
  }
  const half = angle / 2;
  let factor;
  let scalar;
  if (square[0] < -NULL_TOLERANCE * size) {
    factor = -Math.sin(half) / Math.sqrt(-square[0]);
    scalar = Math.cos(half);
  } else if (square[0] > NULL_TOLERANCE * size) {
    factor = -Math.sinh(half) / Math.sqrt(square[0]);
    scalar = Math.cosh(half);
  } else {
    factor = -half;
    scalar = 1;
  }
  const out = bivector.map((x) => x * factor);
  out[0] = scalar;
  return out;
}

/** The scalar 1. */
function blade0() {
  const out = new Array(SIZE).fill(0);
  out[0] = 1;
  return out;
}

const versorApply = (v, x) => product(product(v, x), reverse(v));

function versorCondition(v) {
  const residue = product(v, reverse(v));
  residue[0] -= 1;
  return Math.sqrt(squaredNorm(residue));
}

module.exports = { SIZE, blade0, DomainError, product, reverse, gradePart, rotor, versorApply, versorCondition };
