#!/usr/bin/env node
// Copies the shared golden vectors into the repo (tests/fixtures/golden.json)
// so the repository stands alone. Not run by the build; re-run by hand when the
// upstream vectors change:
//
//   node tests/tools/transcribe_golden.mjs <upstream golden.json> tests/fixtures/golden.json
//
// Every case of "cases" and "dynamic_cases" is kept with its fields. One
// mechanical normalisation: an unknown-rank shape that the upstream file spells
// as the character list ["[", ".", ".", ".", "]"] is written as the documented
// notation "[...]". Output: one case per line.
import { readFileSync, writeFileSync } from 'node:fs';

const [, , inPath, outPath] = process.argv;
if (!inPath || !outPath) {
  console.error('usage: node transcribe_golden.mjs <in.json> <out.json>');
  process.exit(2);
}

const src = JSON.parse(readFileSync(inPath, 'utf8'));
const KEYS = ['source', 'family', 'inputs', 'expect', 'note', 'contract_note', 'derived', 'disputed',
  'broadcast_axes', 'numpy_check'];

const isSplitUnknownRank = (v) =>
  Array.isArray(v) && v.length === 5 && v.join('') === '[...]';

let normalised = 0;
function normalise(v) {
  if (isSplitUnknownRank(v)) { normalised++; return '[...]'; }
  if (Array.isArray(v)) return v.map(normalise);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = normalise(x);
    return o;
  }
  return v;
}

function transcribe(list, name) {
  if (!Array.isArray(list)) throw new Error(`${name} is not a list`);
  return list.map((c, i) => {
    for (const k of Object.keys(c)) {
      if (!KEYS.includes(k)) throw new Error(`${name}[${i}]: unexpected field ${k}`);
    }
    for (const k of ['source', 'family', 'inputs', 'expect', 'note']) {
      if (!(k in c)) throw new Error(`${name}[${i}]: missing field ${k}`);
    }
    const o = {};
    for (const k of KEYS) if (k in c) o[k] = normalise(c[k]);
    return o;
  });
}

const cases = transcribe(src.cases, 'cases');
const dynamic = transcribe(src.dynamic_cases, 'dynamic_cases');
const format = { ...src.format };
format.transcription =
  'Copied from the shared golden vectors by tests/tools/transcribe_golden.mjs. Unknown-rank ' +
  'shapes spelled as ["[", ".", ".", ".", "]"] upstream are written "[...]". "counts" describes ' +
  'the upstream collection; this file holds ' + cases.length + ' static and ' + dynamic.length +
  ' dynamic cases.';

const lines = [];
lines.push('{');
lines.push(' "format": ' + JSON.stringify(format, null, 1).split('\n').join('\n ') + ',');
for (const [key, list, last] of [['cases', cases, false], ['dynamic_cases', dynamic, true]]) {
  lines.push(` "${key}": [`);
  list.forEach((c, i) => lines.push('  ' + JSON.stringify(c) + (i + 1 < list.length ? ',' : '')));
  lines.push(' ]' + (last ? '' : ','));
}
lines.push('}');
const text = lines.join('\n') + '\n';

// Round-trip check: the written file parses and holds the same cases.
const back = JSON.parse(text);
if (back.cases.length !== src.cases.length || back.dynamic_cases.length !== src.dynamic_cases.length) {
  throw new Error('case count changed in transcription');
}
writeFileSync(outPath, text);
console.log(`wrote ${outPath}: ${cases.length} cases, ${dynamic.length} dynamic_cases, ` +
  `${normalised} unknown-rank shapes normalised`);
