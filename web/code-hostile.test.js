// "Copy as code" fed hostile text through the page's link, in every field the
// link carries (shapes, dim names and labels, the expression, its operand
// names, the mapping, the axis and the options) and every mode: each tab's
// snippet, forward and backward, is run as a pasted file (JavaScript in Node,
// Python in python3) and must not run the text, and must still parse and do
// what it says (finish, or throw the very error its `// throws` comment names).
// The page's own path: stateFromQuery -> buildRequest -> explain -> codeFor.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../dist/node.js';
import { codeFor } from './code.js';
import { jsCommentText } from './escape.js';
import { stateFromQuery, buildRequest, explainExpression, CODE_TABS, encodeQueryValue } from './logic.js';
import { runJs, runPython } from '../tests/tools/run-snippets.mjs';

beforeAll(async () => { await tc.init(); });

// Code that prints 40353607 (7 ** 9) or PWNED when it runs; the text itself holds neither (nor a
// quote or a backslash, which the library's messages escape when they quote it, and it is short:
// they quote the first 40 characters of a token).
const JS_RUN = 'console.log(7**9)';
const PY_RUN = 'print(7**9)';
const NAME_RUN = 'console.log`PW\\x4eED`'; // dim names hold no ( )
// A static import runs before the module's first line, so before the call that throws above a `// throws` comment.
const IMPORT_RUN = "import 'data:text/javascript,console.log(7**9)'";
const RAN = /40353607|PWNED/;
const TERMINATORS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085'];
/** Text that runs code if it ends a comment or a string early, in JavaScript or Python. */
export const HOSTILE = [
  ...TERMINATORS.map((t) => `q${t}${JS_RUN};${t}${PY_RUN} #//`),
  ...TERMINATORS.map((t) => `q${t}${JS_RUN}//`),
  ...TERMINATORS.map((t) => `q${t}${IMPORT_RUN}//`),
  `*/${JS_RUN}/*`, `'+${JS_RUN}+'`, `"+${JS_RUN}+"`, `\`+${JS_RUN}+\``, `\${${JS_RUN}}`, `\\'+${JS_RUN}//`, `'''+${PY_RUN}+'''`,
  '-*- coding: utf-7 -*- +AAo-print(+ACc-PW+ACc-+-+ACc-NED+ACc-)',
];
// Dim names cannot hold whitespace or , { } [ ] ( ): what is left of the same attacks.
const HOSTILE_NAMES = [`n\u0085${NAME_RUN}//`, `n*/${NAME_RUN}/*`, `n'+${NAME_RUN}+'`, `n"+${NAME_RUN}+"`, `n\`+${NAME_RUN}+\``, `n\\'+${NAME_RUN}//`, 'n\u001c\u001d\u001e', '__proto__'];

const q = (pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeQueryValue(v)}`).join('&')}`;

/** The links: every field the page reads from a link, each with hostile text, in every mode. */
export function hostileLinks() {
  const links = [];
  const labels = (list) => list.map((l) => l.replace(/[,{}]/g, '')).join(',');
  // Named dims: hostile labels (both sides, in another order: a gather) and hostile dim names.
  // (A link's dim names field holds 400 characters: a few labels a link.)
  for (let i = 0; i < HOSTILE.length; i += 3) {
    const some = HOSTILE.slice(i, i + 3);
    for (const shaping of ['intersection', 'union', 'exact']) {
      links.push(q([['rule', 'named'], ['s', ''], ['s', ''], ['n', `X{${labels(some)}}`], ['n', `X{${labels([...some].reverse())}}`], ['shaping', shaping]]));
    }
  }
  links.push(q([['rule', 'named'], ['s', '2,3'], ['s', '3'], ['n', `${HOSTILE_NAMES[0]}, ${HOSTILE_NAMES[1]}`], ['n', HOSTILE_NAMES[1]]]));
  links.push(q([['rule', 'named'], ['s', '2,3,2'], ['s', '3,2'], ['n', `${HOSTILE_NAMES.slice(2, 5).join(', ')}`], ['n', HOSTILE_NAMES.slice(3, 5).join(', ')]]));
  links.push(q([['rule', 'named'], ['s', '2'], ['s', '2'], ['n', `${HOSTILE_NAMES[5]}{${labels(HOSTILE.slice(0, 2))}}`], ['n', `${HOSTILE_NAMES[6]}{a,b}`]]));
  links.push(q([['rule', 'named'], ['s', '9999,9999'], ['s', '9999'], ['n', `x, ${HOSTILE_NAMES[7]}`], ['n', HOSTILE_NAMES[7]]])); // too large to run: the calls in comments
  // Expressions: hostile text in a string literal (a refusal quoting it), around operators, and as operand names.
  for (const h of HOSTILE) {
    links.push(q([['rule', 'expression'], ['e', `x + '${h}'`], ['v', 'x:2,3']]));
    links.push(q([['rule', 'expression'], ['e', `x + ${h}`], ['v', 'x:2,3']]));
  }
  for (const t of TERMINATORS) links.push(q([['rule', 'expression'], ['e', `x${t}+ m`], ['v', 'x:2,3'], ['v', 'm:3']]));
  links.push(q([['rule', 'expression'], ['e', 'import + await * eval + out + init + v0'], ['v', 'import:2,3'], ['v', 'v0:3']]));
  links.push(q([['rule', 'expression'], ...HOSTILE.map((h) => ['v', `${h.replace(/:/g, '')}:2,3`])]));
  for (const t of TERMINATORS) {
    // The library's messages quote a dim, or a string that cannot stand somewhere, as typed.
    links.push(q([['rule', 'expression'], ['e', `sum(x, ["q${t}${IMPORT_RUN}//"])`], ['v', 'x:2,3']]));
    links.push(q([['rule', 'expression'], ['e', `sum(x, ['q${t}${JS_RUN}//'])`], ['v', 'x:2,3']]));
    links.push(q([['rule', 'expression'], ['e', `x + "q${t}${IMPORT_RUN}//"`], ['v', 'x:2,3']]));
  }
  // Every other mode: hostile shapes, mapping, axis and options.
  for (const rule of ['numpy', 'none', 'pdpd', 'to-numpy', 'to-explicit', 'to-bidirectional', 'to-pdpd']) {
    links.push(q([['rule', rule], ['s', HOSTILE[3]], ['s', '2,3']]));
    links.push(q([['rule', rule], ['s', '3'], ['s', '2,3'], ['map', HOSTILE[0]], ['axis', HOSTILE[4]], ['shaping', HOSTILE[1]], ['dtype', HOSTILE[2]], ['code', HOSTILE[5]]]));
  }
  return links;
}

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
      if (claim) {
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
    const state = stateFromQuery(q([['rule', 'expression'], ['e', 'import + await * eval + out + init + v0 + half'], ['v', 'import:2,3'], ['v', 'v0:3']]));
    const { built, plan } = pagePlan(state);
    expect(plan.ok).toBe(true);
    const c = codeFor('tensorcast', state, built, plan);
    expect(c.code).toContain("const out = evaluate('import + await * eval + out + init + v0 + half', { import: _v0, await: v1, eval: v2, out: v3, init: v4, v0, half: v6 });");
    const [r] = runJs([c.code]);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.out).toMatch(/^out \(2,3\): /);
  });
});
