#!/usr/bin/env node
// Transcribes tests/fixtures/golden.json into a C++ include of golden::Case
// records (tests/cpp/golden_case.hpp) for tests/cpp/golden_test.cpp.
//
//   node golden_to_cpp.mjs <in.json> <out.inc>
//
// Dim notation (golden.json "dynamic_notation"):
//   int >= 0           static dim
//   -1                 in a numpy_to / broadcast_to_minus1 target: Dim::keep() (spec §5)
//   "?"                Dim::dynamic()
//   "a..b" "a.." "..b" intervals [a,b], [a, kUnbounded], [0,b]
//   "$name"            ONNX symbolic dim: treated as "?" (symbol identity is not modelled)
//   null               ONNX unknown dim: the case is skipped (reason recorded)
//   "[...]"            unknown rank (also the character list ["[",".",".",".","]"])
//   {"values_unknown":true,"length":n}   n dynamic dims; a non-integer length = unknown rank
// axes_mapping: a list = known values; a string ("param(dynamic)", "param shape [2]") =
// mapping_known false.
//
// Expected errors: the golden messages are other frameworks' texts, so only
// "refused" is asserted, plus the code where the spec names an obvious one.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const [, , inPath, outPath] = process.argv;
if (!inPath || !outPath) {
  console.error('usage: node golden_to_cpp.mjs <in.json> <out.inc>');
  process.exit(2);
}
const doc = JSON.parse(readFileSync(inPath, 'utf8'));

const UNBOUNDED = 'tc::kUnbounded';
const UNKNOWN_RANK = -1;
const STATUS = {
  IncompatibleDims: 2, ShapeMismatch: 3, RankMismatch: 4, InvalidAxis: 5, InvalidAxesMapping: 6,
  MinusOneInNewAxis: 7,
};
const FAMILY = {
  numpy: 'Numpy', none: 'None', pdpd: 'Pdpd', numpy_to: 'NumpyTo', explicit: 'Explicit',
  bidirectional: 'Bidirectional', pdpd_broadcast_op: 'PdpdBroadcastOp',
  broadcast_to_minus1: 'BroadcastToMinus1', onnx_unidirectional: 'OnnxUnidirectional',
  named_missing: 'NamedMissing',
};

class Skip extends Error {}

// ---- dims and shapes --------------------------------------------------------
// A parsed dim: {lo, hi} with hi === Infinity for unbounded, or {keep: true}.
function parseDim(v, allowKeep, where) {
  if (v === null) throw new Skip('ONNX unknown (null) dim');
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`${where}: dim ${v} is not a safe integer`);
    if (v === -1 && allowKeep) return { keep: true };
    if (v < 0) throw new Error(`${where}: negative dim ${v} outside a -1 target`);
    return { lo: v, hi: v };
  }
  if (typeof v !== 'string') throw new Error(`${where}: bad dim ${JSON.stringify(v)}`);
  if (v === '?' || v.startsWith('$')) return { lo: 0, hi: Infinity };
  const m = /^(\d*)\.\.(\d*)$/.exec(v);
  if (m && (m[1] !== '' || m[2] !== '')) {
    const lo = m[1] === '' ? 0 : Number(m[1]);
    const hi = m[2] === '' ? Infinity : Number(m[2]);
    if (!(lo <= hi)) throw new Error(`${where}: empty interval ${v}`);
    return { lo, hi };
  }
  throw new Error(`${where}: bad dim ${JSON.stringify(v)}`);
}

const isUnknownRank = (v) => v === '[...]' || (Array.isArray(v) && v.length === 5 && v.join('') === '[...]');

// A parsed shape: null = unknown rank, else a list of parsed dims.
function parseShape(v, allowKeep, where) {
  if (isUnknownRank(v)) return null;
  if (Array.isArray(v)) {
    if (v.length > 32) throw new Error(`${where}: rank ${v.length} > 32`);
    return v.map((d, i) => parseDim(d, allowKeep, `${where}[${i}]`));
  }
  if (v && typeof v === 'object' && v.values_unknown === true) {
    if (Number.isInteger(v.length)) return Array.from({ length: v.length }, () => ({ lo: 0, hi: Infinity }));
    return null;  // length "?" or a symbol: the target's rank is unknown
  }
  throw new Error(`${where}: bad shape ${JSON.stringify(v)}`);
}

