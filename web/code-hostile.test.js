// "Copy as code" fed hostile text through the page's link, in every field the
// link carries (shapes, dim names and labels, the expression, its operand
// names, the mapping, the axis and the options) and every mode: each tab's
// snippet, forward and backward, is run as a pasted file (JavaScript in Node,
// Python in python3) and must not run the text, and must still parse and do
// what it says (finish, or throw the very error its `// throws` comment names, or print
// the refusal its `// → false CODE` comment names).
// The page's own path: stateFromQuery -> buildRequest -> explain -> codeFor.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../dist/node.js';
import { codeFor } from './code.js';
import { jsCommentText } from './escape.js';
import { stateFromQuery, buildRequest, explainExpression, CODE_TABS } from './logic.js';
import { runJs, runPython } from '../tests/tools/run-snippets.mjs';
import { hostileLinks, RAN, JS_RUN } from '../tests/tools/hostile-links.mjs';

beforeAll(async () => { await tc.init(); });

/** What the page computes for a state (main.js render / renderExpression). */
export function pagePlan(state) {
  const built = buildRequest(state);
  if (!built.ok) return { built, plan: null };
  return { built, plan: state.rule === 'expression' ? explainExpression(built.request) : tc.explain(built.request) };
}

describe('copy as code, fed hostile text through the link', () => {
  it('no snippet of any tab, forward or backward, runs the text; each still parses and does what it says', () => {
    const js = [];
    const py = [];
    for (const link of hostileLinks()) {
      for (const back of [false, true]) {
        const state = { ...stateFromQuery(link), backward: back };
        if (back && state.rule === 'expression') continue;
        const { built, plan } = pagePlan(state);
        for (const tab of CODE_TABS) {
          const c = codeFor(tab, state, built, plan);
          if (!c.code) continue;
          const where = `${link}${back ? ' (backward)' : ''} [${tab}]`;
          if (c.lang === 'js') js.push({ where, code: c.code });
          else if (c.lang === 'python') py.push({ where, code: c.code });
          else expect(c.code, where).not.toContain('PW'); // C++ (OpenVINO's PDPD) takes no typed text
        }
      }
    }
    // The hostile text did reach the code: in comments and in strings, with each line terminator.
    const all = js.map((s) => s.code).join('\n');
    const esc = (t) => t.replace(/[\\`$*+?.()[\]{}|^]/g, '\\$&');
    for (const t of ['\u2028', '\u2029', '\u0085']) {
      expect(all, `a comment holding ${JSON.stringify(t)}`).toMatch(new RegExp(`^// .*${esc(jsCommentText(`q${t}${JS_RUN}`))}`, 'm'));
    }
    for (const t of ['\\n', '\\r', '\\u2028', '\\u2029', '\\u0085']) expect(all, `a string holding ${t}`).toMatch(new RegExp(`'q${esc(t)}console`));
    expect(all).toContain('coords: { X: [');
    expect(js.length).toBeGreaterThan(60);

    const ran = runJs(js.map((s) => s.code));
    expect(ran.status, ran.stderr).toBe(0);
    // First: nothing the link carried ran, in any snippet.
    expect(ran.flatMap((r, i) => (RAN.test(r.out) ? [`${js[i].where}\n${js[i].code}`] : [])), 'the text ran').toEqual([]);
    ran.forEach((r, i) => {
      const { where, code } = js[i];
      const claim = /^\/\/ throws (\S+):/m.exec(code);
      const answer = /^\/\/ → false (\S+) /m.exec(code);
      if (answer) {
        // A refused expression: explain() answers with the error the comment names, and the snippet prints it.
        expect(r.ok, `${where}: ${JSON.stringify(r.error)}\n${code}`).toBe(true);
        expect(r.out, where).toContain(`false ${answer[1]} explain: `);
      } else if (claim) {
        // A refused expression: compile() or explain() (not the module's parse) throws the error the comment names.
        expect(r.ok, where).toBe(false);
        expect(r.error.code ?? r.error.name, where).toBe(claim[1]);
        expect(r.error.message, where).toMatch(/^(compile|explain): /); // the library's, not a parse error of the module
      } else {
        expect(r.ok, `${where}: ${JSON.stringify(r.error)}\n${code}`).toBe(true);
      }
    });

    const pran = runPython(py.map((s) => s.code));
    expect(pran.status, pran.stderr).toBe(0);
    expect(pran.flatMap((r, i) => (RAN.test(r.out) ? [`${py[i].where}\n${py[i].code}`] : [])), 'the text ran').toEqual([]);
    pran.forEach((r, i) => {
      expect(r.ok, `${py[i].where}: ${JSON.stringify(r.error)}\n${py[i].code}`).toBe(true);
    });
  }, 240_000);

  it('an expression whose operand names are reserved words or the snippet\'s own names still runs, under other names', () => {
    const state = stateFromQuery('?rule=expression&e=import%20%2B%20await%20*%20eval%20%2B%20out%20%2B%20init%20%2B%20v0%20%2B%20half&v=import:2,3&v=v0:3');
    const { built, plan } = pagePlan(state);
    expect(plan.ok).toBe(true);
    const c = codeFor('tensorcast', state, built, plan);
    expect(c.code).toContain("const out = evaluate('import + await * eval + out + init + v0 + half', { import: _v0, await: v1, eval: v2, out: v3, init: v4, v0, half: v6 });");
    const [r] = runJs([c.code]);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.out).toMatch(/^out \(2,3\): /);
  });
});
