// Writes the committed seed corpus of the rule fuzzer (tests/fuzz/corpus/):
// the spec's examples and edge cases, encoded in the input format described
// at the top of rules_fuzz.cpp. Run: node tests/fuzz/make_seeds.mjs
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus');

const RULE = { numpy: 0, none: 1, pdpd: 2, to_numpy: 3, explicit: 4, bidirectional: 5, to_pdpd: 6, named: 7 };
const SMALL = { 1: 0, 0: 1, 2: 2, 3: 3, 4: 5, 5: 6 }; // dim value -> tag (see rules_fuzz.cpp)

function i64(v) {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt(v));
  return [...b];
}

// A dim: a small number, a big one (raw i64), -1 (keep), '?', 'lo..hi' (lo, hi < 255), or {raw: [lo, hi]}.
function dim(d) {
  if (typeof d === 'number' || typeof d === 'bigint') {
    if (d === -1) return [0xe0];
    if (typeof d === 'number' && d in SMALL) return [SMALL[d]];
    return [0xc0, ...i64(d)];
  }
  if (d === '?') return [0xe8];
  if (typeof d === 'string') {
    const [lo, hi] = d.split('..');
    return [0xf0, Number(lo || 0), hi === '' ? 0xff : Number(hi)];
  }
  return [0xf8, ...i64(d.raw[0]), ...i64(d.raw[1])];
}

// A shape: an array of dims, '[...]' (unknown rank), or {rank: n} for an invalid rank.
function shape(s) {
  if (s === '[...]') return [0xff];
  if (!Array.isArray(s)) return s.rank < 0 ? [0xfe] : [0xf0 + (s.rank - 33)];
  return [s.length, ...s.flatMap(dim)];
}

const axis = (a) => (a >= -128 && a <= 127 && a !== -128 ? [a & 0xff] : [0x80, ...i64(a)]);
const mapping = (m) => (m === null ? [0xff] : [m.length, ...m.flatMap(axis)]);

// Named operand: [[name, size, labels?], ...] with names as small ints.
function named(op) {
  if (!Array.isArray(op)) return [0xf0 + (op.rank - 33)];
  return [op.length, ...op.flatMap(([name, size, labels]) => [
    name, ...(size > 5 || size < 0 ? [0xff, ...i64(size)] : [size]), labels ? 1 : 0, ...(labels ?? []),
  ])];
}

