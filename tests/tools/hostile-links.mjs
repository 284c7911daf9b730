// Links to the explorer carrying hostile text in every field the page reads
// from a link, in every mode: text that would run code (print 40353607 or
// PWNED) if it ended a comment or a string of the copied code early, in
// JavaScript or in Python. Used by web/code-hostile.test.js (every link, the
// page's logic in Node) and tests/browser/explorer.test.js (a sample, the
// page in Chromium); both run the copied code.

// Code that prints 40353607 (7 ** 9) or PWNED when it runs; the text itself holds neither (nor a
// quote or a backslash, which the library's messages escape when they quote it, and it is short:
// they quote the first 40 characters of a token).
export const JS_RUN = 'console.log(7**9)';
export const PY_RUN = 'print(7**9)';
export const NAME_RUN = 'console.log`PW\\x4eED`'; // dim names hold no ( )
// A static import runs before the module's first line, so before the call that throws above a `// throws` comment.
export const IMPORT_RUN = "import 'data:text/javascript,console.log(7**9)'";
export const RAN = /40353607|PWNED/;
export const TERMINATORS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085'];
/** Text that runs code if it ends a comment or a string early, in JavaScript or Python. */
export const HOSTILE = [
  ...TERMINATORS.map((t) => `q${t}${JS_RUN};${t}${PY_RUN} #//`),
  ...TERMINATORS.map((t) => `q${t}${JS_RUN}//`),
  ...TERMINATORS.map((t) => `q${t}${IMPORT_RUN}//`),
  `*/${JS_RUN}/*`, `'+${JS_RUN}+'`, `"+${JS_RUN}+"`, `\`+${JS_RUN}+\``, `\${${JS_RUN}}`, `\\'+${JS_RUN}//`, `'''+${PY_RUN}+'''`,
  '-*- coding: utf-7 -*- +AAo-print(+ACc-PW+ACc-+-+ACc-NED+ACc-)',
];
// Dim names cannot hold whitespace or , { } [ ] ( ): what is left of the same attacks.
export const HOSTILE_NAMES = [`n\u0085${NAME_RUN}//`, `n*/${NAME_RUN}/*`, `n'+${NAME_RUN}+'`, `n"+${NAME_RUN}+"`, `n\`+${NAME_RUN}+\``, `n\\'+${NAME_RUN}//`, 'n\u001c\u001d\u001e', '__proto__'];

/** A link's query from [key, value] pairs (values percent-encoded, as the page writes them). */
export const q = (pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;

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


/** A sample of hostileLinks() for the page in Chromium: each field and mode once, each line terminator at least once. */
export function browserLinks() {
  const labels = (list) => list.map((l) => l.replace(/[,{}]/g, '')).join(',');
  const lt = HOSTILE.filter((h) => /[\u2028\u2029\u0085\r]/.test(h));
  return [
    q([['rule', 'named'], ['s', ''], ['s', ''], ['n', `X{${labels(lt.slice(0, 3))}}`], ['n', `X{${labels(lt.slice(0, 3).reverse())}}`]]),
    q([['rule', 'named'], ['s', ''], ['s', ''], ['n', `X{${labels(lt.slice(3, 6))}}`], ['n', `X{${labels(lt.slice(4, 6))}}`], ['shaping', 'union']]),
    q([['rule', 'named'], ['s', '2,3'], ['s', '3'], ['n', `${HOSTILE_NAMES[0]}, ${HOSTILE_NAMES[2]}`], ['n', HOSTILE_NAMES[2]]]),
    ...['\u2028', '\u2029', '\u0085'].map((t) => q([['rule', 'expression'], ['e', `sum(x, ["q${t}${IMPORT_RUN}//"])`], ['v', 'x:2,3']])),
    q([['rule', 'expression'], ['e', `x + 'q\u2028${JS_RUN}//'`], ['v', 'x:2,3']]),
    q([['rule', 'expression'], ...HOSTILE.slice(0, 6).map((h) => ['v', `${h}:2,3`])]),
    q([['rule', 'numpy'], ['s', '3'], ['s', '2,3'], ['axis', HOSTILE[4]], ['shaping', HOSTILE[1]], ['dtype', HOSTILE[2]], ['code', HOSTILE[5]]]),
    q([['rule', 'to-explicit'], ['s', '3'], ['s', '2,3'], ['map', HOSTILE[3]]]),
    q([['rule', 'pdpd'], ['s', HOSTILE[3]], ['s', '2,3'], ['axis', '1']]),
  ];
}