function dimText(d) {
  if (d.keep) return '-1';
  if (d.lo === d.hi) return String(d.lo);
  if (d.lo === 0 && d.hi === Infinity) return '?';
  return `${d.lo === 0 ? '' : d.lo}..${d.hi === Infinity ? '' : d.hi}`;
}
const shapeText = (s) => (s === null ? '[...]' : `[${s.map(dimText).join(',')}]`);

// ---- pools -------------------------------------------------------------------
const dims = [];      // C++ tc::Dim initialisers
const operands = [];  // C++ golden::ShapeRef initialisers
const ints = [];      // C++ tc::i64 values (mappings, names, labels, positions)

function poolShape(s) {
  if (s === null) return { rank: UNKNOWN_RANK, first: 0 };
  const first = dims.length;
  for (const d of s) {
    if (d.keep) dims.push('tc::Dim::keep()');
    else dims.push(`tc::Dim{${d.lo}, ${d.hi === Infinity ? UNBOUNDED : d.hi}}`);
  }
  return { rank: s.length, first };
}
const shapeRef = (r) => `{${r.rank}, ${r.first}}`;
function poolInts(list) {
  const first = ints.length;
  for (const x of list) ints.push(x);
  return first;
}

// Names and labels interned to integer ids (the JS layer does the same with strings).
const ids = new Map();
const intern = (v) => {
  const key = JSON.stringify(v);
  if (!ids.has(key)) ids.set(key, ids.size + 1);
  return ids.get(key);
};

// ---- expected codes where the spec names one -----------------------------------
function expectedCode(family, ops, axis, mapping) {
  switch (family) {
    case 'none': return STATUS.ShapeMismatch;  // §2
    case 'numpy':
    case 'bidirectional': return STATUS.IncompatibleDims;  // §1, §4.3: only dims can clash
    case 'numpy_to':
    case 'broadcast_to_minus1':
    case 'onnx_unidirectional': {
      const [input, target] = ops;
      if (input === null || target === null) return 'kAnyError';
      if (target.length < input.length) return STATUS.RankMismatch;  // §4.1
      const added = target.length - input.length;
      if (target.slice(0, added).some((d) => d.keep)) return STATUS.MinusOneInNewAxis;  // §5
      return STATUS.IncompatibleDims;
    }
    case 'explicit': {
      const [input, target] = ops;
      if (!mapping || input === null || target === null) return 'kAnyError';
      const rank = input.length === 0 && mapping.length === 1 ? 1 : input.length;
      const bad = mapping.length !== rank ||
        mapping.some((m, i) => m < 0 || m >= target.length || (i > 0 && m <= mapping[i - 1]));
      return bad ? STATUS.InvalidAxesMapping : STATUS.IncompatibleDims;  // §4.2
    }
    case 'pdpd':
    case 'pdpd_broadcast_op': {
      const big = ops[family === 'pdpd' ? 0 : 1];
      if (big !== null && (axis < -1 || axis > big.length)) return STATUS.InvalidAxis;  // §3.2
      return 'kAnyError';
    }
    default: return 'kAnyError';
  }
}

// ---- one case ------------------------------------------------------------------
const named = [];
const namedDims = [];

function namedOperand(t, where) {
  if (!t || typeof t.dims !== 'object') throw new Error(`${where}: no dims`);
  const first = namedDims.length;
  const entries = Object.entries(t.dims);
  for (const [name, labels] of entries) {
    if (!Array.isArray(labels)) throw new Error(`${where}: labels of ${name} not a list`);
    namedDims.push(`{${intern(name)}, ${labels.length}, ${poolInts(labels.map(intern))}}`);
  }
  return { rank: entries.length, first, names: entries.map(([n]) => n) };
}

