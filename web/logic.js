// The broadcast explorer's pure logic, in these rooms:
//   parse.js    the shape text a person types, read (state.js and expression.js share it);
//   state.js    the rules offered, parsing what a person types, the page state
//               and its URL form, the explain() request, the examples;
//   views.js    what is drawn from a plan: the dtype list, counts and sizes, axis
//               verdicts, the backward view, the memory view, the data preview's indices;
//   suggest.js  suggestions when shapes do not broadcast.
//
// Nothing here decides whether shapes broadcast: every verdict comes from the
// library's explain(). Suggestions are candidates that are only kept after the
// library accepted them (see `suggest`, which is handed the library).
// No DOM, no globals: everything is unit-tested under Vitest in Node.
//
// Shapes are printed and dtypes listed by the library itself (its
// formatShape/formatDim and DTYPES, filled by init()), never by a copy here.
export { formatShape, formatDim } from 'tensorcast';
export * from './state.js';
export * from './views.js';
export * from './suggest.js';
export * from './expression.js';