const seeds = {
  'numpy-spec-2x1x6-3x1': [RULE.numpy, 0, 2, ...shape([2, 1, 6]), ...shape([3, 1])],
  'numpy-spec-8x1x6x1-7x1x5': [RULE.numpy, 1, 2, ...shape([8, 1, 6, 1]), ...shape([7, 1, 5])],
  'numpy-zero-1x0-0x1': [RULE.numpy, 0, 2, ...shape([1, 0]), ...shape([0, 1])],
  'numpy-clash-3-2': [RULE.numpy, 0, 2, ...shape([3]), ...shape([2])],
  'numpy-no-operands': [RULE.numpy, 0, 0],
  'numpy-five-operands': [RULE.numpy, 0, 5, ...shape([5]), ...shape([1, 1, 1]), ...shape([4, 1]), ...shape([]), ...shape([2, 1, 1])],
  'numpy-rank-32': [RULE.numpy, 0, 2, ...shape(new Array(32).fill(1)), ...shape([3])],
  'numpy-rank-33-invalid': [RULE.numpy, 0, 2, ...shape({ rank: 33 }), ...shape([3])],
  'numpy-huge-dims': [RULE.numpy, 0, 2, ...shape([2 ** 53 - 1, 2 ** 53 - 1]), ...shape([1])],
  'numpy-dim-2^53-invalid': [RULE.numpy, 0, 1, ...shape([2 ** 53])],
  'numpy-negative-dim': [RULE.numpy, 0, 1, ...shape([-5])],
  'numpy-intervals': [RULE.numpy, 0, 2, ...shape(['?', 4, 1, 6, '1..6', '2..6']), ...shape(['?', 1, 5, 6, '5..8', '5..8'])],
  'numpy-unknown-rank': [RULE.numpy, 0, 2, ...shape('[...]'), ...shape([3, 2, 4])],
  'numpy-raw-bad-interval': [RULE.numpy, 0, 1, ...shape([{ raw: [5, 2] }])],
  'none-identical': [RULE.none, 0, ...shape([2, 3]), ...shape([2, 3])],
  'none-rank-differs': [RULE.none, 0, ...shape([2, 4]), ...shape([1, 2, 4])],
  'none-intervals': [RULE.none, 1, ...shape(['2..6']), ...shape(['5..8'])],
  'pdpd-spec-axis1': [RULE.pdpd, 0, ...shape([2, 3, 4, 5]), ...shape([3, 1]), ...axis(1)],
  'pdpd-default-axis': [RULE.pdpd, 0, ...shape([2, 3, 4, 5]), ...shape([4, 5]), ...axis(-1)],
  'pdpd-scalar-b': [RULE.pdpd, 0, ...shape([2, 3, 4, 5]), ...shape([]), ...axis(-1)],
  'pdpd-spec-error': [RULE.pdpd, 0, ...shape([8, 1, 6, 1]), ...shape([7, 1, 5]), ...axis(1)],
  'pdpd-trailing-ones': [RULE.pdpd, 0, ...shape([2, 3]), ...shape([3, 1, 1]), ...axis(1)],
  'pdpd-zero-vs-one': [RULE.pdpd, 0, ...shape([2, 1]), ...shape([0]), ...axis(1)],
  'pdpd-axis-int64-min': [RULE.pdpd, 0, ...shape([2]), ...shape([2]), ...axis(-(2n ** 63n))],
  'pdpd-axis-too-big': [RULE.pdpd, 1, ...shape([2, 3]), ...shape([3]), ...axis(40)],
  'to-numpy-minus-one': [RULE.to_numpy, 0, ...shape([3, 1, 5, 1]), ...shape([-1, -1, 5, 6])],
  'to-numpy-minus-one-new-axis': [RULE.to_numpy, 0, ...shape([1, 5, 9]), ...shape([3, -1, 4, 1, 5, 9])],
  'to-numpy-scalar-to-zero': [RULE.to_numpy, 0, ...shape([]), ...shape([0])],
  'to-numpy-rank-mismatch': [RULE.to_numpy, 1, ...shape([2, 3]), ...shape([3])],
  'to-numpy-unknown-input': [RULE.to_numpy, 0, ...shape('[...]'), ...shape([-1, 3])],
  'explicit-spec': [RULE.explicit, 0, ...shape([16]), ...shape([1, 16, 50, 50]), ...mapping([1])],
  'explicit-stretch': [RULE.explicit, 0, ...shape([3, 1]), ...shape([2, 3, 3]), ...mapping([1, 2])],
  'explicit-scalar-one-entry': [RULE.explicit, 0, ...shape([]), ...shape([1, 2]), ...mapping([0])],
  'explicit-unsorted': [RULE.explicit, 0, ...shape([3, 4]), ...shape([4, 3, 5]), ...mapping([1, 0])],
  'explicit-duplicate': [RULE.explicit, 0, ...shape([3, 4]), ...shape([3, 4, 5]), ...mapping([1, 1])],
  'explicit-unknown-mapping': [RULE.explicit, 0, ...shape([3]), ...shape([2, 3]), ...mapping(null)],
  'explicit-33-entries': [RULE.explicit, 0, ...shape([]), ...shape([3]), ...mapping(new Array(33).fill(0))],
  'bidirectional-spec': [RULE.bidirectional, 0, ...shape([3, 1]), ...shape([2, 1, 6])],
  'bidirectional-lower-target': [RULE.bidirectional, 1, ...shape([1, 3, 1]), ...shape([3, 1])],
  'bidirectional-clash': [RULE.bidirectional, 0, ...shape([4, 3, 2]), ...shape([8, 6, 4])],
  'to-pdpd-spec': [RULE.to_pdpd, 0, ...shape([3, 1]), ...shape([2, 3, 6]), ...axis(1)],
  'to-pdpd-target-ones': [RULE.to_pdpd, 0, ...shape([3, 6]), ...shape([2, 1, 1]), ...axis(-1)],
  'to-pdpd-does-not-fit': [RULE.to_pdpd, 1, ...shape([3, 1, 1]), ...shape([2, 3]), ...axis(-1)],
  'named-insert': [RULE.named, 1, 0, ...named([[0, 2]]), ...named([[1, 3]])],
  'named-permuted': [RULE.named, 0, 0, ...named([[0, 2], [1, 3]]), ...named([[1, 3], [2, 4], [0, 2]])],
  'named-size1-not-stretched': [RULE.named, 0, 0, ...named([[0, 1]]), ...named([[0, 3]])],
  'named-intersection': [RULE.named, 0, 1, ...named([[0, 3, [1, 2, 3]]]), ...named([[0, 3, [3, 1, 7]]])],
  'named-union': [RULE.named, 0, 2, ...named([[0, 3, [1, 2, 3]]]), ...named([[0, 3, [3, 1, 7]]])],
  'named-exact-labels-differ': [RULE.named, 0, 0, ...named([[0, 2, [1, 2]]]), ...named([[0, 2, [2, 1]]])],
  'named-duplicate-name': [RULE.named, 0, 1, ...named([[0, 2], [0, 2]]), ...named([])],
  'named-duplicate-labels': [RULE.named, 0, 1, ...named([[0, 2, [4, 4]]]), ...named([])],
  'named-rank-33': [RULE.named, 0, 1, ...named({ rank: 33 }), ...named([])],
  'named-huge-size': [RULE.named, 0, 1, ...named([[0, 2 ** 53 - 1]]), ...named([[1, 2 ** 53]])],
  // Issue 11: several clashes, dynamic PDPD, mapping checks with a rank unknown.
  'numpy-several-clashes': [RULE.numpy, 0, 3, ...shape([8, 4, 6, 1]), ...shape([7, 3, 5]), ...shape([1])],
  'numpy-clash-beside-unknown': [RULE.numpy, 0, 3, ...shape(['?']), ...shape([3]), ...shape([4])],
  'none-several-clashes': [RULE.none, 0, ...shape([4, 3, 2]), ...shape([5, 3, 1])],
  'pdpd-dynamic-b-only-checked': [RULE.pdpd, 0, ...shape(['1..3', '2..7']), ...shape(['?', '?']), ...axis(0)],
  'pdpd-axis-with-unknown-b': [RULE.pdpd, 0, ...shape([2, 3]), ...shape('[...]'), ...axis(3)],
  'to-pdpd-dynamic-target-kept': [RULE.to_pdpd, 0, ...shape(['?', '?']), ...shape(['1..3', '2..7']), ...axis(0)],
  'to-pdpd-unknown-input': [RULE.to_pdpd, 0, ...shape('[...]'), ...shape([2, 1, 3]), ...axis(-1)],
  'explicit-unknown-target-negative': [RULE.explicit, 0, ...shape([3]), ...shape('[...]'), ...mapping([-4])],
  'explicit-unknown-input-unsorted': [RULE.explicit, 0, ...shape('[...]'), ...shape([2, 3, 4]), ...mapping([1, 0])],
  'named-several-clashes': [RULE.named, 0, 0, ...named([[0, 1], [1, 3], [2, 4]]), ...named([[2, 6], [0, 7]])],
};

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
for (const [name, bytes] of Object.entries(seeds)) writeFileSync(path.join(dir, name), Uint8Array.from(bytes));
console.log(`wrote ${Object.keys(seeds).length} seeds to ${path.relative(process.cwd(), dir)}`);