function buildNamed(c, where) {
  const { left, right } = c.inputs;
  const L = namedOperand(left, `${where}.left`);
  const R = namedOperand(right, `${where}.right`);
  const e = c.expect;
  if (e.error) throw new Error(`${where}: named error cases are not modelled`);
  const outNames = e.dims ?? e.left_dims;
  if (!Array.isArray(outNames)) throw new Error(`${where}: no expected dims`);
  if (e.right_dims && [...e.right_dims].sort().join('\0') !== [...outNames].sort().join('\0')) {
    throw new Error(`${where}: right_dims differ from left_dims`);
  }
  const sizes = [e.size, e.left_size, e.right_size].filter((x) => x !== undefined);
  const posLists = [e.positions, e.shape_positions, e.left_positions, e.right_positions].filter(Boolean);
  const canon = (ps) => ps.map((p) => JSON.stringify(p)).sort().join('|');
  for (const p of posLists) {
    if (canon(p) !== canon(posLists[0])) throw new Error(`${where}: position lists disagree`);
  }
  for (const s of sizes) if (s !== sizes[0]) throw new Error(`${where}: sizes disagree`);
  const positions = posLists[0];
  const size = sizes.length ? sizes[0] : positions ? positions.length : null;
  if (size === null) throw new Error(`${where}: nothing to assert`);
  if (positions && positions.length !== size) throw new Error(`${where}: size vs positions`);
  let firstPos = 0;
  if (positions) {
    firstPos = ints.length;
    for (const p of positions) {
      if (p.length !== outNames.length) throw new Error(`${where}: position arity`);
      poolInts(p.map(intern));
    }
  }
  // Labels are given on every dim here, so the default shaping is intersection (§6).
  const shaping = /exact/i.test(c.inputs.shaping ?? '') ? 0 : 1;
  named.push(`{{${L.rank}, ${L.first}}, {${R.rank}, ${R.first}}, ${shaping}, ${outNames.length}, ` +
    `${poolInts(outNames.map(intern))}, ${size}, ${positions ? positions.length : -1}, ${firstPos}}`);
  const dimsText = (o, t) => `{${o.names.map((n) => `${n}:${t.dims[n].length}`).join(',')}}`;
  return {
    index: named.length - 1,
    name: `named ${dimsText(L, left)} ${dimsText(R, right)} -> (${outNames.join(',')}) size ${size}`,
  };
}

function buildCase(c, where) {
  const family = c.family;
  if (!(family in FAMILY)) throw new Error(`${where}: unknown family ${family}`);
  const I = c.inputs;
  const e = c.expect;
  const rec = {
    family: FAMILY[family], ops: [], axis: 0, mappingKnown: true, mapping: [], named: -1,
    expectOk: !e.error, expectShape: null, code: 'kAnyError', name: '',
  };
  if (family === 'named_missing') {
    const n = buildNamed(c, where);
    rec.named = n.index;
    rec.name = n.name;
    return rec;
  }
  let ops;
  let label;
  switch (family) {
    case 'numpy':
    case 'none':
      ops = I.shapes.map((s, i) => parseShape(s, false, `${where}.shapes[${i}]`));
      label = ops.length > 6 ? `${shapeText(ops[0])} x${ops.length}` : ops.map(shapeText).join(' ');
      if (ops.length === 0) label = '(no operands)';
      break;
    case 'pdpd':
      ops = [parseShape(I.A, false, `${where}.A`), parseShape(I.B, false, `${where}.B`)];
      rec.axis = I.axis ?? -1;
      label = `A ${shapeText(ops[0])} B ${shapeText(ops[1])} axis ${rec.axis}`;
      break;
    case 'onnx_unidirectional':  // B is broadcast to A: input B, target A
      ops = [parseShape(I.B, false, `${where}.B`), parseShape(I.A, false, `${where}.A`)];
      label = `B ${shapeText(ops[0])} to A ${shapeText(ops[1])}`;
      break;
    default: {
      const keep = family === 'numpy_to' || family === 'broadcast_to_minus1';
      ops = [parseShape(I.input, false, `${where}.input`), parseShape(I.target, keep, `${where}.target`)];
      label = `${shapeText(ops[0])} to ${shapeText(ops[1])}`;
      if (family === 'explicit') {
        if (Array.isArray(I.axes_mapping)) {
          rec.mapping = I.axes_mapping;
          label += ` map [${rec.mapping.join(',')}]`;
        } else if (typeof I.axes_mapping === 'string') {
          rec.mappingKnown = false;
          label += ' map ?';
        } else throw new Error(`${where}: bad axes_mapping`);
      }
      if (family === 'pdpd_broadcast_op') {
        rec.axis = I.axis ?? -1;
        label += ` axis ${rec.axis}`;
      }
    }
  }
  rec.ops = ops;
  if (rec.expectOk) {
    if (!('shape' in e)) throw new Error(`${where}: expect has neither shape nor error`);
    if (e.shape === null) throw new Skip('no shape inferred by the source (expect shape null)');
    rec.expectShape = parseShape(e.shape, false, `${where}.expect`);
    rec.name = `${family} ${label} -> ${shapeText(rec.expectShape)}`;
  } else {
    rec.code = expectedCode(family, ops, rec.axis, rec.mappingKnown ? rec.mapping : null);
    rec.name = `${family} ${label} -> error`;
  }
  return rec;
}

