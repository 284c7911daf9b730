// web/escape.js: the one way typed text reaches copied code. Each function
// over every line terminator of JavaScript and Python (and the characters
// tools split lines at), comment closers, quotes, backslashes, encoding
// declarations, bidi controls and lone surrogates: a string literal reads
// back as the very text, a comment stays one comment, and nothing after it
// runs. JavaScript is parsed and run by this Node; Python by python3.
import { describe, it, expect } from 'vitest';
import vm from 'node:vm';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { jsString, pyString, jsComment, pyComment, jsCommentText, pyCommentText, jsSource, pySource } from './escape.js';
import { runPython } from '../tests/tools/run-snippets.mjs';

// JavaScript's line terminators, Python's (LF, CR), what str.splitlines() also breaks at, and friends.
const BREAKS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\v', '\f', '\u001c', '\u001d', '\u001e', '\0', '\t'];
const CLOSERS = ['*/', '/*', '-->', '<!--', '"""', "'''", "'", '"', '`', '${', '\\', '\\\\', "\\'", '#', '//'];
const ODD = ['\u202e', '\u2066', '\ufeff', '\u200b', '\ud800', '\udfff', '\u{1f600}', '\u{10ffff}', '\u{e0001}', '\u007f', '\u009f', 'é', '中', ''];
// Each is followed by code that would run (in JS or in Python) if the text escaped its comment or string.
const JS_RUN = "globalThis.__ran = (globalThis.__ran ?? 0) + 1; //";
const PY_RUN = "__ran.append(1) #";
const texts = [];
for (const c of [...BREAKS, ...CLOSERS, ...ODD]) {
  texts.push(`${c}${JS_RUN}`, `x${c}${PY_RUN}`, `${c}'${JS_RUN}`, `${c}"+${JS_RUN}`, `a${c}${c}b${c}`);
}
texts.push('-*- coding: utf-7 -*-', '# vim: set fileencoding=utf-7 :', 'coding=latin-1', `\r\n*/${JS_RUN}\u2028${PY_RUN}`);

describe('JavaScript', () => {
  it('jsString: a literal that reads back as the text, for every line terminator, quote, closer and odd character', () => {
    for (const t of texts) {
      const lit = jsString(t);
      expect(lit, JSON.stringify(t)).not.toMatch(/[\n\r\u2028\u2029]/);
      const got = vm.runInNewContext(`(${lit})`);
      expect(got, JSON.stringify(t)).toBe(t);
      // As a module sees it too (strict, with top-level code after it).
      const ctx = vm.createContext({});
      vm.runInContext(`'use strict'; var v = ${lit}; var after = 1;`, ctx);
      expect(ctx.v).toBe(t);
      expect(ctx.after).toBe(1);
      expect(ctx.__ran).toBeUndefined();
    }
  });
  it('jsComment: one line comment, whatever the text; the line after it runs, nothing in it does', () => {
    for (const t of texts) {
      const c = jsComment(t);
      expect(c.startsWith('// ')).toBe(true);
      expect(c, JSON.stringify(t)).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
      expect(c).not.toContain('*/');
      const ctx = vm.createContext({});
      vm.runInContext(`after = 0;\n${c}\nafter = 1;`, ctx);
      expect(ctx.after, JSON.stringify(t)).toBe(1);
      expect(ctx.__ran, JSON.stringify(t)).toBeUndefined();
      // Inside a block comment too: `*/` never closes it.
      const ctx2 = vm.createContext({});
      vm.runInContext(`/* ${jsCommentText(t)} */ after = 2;`, ctx2);
      expect(ctx2.__ran).toBeUndefined();
      expect(ctx2.after).toBe(2);
    }
  });
  it('escapes every control, format, separator, surrogate, private and unassigned character, and nothing printable', () => {
    for (let cp = 0; cp < 0x3000; cp++) {
      const c = String.fromCodePoint(cp);
      const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/u.test(c);
      expect(jsCommentText(c) !== c, `U+${cp.toString(16)}`).toBe(unsafe);
      expect(pyCommentText(c) !== c, `U+${cp.toString(16)}`).toBe(unsafe);
    }
    expect(jsString('\u2028')).toBe("'\\u2028'");
    expect(jsString('\u2029')).toBe("'\\u2029'");
    expect(jsString("it's")).toBe('"it\'s"');
    expect(jsString('a\nb')).toBe("'a\\nb'");
    expect(jsComment('a */ b\u2028c')).toBe('// a *\\/ b\\u2028c');
  });
  it('jsSource: the net under the generators writes a raw terminator left in a string or comment as its escape (the same program)', () => {
    const code = jsSource(['const s = \'a\u2028b\u2029c\';', null, `// x\u2028${JS_RUN}`, 'after = 1;', '']);
    expect(code).not.toMatch(/[\r\u2028\u2029]/);
    const ctx = vm.createContext({});
    vm.runInContext(code.replace('const s', 'var s'), ctx);
    expect(ctx.s).toBe('a\u2028b\u2029c');
    expect(ctx.__ran).toBeUndefined();
    expect(ctx.after).toBe(1);
  });
});

const python = '/usr/bin/python3';
const hasPython = existsSync(python) && spawnSync(python, ['-c', 'pass']).status === 0;

describe('Python', () => {
  it('python3 is installed (scripts/test.mjs installs python3-numpy)', () => {
    expect(hasPython).toBe(true);
  });
  it('pyString and pyComment, for every text above, in a file python3 runs: literals read back, comments stay comments', () => {
    const expect1 = texts.map((t) => [...t].map((c) => c.codePointAt(0)));
    const programs = texts.map((t, i) => pySource([
      '__ran = []',
      pyComment(t),
      `s = ${pyString(t)}  ${pyComment(t)}`,
      pyComment(`${t}\n${t}`),
      `got = [ord(c) for c in s]`,
      `assert got == ${JSON.stringify(expect1[i])}, got`,
      'assert __ran == [], "ran the text"',
      "print('done')",
    ]));
    // An encoding declaration on line 1 or 2 would change how the file is read: pyComment never writes one.
    programs.push(pySource([pyComment('-*- coding: utf-7 -*-'), pyComment('coding=utf-7'), 's = 1 # +AAo-__ran = 1', "print('done')"]));
    const r = runPython(programs);
    r.forEach((x, i) => {
      expect(x.ok, `${JSON.stringify(texts[i] ?? 'coding')}: ${JSON.stringify(x.error)} ${r.stderr}`).toBe(true);
      expect(x.out.trim(), JSON.stringify(texts[i])).toBe('done');
    });
    expect(pyComment('-*- coding: utf-7 -*-')).toBe('# -*- coding\\x3A utf-7 -*-');
    expect(pyString("a'\u2028\0")).toBe("'a\\'\\u2028\\x00'");
  });
  it('pySource: the net escapes what is left raw and keeps an encoding declaration off lines 1 and 2', () => {
    expect(pySource(['# coding: utf-7', 'x = 1'])).toBe('# coding\\x3A utf-7\nx = 1');
    expect(pySource(['import x', '#   vim: fileencoding=latin-1', '# coding: fine here'])).toBe('import x\n#   vim: fileencoding\\x3Dlatin-1\n# coding: fine here');
    expect(pySource(['s = "a\u2028b"  # c\rd'])).toBe('s = "a\\u2028b"  # c\\rd');
  });
});
