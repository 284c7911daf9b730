// bindings/js has no import cycle (issue 38: operands.js, tensor.js and
// reshape.js imported each other): scripts/import-cycles.mjs finds every
// elementary cycle among the modules' relative imports.
import { describe, it, expect } from 'vitest';
import { importsOf, cycles } from '../../scripts/import-cycles.mjs';

describe('bindings/js imports', () => {
  it('has no cycle', () => {
    const g = importsOf();
    expect(Object.keys(g).length).toBeGreaterThan(30);
    expect(g['reshape.js']).toContain('tensor.js'); // the reader sees imports (a broken reader would find no cycle)
    expect(cycles(g)).toEqual([]);
  });

  it('the explorer page (web/) has none either (until 0.9.24 state.js, expression.js and views.js formed one)', () => {
    const g = importsOf(new URL('../../web/', import.meta.url).pathname);
    expect(g['state.js']).toContain('parse.js');
    expect(cycles(g)).toEqual([]);
  });

  it('finds a cycle where there is one', () => {
    expect(cycles({ 'a.js': ['b.js'], 'b.js': ['c.js'], 'c.js': ['a.js'], 'd.js': ['a.js'] })).toEqual([['a.js', 'b.js', 'c.js']]);
  });
});