// ---- C++ output --------------------------------------------------------------------
function cstr(s) {
  if (s === null || s === undefined) return 'nullptr';
  let out = '"';
  for (const byte of Buffer.from(String(s), 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (ch === '"' || ch === '\\' || ch === '?') out += '\\' + ch;
    else if (byte >= 0x20 && byte < 0x7f) out += ch;
    else out += '\\' + byte.toString(8).padStart(3, '0');
  }
  return out + '"';
}

const cases = [];
let skipped = 0;
const lists = [['cases', doc.cases], ['dynamic_cases', doc.dynamic_cases]];
for (const [key, list] of lists) {
  if (!Array.isArray(list)) throw new Error(`${inPath}: "${key}" is not a list`);
  list.forEach((c, i) => {
    const where = `${key}[${i}]`;
    let rec;
    let skip = null;
    try {
      rec = buildCase(c, where);
    } catch (err) {
      if (!(err instanceof Skip)) throw err;
      skip = err.message;
      if (c.expect && c.expect.shape === null && !/expect shape null/.test(skip)) {
        skip += '; the source infers no shape (expect shape null)';
      }
      skipped++;
      rec = { family: FAMILY[c.family], ops: [], axis: 0, mappingKnown: true, mapping: [], named: -1,
        expectOk: false, expectShape: null, code: 'kAnyError',
        name: `${c.family} ${JSON.stringify(c.inputs)}` };
    }
    const firstOp = operands.length;
    for (const s of rec.ops) operands.push(shapeRef(poolShape(s)));
    const firstMap = poolInts(rec.mapping);
    const exp = rec.expectShape === null && rec.expectOk ? { rank: UNKNOWN_RANK, first: 0 }
      : rec.expectOk ? poolShape(rec.expectShape) : { rank: 0, first: 0 };
    cases.push(`  {${cstr(where)}, ${cstr(rec.name)}, ${cstr(c.source)}, ${cstr(c.note)}, ` +
      `Family::${rec.family}, ${firstOp}, ${rec.ops.length}, ${rec.axis}, ` +
      `${rec.mappingKnown}, ${firstMap}, ${rec.mapping.length}, ${rec.expectOk}, ` +
      `${shapeRef(exp)}, ${rec.code}, ${rec.named}, ${cstr(skip)}},`);
  });
}

// C++ has no empty arrays: every pool ends with a sentinel.
const text = `// Generated by tests/tools/golden_to_cpp.mjs from ${inPath.split('/').slice(-2).join('/')}.
// Do not edit: edit the fixture or the generator.
#pragma once
#include "golden_case.hpp"

namespace golden {

inline const tc::Dim kDims[] = {
${dims.map((d) => `  ${d},`).join('\n')}
  tc::Dim{1, 1},  // sentinel
};

inline const ShapeRef kOperands[] = {
${operands.map((o) => `  ${o},`).join('\n')}
  {0, 0},  // sentinel
};

inline const tc::i64 kInts[] = {
  ${ints.map(String).join(', ')}${ints.length ? ',' : ''}
  0,  // sentinel
};

inline const NamedDim kNamedDims[] = {
${namedDims.map((d) => `  ${d},`).join('\n')}
  {0, 0, -1},  // sentinel
};

inline const NamedCase kNamed[] = {
${named.map((n) => `  ${n},`).join('\n')}
  {{0, 0}, {0, 0}, 0, 0, 0, 0, -1, 0},  // sentinel
};

inline const Case kCases[] = {
${cases.join('\n')}
};

inline constexpr int kNumCases = ${cases.length};
inline constexpr int kNumSkippedByGenerator = ${skipped};

}  // namespace golden
`;
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, text);
console.log(`golden_to_cpp: ${cases.length} cases (${skipped} skipped) -> ${outPath}`);
