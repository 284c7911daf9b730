// The broadcast explorer in a real headless Chromium (Debian's `chromium`,
// driven by playwright-core; no browser is ever downloaded). The page is
// bundled with Vite into build/web-test, served by scripts/serve.mjs on a free
// port, and used the way a person would: typing shapes, switching rules,
// dragging the axis slider, picking an axes mapping, clicking examples.
//
// Screenshots go to build/screenshots/. With UPDATE_SCREENSHOT=1 the desktop
// one is also copied to docs/screenshot.png (the README's picture).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync, copyFileSync, statSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, CHROMIUM } from './chromium.js';
import { serve } from '../../scripts/serve.mjs';
import { buildWeb } from '../../scripts/start.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = path.join(root, 'build', 'screenshots');

let server;
let url;
let browser;
let page;
const problems = []; // console errors/warnings, page errors, CSP violations, failed requests
let probed = false; // the CSP probe below provokes one console error on purpose

function watch(p, tag) {
  p.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${tag} console.${m.type()}: ${m.text()}`);
  });
  p.on('pageerror', (e) => problems.push(`${tag} pageerror: ${e.message}`));
  // A favicon fetch the browser cancels (net::ERR_ABORTED) when the test navigates is not a failure.
  p.on('requestfailed', (r) => {
    if (r.failure()?.errorText === 'net::ERR_ABORTED' && r.url().endsWith('/favicon.svg')) return;
    problems.push(`${tag} request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  p.on('response', (r) => { if (r.status() >= 400) problems.push(`${tag} HTTP ${r.status()}: ${r.url()}`); });
  // Init scripts run through the DevTools protocol, outside the page's CSP.
  return p.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
}

async function open(p, query = '') {
  await p.goto(url + query);
  await p.waitForSelector('html[data-ready="true"]', { timeout: 15_000 });
}

const status = () => page.getByRole('status');
// A result shape, "(2,3,6)", waits for exactly that result (an error message
// may quote the same tuple); any other text, for the status to contain it.
async function statusHas(text, p = page) {
  if (/^\([^()]*\)$/.test(text)) await p.locator(`[role="status"] .status-shape[data-shape="${text}"]`).waitFor({ timeout: 5_000 });
  else await p.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 5_000 });
  return p.getByRole('status').textContent();
}
const shape = (letter) => page.getByLabel(`Shape ${letter}`);
// The address bar as the page set it (page.url() may lag behind history.replaceState).
const href = (p) => p.evaluate(() => location.href);

// Runs in the page: the WCAG 2 contrast ratio of every visible text against
// what is painted behind it (backgrounds composited up the tree, opacity
// included). Disabled controls and visually hidden text are exempt, as WCAG
// makes them. Returns the failures (< 4.5) and the body's own colours.
function measureContrast() {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return { r: 0, g: 0, b: 0, a: 0 };
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => {
    const a = top.a + under.a * (1 - top.a);
    if (a === 0) return { r: 0, g: 0, b: 0, a: 0 };
    const ch = (k) => (top[k] * top.a + under[k] * under.a * (1 - top.a)) / a;
    return { r: ch('r'), g: ch('g'), b: ch('b'), a };
  };
  const mix = (c, under, o) => ({ r: c.r * o + under.r * (1 - o), g: c.g * o + under.g * (1 - o), b: c.b * o + under.b * (1 - o), a: 1 });
  const lum = (c) => {
    const f = (v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const paint = (list, i, under, fg) => {
    const cs = getComputedStyle(list[i]);
    let c = over(parse(cs.backgroundColor), under);
    c = i === list.length - 1 ? (fg ? over(fg, c) : c) : paint(list, i + 1, c, fg);
    const o = Number(cs.opacity);
    return o < 1 ? mix(c, under, o) : c;
  };
  const canvas = { r: 255, g: 255, b: 255, a: 1 };
  const measure = (el) => {
    const list = [];
    for (let e = el; e; e = e.parentElement) list.unshift(e);
    const fg = parse(getComputedStyle(el).color);
    return ratio(paint(list, 0, canvas, fg), paint(list, 0, canvas, null));
  };
  const failures = [];
  let checked = 0;
  for (const el of document.body.querySelectorAll('*')) {
    if (['OPTION', 'SCRIPT', 'STYLE', 'TITLE'].includes(el.tagName)) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.closest('.sr-only, [hidden], :disabled')) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || !el.checkVisibility({ visibilityProperty: true })) continue;
    const cs = getComputedStyle(el);
    if (cs.clipPath !== 'none' && cs.position === 'absolute') continue;
    checked++;
    const v = measure(el);
    if (v < 4.5) failures.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 24)}" ${v.toFixed(2)}`);
  }
  const body = parse(getComputedStyle(document.body).backgroundColor);
  return { failures, checked, body: { luminance: lum(body), ratio: measure(document.body) } };
}

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'index.js'))) {
    const { build } = await import('../../scripts/build.mjs');
    build();
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (scripts/test.mjs does)`);
  const out = await buildWeb(path.join(root, 'build', 'web-test'));
  ({ server, url } = await serve(out, 0));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await watch(page, 'desktop');
  await open(page);
  mkdirSync(shots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
});

describe('broadcast explorer in Chromium', () => {
  it('loads under its CSP (no unsafe-eval) and shows the default NumPy example', async () => {
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toContain("'unsafe-inline'");
    expect(await statusHas('(8,7,6,5)')).toContain('1,680 elements');
    expect(await page.getByRole('status').count()).toBe(1); // one live region, for tests and screen readers
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(await page.evaluate(() => window.__csp)).toEqual([]); // loading the page violated nothing
    // The CSP is enforced (the WebAssembly engine runs under it, see the status):
    // an inline script is refused.
    const verdict = await page.evaluate(() => new Promise((resolve) => {
      window.__inlineRan = false;
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.append(s);
      setTimeout(() => resolve('no violation'), 2000);
    }));
    expect(verdict).toMatch(/^script-src/);
    expect(await page.evaluate(() => { const ran = window.__inlineRan; window.__csp = []; return ran; })).toBe(false);
    probed = true; // Chromium logs that refusal to the console, as it should
  });

  it('types shapes and draws the right-aligned table', async () => {
    await shape('A').fill('[2, 1, 6]');
    await shape('B').fill('3,1');
    expect(await statusHas('(2,3,6)')).toContain('Result');
    // B is padded with a ghost 1 on axis 0, A is stretched on axis 1.
    const bAxis0 = page.locator('tr[data-operand="B"] td[data-axis="0"]');
    expect(await bAxis0.getAttribute('class')).toContain('ghost');
    expect(await bAxis0.getAttribute('data-verdict')).toBe('new');
    expect(await page.locator('tr[data-operand="A"] td[data-axis="1"]').getAttribute('data-verdict')).toBe('stretched');
    expect(await page.locator('thead tr.neg td[data-axis="0"]').innerText()).toBe('−3');
    expect(await page.locator('tr.verdict-row td[data-verdict]').evaluateAll((tds) => tds.map((t) => t.dataset.verdict)))
      .toEqual(['new', 'stretched', 'stretched']);
    // Memory: 0 strides on the stretched axes.
    expect(await page.locator('#memory .strides').first().innerText()).toBe('[24, 0, 4]');
    // A scalar.
    await shape('B').fill('()');
    await statusHas('(2,1,6)');
  });

  it('shows the clash: message, code, highlighted axis and a verified suggestion', async () => {
    await shape('A').fill('3');
    await shape('B').fill('4');
    const text = await statusHas('axis 0 has 3 vs 4');
    expect(text).toContain('INCOMPATIBLE_DIMS');
    expect(text).toContain('operands could not be broadcast together with shapes (3,) (4,): axis 0 has 3 vs 4');
    const head = page.locator('thead th[data-axis="0"]');
    expect(await head.getAttribute('data-clash')).toBe('true');
    expect(await head.getAttribute('class')).toContain('col-error');
    expect(await page.locator('tr.verdict-row td[data-axis="0"]').getAttribute('data-verdict')).toBe('clash');
    await page.screenshot({ path: path.join(shots, 'explorer-error.png'), fullPage: true });
    // A clash in the middle of longer shapes highlights only that axis.
    await shape('A').fill('2, 3, 5');
    await shape('B').fill('4, 5');
    await statusHas('axis 1 has 3 vs 4');
    expect(await page.locator('thead th[data-clash="true"]').evaluateAll((els) => els.map((e) => e.dataset.axis))).toEqual(['1']);
    // The suggestion is one the library accepts: applying it succeeds.
    await shape('A').fill('3, 4');
    await shape('B').fill('3');
    await statusHas('axis 1 has 4 vs 3');
    const first = page.locator('#suggestion-list li').first();
    expect(await first.innerText()).toContain('reshape B to (3,1)');
    await first.getByRole('button', { name: 'Apply' }).click();
    await statusHas('(3,4)');
    expect(await shape('B').inputValue()).toBe('3, 1');
  });

  it('marks unreadable input without calling it a broadcast error', async () => {
    await shape('B').fill('3, x');
    const text = await statusHas('Cannot read the input');
    expect(text).toContain('Shape B: "x" is not a dim');
    expect(await shape('B').getAttribute('aria-invalid')).toBe('true');
    await shape('B').fill('1');
    await statusHas('(3,4)');
  });

  it('adds and removes operands (numpy is n-ary)', async () => {
    await page.getByRole('button', { name: '+ Add operand' }).click();
    await shape('C').fill('5, 1, 1');
    await statusHas('(5,3,4)');
    await page.getByRole('button', { name: 'Remove C' }).click();
    await statusHas('(3,4)');
    expect(await page.getByLabel('Shape C').count()).toBe(0);
  });

  it('switches to pdpd and moves the axis slider', async () => {
    await page.getByLabel('Rule', { exact: true }).selectOption('pdpd');
    await shape('A').fill('2, 3, 4, 5');
    await shape('B').fill('3, 1');
    await statusHas('axis 2 has 4 vs 3');
    expect(await page.locator('thead th[data-axis="2"]').getAttribute('data-clash')).toBe('true');
    expect(await page.locator('#suggestion-list').innerText()).toContain('use axis 1');
    await page.getByLabel('Axis', { exact: true }).fill('1');
    expect(await statusHas('(2,3,4,5)')).toContain('Result');
    expect(await page.locator('#axis-value').innerText()).toBe('1');
    // Keyboard: one step left on the slider is axis 0, where B [3,1] no longer fits.
    await page.getByLabel('Axis', { exact: true }).press('ArrowLeft');
    await statusHas('pdpd, axis 0');
    await page.getByLabel('Axis', { exact: true }).press('ArrowRight');
    await statusHas('(2,3,4,5)');
    expect(await href(page)).toContain('axis=1');
  });

  it('Broadcast explicit: types and picks the axes mapping', async () => {
    await page.getByLabel('Rule', { exact: true }).selectOption('to-explicit');
    await shape('A').fill('3, 1');
    await shape('B').fill('2, 3, 3');
    await page.getByLabel('Axes mapping', { exact: true }).fill('2, 1');
    const text = await statusHas('INVALID_AXES_MAPPING');
    expect(text).toContain('strictly increasing');
    expect(await page.locator('#suggestion-list').innerText()).toContain('use axes mapping [1, 2]');
    await page.getByLabel('Axes mapping', { exact: true }).fill('1, 2');
    await statusHas('(2,3,3)');
    // Pick input axis 0 -> output axis 0 in the grid: 3 against 2 clashes at axis 0.
    await page.getByRole('radiogroup', { name: /Input dim 0/ }).getByRole('radio', { name: /out 0/ }).click();
    expect(await page.getByLabel('Axes mapping', { exact: true }).inputValue()).toBe('0, 2');
    await statusHas('axis 0 has 3 vs 2');
    expect(await page.locator('thead th[data-axis="0"]').getAttribute('data-clash')).toBe('true');
    // Arrow keys move the focused pick back.
    await page.keyboard.press('ArrowRight');
    expect(await page.getByLabel('Axes mapping', { exact: true }).inputValue()).toBe('1, 2');
    await statusHas('(2,3,3)');
    // Drag input axis 1 from output axis 2 to output axis 1 and back.
    const cell = (i, j) => page.locator(`.map-cell[data-in="${i}"][data-out="${j}"]`);
    const from = await cell(1, 2).boundingBox();
    const to = await cell(1, 1).boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    expect(await page.getByLabel('Axes mapping', { exact: true }).inputValue()).toBe('1, 1');
    await statusHas('INVALID_AXES_MAPPING');
    await cell(1, 2).click();
    await statusHas('(2,3,3)');
    expect(await page.locator('tr.target-row').count()).toBe(1);
  });

  it('Broadcast numpy with -1 targets (MindSpore / torch expand)', async () => {
    await page.getByLabel('Rule', { exact: true }).selectOption('to-numpy');
    await shape('A').fill('3, 1, 5, 1');
    await shape('B').fill('-1, -1, 5, 6');
    await statusHas('(3,1,5,6)');
    await shape('A').fill('1, 5, 9');
    await shape('B').fill('3, -1, 4, 1, 5, 9');
    expect(await statusHas('MINUS_ONE_IN_NEW_AXIS')).toContain('-1 at axis 1 is on a new leading axis');
    expect(await page.locator('thead th[data-axis="1"]').getAttribute('data-clash')).toBe('true');
  });

  it('named dimensions: dims per axis, never stretched by name', async () => {
    await page.getByLabel('Rule', { exact: true }).selectOption('named');
    await shape('A').fill('2, 3');
    await page.getByLabel('Dims A').fill('x, t');
    await shape('B').fill('4');
    await page.getByLabel('Dims B').fill('t');
    const text = await statusHas('dim "t" (axis 1) has 3 vs 4');
    expect(text).toContain('INCOMPATIBLE_DIMS');
    expect(await page.locator('thead th[data-axis="1"]').getAttribute('data-clash')).toBe('true');
    await page.getByLabel('Dims B').fill('y');
    expect(await statusHas('(2,3,4)')).toContain('dims (x, t, y)');
    expect(await page.locator('thead tr.names td').allInnerTexts()).toEqual(['x', 't', 'y']);
  });

  it('keeps the state in the URL: a link reproduces the view', async () => {
    const link = await href(page);
    expect(link).toContain('rule=named');
    const p2 = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await watch(p2, 'link');
    await open(p2, link.slice(url.length));
    await p2.locator('[role="status"]', { hasText: '(2,3,4)' }).waitFor({ timeout: 5_000 });
    expect(await p2.getByLabel('Dims B').inputValue()).toBe('y');
    expect(await p2.getByLabel('Rule', { exact: true }).inputValue()).toBe('named');
    await p2.close();
  });

  it('opens and keeps its state under a path that starts with // (until 0.9.24 the address was read as another host: the page stopped at "Loading the engine…")', async () => {
    const p = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));
    await watch(p, 'double-slash');
    await open(p, '/?rule=numpy&s=2,3&s=3'); // the served folder's index at the path //
    await statusHas('(2,3)', p);
    await p.getByLabel('Shape B').fill('4, 1, 1');
    await statusHas('(4,2,3)', p);
    expect(await p.evaluate(() => [location.pathname, location.search])).toEqual(['//', '?rule=numpy&s=2,3&s=4,%201,%201']);
    expect(errors).toEqual([]);
    await p.close();
  });

  it('a named view with its dim names cleared survives a reload and Back (until 0.9.24 the link came back with d1, d2… and another result)', async () => {
    const p = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await watch(p, 'named-empty');
    await open(p, '?rule=named&s=3&s=3,2'); // a link without names gets the Rule select's
    expect(await p.getByLabel('Dims B').inputValue()).toBe('d2, d1');
    await p.getByLabel('Dims A').fill('');
    await p.getByLabel('Dims B').fill('');
    await statusHas('INVALID_SHAPE', p);
    const link = await href(p);
    expect(link).toContain('&n=&n=');
    const shown = await p.getByRole('status').textContent();
    await p.reload();
    await p.waitForSelector('html[data-ready="true"]');
    expect(await p.getByRole('status').textContent()).toBe(shown);
    expect([await p.getByLabel('Dims A').inputValue(), await p.getByLabel('Dims B').inputValue(), await href(p)]).toEqual(['', '', link]);
    await p.locator('[data-example="numpy"]').click();
    await statusHas('(8,7,6,5)', p);
    await p.goBack();
    await statusHas('INVALID_SHAPE', p);
    expect([await p.getByLabel('Dims A').inputValue(), await p.getByLabel('Dims B').inputValue()]).toEqual(['', '']);
    await p.close();
  });

  it('runs every one-click example from the spec', async () => {
    const want = {
      numpy: '(8,7,6,5)', clash: 'axis 0 has 3 vs 4', pdpd: '(2,3,4,5)', explicit: '(1,16,50,50)',
      bidirectional: '(2,3,6)', mindspore: '(3,1,5,6)', named: '(2,2)', dynamic: '(?,3,2..224,2..128)',
    };
    for (const [id, text] of Object.entries(want)) {
      await page.locator(`button[data-example="${id}"]`).click();
      await statusHas(text);
    }
    // Back goes to the previous example (examples push history entries).
    await page.goBack();
    await statusHas('(2,2)');
  });

  it('Back while the expression or the mapping field has focus gives it the text of the state it goes to (until 0.9.15 it kept what was typed)', async () => {
    await page.locator('button[data-example="expr-softmax"]').click();
    await page.locator('button[data-example="expr-sum"]').click();
    const expr = page.getByLabel('Expression');
    await expr.fill('sum(x * w, [0])');
    await page.goBack();
    await statusHas('(2,4)');
    expect(await expr.inputValue()).toBe('m = max(x, [-1], true); e = exp(x - m); e / sum(e, [-1], true)');
    await page.locator('button[data-example="explicit"]').click();
    await page.locator('button[data-example="explicit-small"]').click();
    await page.locator('#mapping').fill('0, 2');
    await page.goBack();
    await statusHas('(1,16,50,50)');
    expect(await page.locator('#mapping').inputValue()).toBe('1');
  });

  it('the expression field holds no more than the page keeps (until 0.9.15 a longer text was cut unseen, and the status said it ended early)', async () => {
    await page.locator('button[data-example="expr-norm"]').click();
    const expr = page.getByLabel('Expression');
    const long = `x${' + x'.repeat(600)}`; // 3,601 characters
    await expr.fill(long);
    const shown = await expr.inputValue();
    expect(shown.length).toBe(2000);
    expect(shown).toBe(long.slice(0, 2000));
  });

  it('a shape, an axes mapping and an expression operand hold no more than a link keeps: 400 characters (until 0.9.23 a 401-character shape said "too long", its link cut it to 400 and showed another result)', async () => {
    await open(page, '?rule=to-explicit&s=3&s=2,3');
    const map = page.getByLabel('Axes mapping', { exact: true });
    await map.fill(`0${' '.repeat(399)}1`);
    expect((await map.inputValue()).length).toBe(400);
    const a = page.locator('input.shape-input').first();
    await a.fill(`2,3${' '.repeat(396)},4`);
    expect((await a.inputValue()).length).toBe(400);
    await page.locator('button[data-example="expr-norm"]').click();
    const v = page.locator('input.shape-input[data-var]').first();
    await v.fill('2'.repeat(401));
    expect((await v.inputValue()).length).toBe(400);
  });

  it('data preview: hovering an output cell highlights the input cells it reads', async () => {
    await page.locator('button[data-example="numpy-small"]').click();
    await statusHas('(2,2,3)');
    const out = page.locator('.tensor-out .cell');
    expect(await out.count()).toBe(12);
    await out.nth(4).hover(); // output[0, 1, 1] = A[0, 0, 1] + B[1, 0]
    expect(await page.locator('.readout').innerText()).toBe('output[0, 1, 1] = A[0, 0, 1] + B[1, 0] = 1 + 1 = 2');
    const read = await page.locator('.preview-inputs .cell.is-read').evaluateAll((els) => els.map((e) => e.dataset.flat));
    expect(read).toEqual(['1', '1']); // A flat 1, B flat 1
    // Keyboard: focus moves across output cells with the arrow keys.
    await out.nth(0).focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('.readout').innerText()).toContain('output[0, 1, 0] = A[0, 0, 0] + B[1, 0]');
    await page.locator('.preview-inputs [data-name="B"] .cell').nth(0).hover();
    expect(await page.locator('.readout').innerText()).toBe('B[0, 0] is read by 6 output cells');
    expect(await page.locator('.tensor-out .cell.is-reader').count()).toBe(6);
    await page.evaluate(() => document.activeElement?.blur());
    await page.locator('.tensor-out .cell').nth(4).hover();
    await page.screenshot({ path: path.join(shots, 'explorer.png'), fullPage: true });
  });

  it('data preview values are the library\'s own add / broadcastTo results, under every rule', async () => {
    // Each input holds arange(size); an output cell is the sum of the input
    // cells it reads (hover readout) — checked for every output cell.
    const cases = [
      ['?rule=numpy&s=2,1,3&s=2,1', 12],
      ['?rule=pdpd&s=2,3,2&s=3&axis=1', 12],
      ['?rule=to-explicit&s=3,1&s=2,3,3&map=1,2', 18],
      ['?rule=to-bidirectional&s=3,1&s=2,1,2', 12],
      ['?rule=numpy&s=2,1&s=3&s=1,1,1', 6],
    ];
    for (const [query, n] of cases) {
      await open(page, query);
      const cells = page.locator('.tensor-out .cell');
      expect(await cells.count(), query).toBe(n);
      const values = await cells.evaluateAll((els) => els.map((e) => Number(e.textContent)));
      const inputs = await page.locator('.preview-inputs .grid-wrap').evaluateAll((ws) => ws.map((w) =>
        [...w.querySelectorAll('.cell')].map((c) => Number(c.textContent))));
      for (let f = 0; f < n; f++) {
        await cells.nth(f).hover();
        const reads = await page.locator('.preview-inputs .grid-wrap').evaluateAll((ws) => ws.map((w) =>
          [...w.querySelectorAll('.cell.is-read')].map((c) => Number(c.dataset.flat))));
        const want = reads.reduce((sum, r, k) => sum + r.reduce((a, i) => a + inputs[k][i], 0), 0);
        expect(values[f], `${query} cell ${f}`).toBe(want);
      }
    }
  });

  it('takes the README screenshot', async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await watch(p, 'readme');
    await open(p, '?rule=numpy&s=2,1,3&s=2,1');
    await p.locator('.tensor-out .cell').nth(4).hover();
    const file = path.join(shots, 'readme.png');
    // The page down to the data preview (page coordinates, whatever the scroll); the code panel below it is left out.
    const bottom = await p.evaluate(() => Math.ceil(document.querySelector('#preview-section').getBoundingClientRect().bottom + 12 + window.scrollY));
    await p.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: bottom } });
    await p.close();
    if (process.env.UPDATE_SCREENSHOT) {
      expect(statSync(file).size).toBeLessThan(200_000); // small enough to commit
      mkdirSync(path.join(root, 'docs'), { recursive: true });
      copyFileSync(file, path.join(root, 'docs', 'screenshot.png'));
    }
  });

  it('is usable at phone width (375 px): no sideways scrolling of the page', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    await watch(phone, 'phone');
    await open(phone, '?rule=numpy&s=3&s=4');
    await phone.locator('[role="status"]', { hasText: 'axis 0 has 3 vs 4' }).waitFor({ timeout: 5_000 });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.getByLabel('Shape A').fill('8,1,6,1');
    await phone.getByLabel('Shape B').fill('7,1,5');
    await phone.locator('[role="status"]', { hasText: '(8,7,6,5)' }).waitFor({ timeout: 5_000 });
    // The whole alignment table fits: no horizontal scrolling needed for rank 4.
    const { scroll, client } = await phone.locator('#align-scroll').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.screenshot({ path: path.join(shots, 'explorer-phone.png'), fullPage: true });
    expect(await phone.evaluate(() => window.__csp)).toEqual([]);
    await phone.close();
  });

  it('is keyboard friendly: Tab from the rule reaches the shapes, typing updates the result', async () => {
    await page.locator('button[data-example="numpy"]').click();
    await statusHas('(8,7,6,5)');
    await page.getByLabel('Rule', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? document.activeElement.id)).toBe('Remove A');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement.id)).toBe('shape-0');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1, 8, 1, 6, 1');
    await statusHas('(1,8,7,6,5)');
    // Enter on an example button loads it.
    await page.locator('button[data-example="pdpd"]').focus();
    await page.keyboard.press('Enter');
    await statusHas('(2,3,4,5)');
    expect(await page.getByLabel('Rule', { exact: true }).inputValue()).toBe('pdpd');
  });

  // ---- issue 14 §5 and issue 11: the explorer, finished ------------------------

  it('URL holds the current state only: switching rule drops the old rule\'s parameters', async () => {
    const params = async () => [...new URLSearchParams(await page.evaluate(() => location.search)).keys()];
    await open(page, '?rule=pdpd&s=2,3,4,5&s=3&axis=1');
    await statusHas('(2,3,4,5)');
    expect(await params()).toEqual(['rule', 's', 's', 'axis']);
    await page.getByLabel('Rule', { exact: true }).selectOption('named');
    await statusHas(/Result|Error/);
    expect(await params()).toEqual(['rule', 's', 's', 'n', 'n']); // no axis
    await page.getByLabel('Rule', { exact: true }).selectOption('to-explicit');
    await page.getByLabel('Axes mapping', { exact: true }).fill('1');
    expect(await params()).toEqual(['rule', 's', 's', 'map']); // no n, no axis
    await page.getByLabel('Rule', { exact: true }).selectOption('numpy');
    await statusHas(/Result|Error/);
    expect(await params()).toEqual(['rule', 's', 's']);
    expect(await page.evaluate(() => location.search)).not.toMatch(/axis=|map=|n=|shaping=/);
    // The page itself kept nothing either: back to pdpd starts from the default axis.
    await page.getByLabel('Rule', { exact: true }).selectOption('pdpd');
    expect(await page.locator('#axis-value').innerText()).toBe('-1');
    expect(await params()).toEqual(['rule', 's', 's']);
  });

  it('every shared link restores exactly what was on screen', async () => {
    // Build a state by hand: named dims with labels, union shaping, int16, the PyTorch code tab.
    await page.getByLabel('Rule', { exact: true }).selectOption('named');
    await shape('A').fill('2, 3');
    await page.getByLabel('Dims A').fill('X{x1,x2}, t');
    await shape('B').fill('3');
    await page.getByLabel('Dims B').fill('t');
    await page.getByLabel('Shaping', { exact: true }).selectOption('union');
    await page.getByLabel('Data type').selectOption('int16');
    await page.getByRole('tab', { name: 'PyTorch' }).click();
    await statusHas('(2,3)');
    const screen = async (p) => ({
      rule: await p.getByLabel('Rule', { exact: true }).inputValue(),
      shapes: await p.locator('input.shape-input').evaluateAll((els) => els.map((e) => e.value)),
      names: await p.locator('input.names-input').evaluateAll((els) => els.map((e) => e.value)),
      shaping: await p.getByLabel('Shaping', { exact: true }).inputValue(),
      dtype: await p.getByLabel('Data type').inputValue(),
      tab: await p.locator('[role="tab"][aria-selected="true"]').innerText(),
      status: await p.getByRole('status').innerText(),
      table: await p.locator('#align-scroll').innerText(),
      code: await p.locator('#code-text').textContent(),
      memory: await p.locator('#memory').innerText(),
    });
    const before = await screen(page);
    expect(before.shapes).toEqual(['2, 3', '3']);
    const link = await href(page);
    const p2 = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await watch(p2, 'link');
    await open(p2, link.slice(url.length));
    await statusHas('(2,3)', p2);
    expect(await screen(p2)).toEqual(before);
    // The same for a pdpd link with an axis and an explicit link with a mapping.
    for (const q of ['?rule=pdpd&s=2,3,4,5&s=3,1&axis=1&dtype=uint8&code=openvino', '?rule=to-explicit&s=3,1&s=2,3,3&map=1,%202&code=numpy']) {
      await open(page, q);
      await statusHas('Result');
      const shown = await screen(page);
      expect(await page.evaluate(() => location.search)).toBe(q);
      await open(p2, (await href(page)).slice(url.length));
      await statusHas('Result', p2);
      expect(await screen(p2)).toEqual(shown);
    }
    expect(await p2.locator('#axis-value').count()).toBe(1);
    await p2.close();
  });

  it('named: editing coordinates sets the dim\'s size (no separate shape edit)', async () => {
    await page.locator('button[data-example="named"]').click();
    await statusHas('(2,2)');
    await page.getByLabel('Dims A').fill('X{x1}');
    await statusHas('(1,2)');
    expect(await shape('A').inputValue()).toBe('1');
    await page.getByLabel('Dims B').fill('Y{y1,y2,y3}');
    await statusHas('(1,3)');
    expect(await shape('B').inputValue()).toBe('3');
    // A dim without labels keeps its size; the labelled one follows its labels.
    await page.getByLabel('Dims A').fill('X{x1,x2}, t');
    expect(await page.getByRole('status').innerText()).toMatch(/dim names|shape|Cannot read|Error/); // t has no size yet
    await shape('A').fill('2, 4');
    await statusHas('(2,4,3)');
    await page.getByLabel('Dims A').fill('X{x1,x2,x3}, t');
    await statusHas('(3,4,3)');
    expect(await shape('A').inputValue()).toBe('3, 4');
    expect(await href(page)).toContain('s=3,%204');
  });

  it('shows every clashing axis in red: [4,3] with [7,5]', async () => {
    await open(page, '?rule=numpy&s=4,3&s=7,5');
    const text = await statusHas('INCOMPATIBLE_DIMS');
    expect(text).toContain('Clashing axes: 0, 1');
    expect(await page.locator('[role="status"] .status-clashes').getAttribute('data-clashes')).toBe('0,1');
    expect(await page.locator('thead th[data-clash="true"]').evaluateAll((els) => els.map((e) => e.dataset.axis))).toEqual(['0', '1']);
    expect(await page.locator('thead th.col-error').count()).toBe(2);
    // Every operand cell on both axes is a clash, drawn in the clash colours.
    const cells = page.locator('tr.operand-row td.dim');
    expect(await cells.evaluateAll((els) => els.map((e) => `${e.closest('tr').dataset.operand}${e.dataset.axis}:${e.dataset.verdict}`)))
      .toEqual(['A0:clash', 'A1:clash', 'B0:clash', 'B1:clash']);
    const clashInk = await page.locator('[role="status"] .status-clashes').evaluate((e) => getComputedStyle(e).color);
    for (const c of await cells.evaluateAll((els) => els.map((e) => getComputedStyle(e.querySelector('.dim-val')).borderTopColor))) expect(c).toBe(clashInk);
    expect(await page.locator('tr.verdict-row td[data-verdict="clash"]').count()).toBe(2);
    // Three operands: 4 vs 7 is shown as a clash too (issue 11's second case).
    await open(page, '?rule=numpy&s=8,4,6,1&s=7,3,5');
    await statusHas('INCOMPATIBLE_DIMS');
    expect(await page.locator('thead th[data-clash="true"]').evaluateAll((els) => els.map((e) => e.dataset.axis))).toEqual(['1', '2']);
    await page.screenshot({ path: path.join(shots, 'explorer-clashes.png'), fullPage: true });
  });

  it('prints a size past 2^53 exactly (sizeText), never rounded', async () => {
    const M = 2 ** 53 - 1;
    await open(page, `?rule=numpy&s=${M},${M},${M}&s=1`);
    const exact = (BigInt(M) ** 3n).toString();
    const grouped = exact.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const text = await statusHas('elements');
    expect(text).toContain(`${grouped} elements`);
    expect(text).not.toMatch(/e\+?4\d|9,223,372,036,854,775,807|9223372036854776000/);
    const memory = await page.locator('#memory').innerText();
    expect(memory).toContain(`${(BigInt(exact) * 4n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')} B`);
    expect(memory).not.toMatch(/9223372036854776000|e\+?4\d/);
  });

  it('PDPD: B\'s trailing 1s are drawn greyed and marked "dropped"', async () => {
    await open(page, '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1');
    await statusHas('(2,3,4,5)');
    const cell = page.locator('tr[data-operand="B"] td[data-axis="2"]');
    expect(await cell.getAttribute('data-dropped')).toBe('true');
    expect(await cell.innerText()).toMatch(/1\s*dropped/);
    expect(await page.locator('tr[data-operand="B"] td[data-dropped]').count()).toBe(1);
    expect(await page.locator('tr[data-operand="B"] th').innerText()).toContain('1 trailing 1 dropped');
    expect(await page.locator('#align-scroll .dropped-note').innerText()).toContain('B (3,1) is aligned as (3,)');
    const [ink, muted] = await cell.evaluate((td) => [getComputedStyle(td.querySelector('.dim-val')).color, getComputedStyle(document.querySelector('.hint')).color]);
    expect(ink).toBe(muted); // greyed
    // A trailing 1 that would fall past A's end has no column: the note says so.
    await open(page, '?rule=pdpd&s=2,3&s=3,1&axis=1');
    await statusHas('(2,3)');
    expect(await page.locator('#align-scroll .dropped-note').innerText()).toContain('past A\'s last axis');
    expect(await page.locator('tr[data-operand="B"] td[data-dropped]').count()).toBe(0);
    // Other rules drop nothing.
    await open(page, '?rule=numpy&s=2,3&s=3,1');
    await statusHas('INCOMPATIBLE_DIMS');
    expect(await page.locator('.op-dropped, td[data-dropped]').count()).toBe(0);
  });

  it('backward view: a toggle shows the axes each gradient is summed over (the library\'s reductionAxes) and the unbroadcast() call', async () => {
    const lib = await import('../../dist/node.js');
    await lib.init();
    const refusal = (...args) => { try { lib.reductionAxes(...args); return null; } catch (e) { return e; } };
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const p = await ctx.newPage();
    await watch(p, 'backward');
    const summedIn = (name) => p.locator(`tr.operand-row[data-operand="${name}"] td[data-summed="true"]`).evaluateAll((tds) => tds.map((td) => Number(td.dataset.axis)));
    const item = (name) => p.locator(`#backward-list li[data-operand="${name}"]`);

    await open(p, '?rule=numpy&s=8,1,6,1&s=7,1,5');
    await statusHas('(8,7,6,5)', p);
    const toggle = p.getByRole('checkbox', { name: /Backward/ });
    expect(await toggle.isChecked()).toBe(false);
    expect(await p.locator('#backward').isHidden()).toBe(true);
    expect(await p.locator('td[data-summed]').count()).toBe(0);
    // Keyboard: a real checkbox, Space switches it on.
    await p.locator('#align-h').evaluate((el) => el.scrollIntoView());
    await toggle.focus();
    await p.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(true);
    expect(await href(p)).toContain('back=1');
    await p.locator('#backward').waitFor({ state: 'visible', timeout: 5_000 });
    const want = { A: lib.reductionAxes([8, 1, 6, 1], [8, 7, 6, 5], { mode: 'numpy' }), B: lib.reductionAxes([7, 1, 5], [8, 7, 6, 5], { mode: 'numpy' }) };
    expect(want.A.length).toBeGreaterThan(0);
    for (const [name, axes] of Object.entries(want)) {
      expect(await summedIn(name), name).toEqual(axes);
      expect(await item(name).getAttribute('data-axes')).toBe(axes.join(','));
    }
    expect(await item('A').innerText()).toContain(`sum over axes [${want.A.join(', ')}], then reshape to (8,1,6,1)`);
    expect(await item('B').innerText()).toContain(`sum over axes [${want.B.join(', ')}], then reshape to (7,1,5)`);
    // Drawn pointing back: ←7 where the forward view had →7, on exactly the stretched or added cells.
    expect(await p.locator(`tr[data-operand="A"] td[data-axis="${want.A[0]}"] .dim-mark`).innerText()).toBe(`←${[8, 7, 6, 5][want.A[0]]}`);
    const stretched = await p.locator('tr.operand-row td.dim').evaluateAll((tds) => tds.filter((td) => ['stretched', 'new'].includes(td.dataset.verdict)).length);
    expect(await p.locator('td[data-summed="true"]').count()).toBe(stretched);
    expect(await p.locator('#legend-summed').isVisible()).toBe(true);
    // The unbroadcast() call, copyable with the same Copy button.
    await p.getByRole('tab', { name: 'tensorcast' }).click();
    const code = await p.locator('#code-text').textContent();
    expect(code).toContain("import { init, reductionAxes, unbroadcast, formatShape } from 'tensorcast';");
    expect(code).toContain('const gradA = unbroadcast(grad, [8, 1, 6, 1]);');
    expect(code).toContain(`// ${JSON.stringify(want.B).replace(/,/g, ', ')}`);
    await p.getByRole('button', { name: 'Copy', exact: true }).click();
    await p.locator('#copy-status', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(code);
    // A shape edit updates the view.
    await p.getByLabel('Shape B').fill('7, 6, 1');
    await statusHas('(8,7,6,1)', p);
    expect(await summedIn('A')).toEqual(lib.reductionAxes([8, 1, 6, 1], [8, 7, 6, 1]));
    expect(await summedIn('B')).toEqual(lib.reductionAxes([7, 6, 1], [8, 7, 6, 1]));

    // PDPD: A is the output (nothing summed), B under the element-wise rule (type pdpd) at the axis.
    await open(p, '?rule=pdpd&s=2,3,3,5&s=3,1&axis=1&back=1');
    await statusHas('(2,3,3,5)', p);
    expect(await p.getByRole('checkbox', { name: /Backward/ }).isChecked()).toBe(true);
    const pdB = lib.reductionAxes([3, 1], [2, 3, 3, 5], { type: 'pdpd', axis: 1 });
    expect(await summedIn('A')).toEqual([]);
    expect(await summedIn('B')).toEqual(pdB);
    expect(await item('A').innerText()).toContain('nothing to sum');
    expect(await item('B').innerText()).toContain(`sum over axes [${pdB.join(', ')}], then reshape to (3,1)`);
    expect(await p.locator('#code-text').textContent()).toContain("unbroadcast(grad, [3, 1], { type: 'pdpd', axis: 1 })");
    // The axis slider moves B, and the summed axes with it.
    await p.getByLabel('Axis').focus();
    await p.keyboard.press('ArrowRight');
    await p.locator('#axis-value', { hasText: /^2$/ }).waitFor({ timeout: 5_000 });
    await statusHas('(2,3,3,5)', p);
    const pdB2 = lib.reductionAxes([3, 1], [2, 3, 3, 5], { type: 'pdpd', axis: 2 });
    expect(pdB2).not.toEqual(pdB);
    expect(await summedIn('B')).toEqual(pdB2);
    expect(await p.locator('#code-text').textContent()).toContain("unbroadcast(grad, [3, 1], { type: 'pdpd', axis: 2 })");

    // Dynamic dims: where the library cannot tell, its BroadcastError message.
    await open(p, '?rule=numpy&s=?,3,1,2..128&s=?,3,2..224,1&back=1');
    await statusHas('(?,3,2..224,2..128)', p);
    const e = refusal(['?', 3, 1, '2..128'], ['?', 3, '2..224', '2..128'], { mode: 'numpy' });
    expect(e).toBeInstanceOf(lib.BroadcastError);
    expect(await item('A').getAttribute('data-code')).toBe(e.code);
    expect(await item('A').innerText()).toContain(e.message);
    expect(await summedIn('A')).toEqual([]);

    // An unknown rank: the library's own message, per operand.
    await open(p, '?rule=numpy&s=[...]&s=3&back=1');
    await statusHas('[...]', p);
    const u = refusal('[...]', '[...]', { mode: 'numpy' });
    expect(u.code).toBe('RANK_MISMATCH');
    expect(await item('A').getAttribute('data-code')).toBe('RANK_MISMATCH');
    expect(await item('A').innerText()).toContain(u.message);
    expect(await item('B').innerText()).toContain("the output's rank is unknown");

    // Named dims: summed by name, the library's named unbroadcast in the code, a transpose included.
    await open(p, '?rule=named&s=2,+3&s=3,+2,+4&n=x,+t&n=t,+x,+z&back=1');
    await statusHas('(2,3,4)', p);
    expect(await summedIn('A')).toEqual([2]);
    expect(await summedIn('B')).toEqual([]);
    expect(await item('A').innerText()).toContain('sum over axes [2] (z)');
    expect(await item('B').innerText()).toContain('reorder to (t, x, z)');
    const named = await p.locator('#code-text').textContent();
    expect(named).toContain("const grad = { data: Float32Array.from({ length: 24 }, (_, i) => i), shape: [2, 3, 4], dims: ['x', 't', 'z'] };");
    expect(named).toContain("const gradB = unbroadcast(grad, { dims: ['t', 'x', 'z'], shape: [3, 2, 4] });");
    expect(named).not.toMatch(/axesMapping|by hand/);
    // What the page says B's gradient is, the library gives.
    const gB = lib.unbroadcast({ data: new Float32Array(24), shape: [2, 3, 4], dims: ['x', 't', 'z'] }, { dims: ['t', 'x', 'z'], shape: [3, 2, 4] });
    expect(gB.dims).toEqual(['t', 'x', 'z']);
    // Labels: the gradient carries the result's coords, the operand goes as { dims, coords }.
    await open(p, '?rule=named&s=&s=&n=X{x1,x2}&n=X{x2,x3}&shaping=union&back=1');
    await statusHas('(3,)', p);
    expect(await p.locator('#code-text').textContent()).toContain("unbroadcast(grad, { dims: ['X'], coords: { X: ['x2', 'x3'] } })");
    expect(await item('B').innerText()).toContain("align to B's labels");

    // Off again: nothing of it stays on screen or in the link.
    await p.getByRole('checkbox', { name: /Backward/ }).uncheck();
    expect(await p.locator('#backward').isHidden()).toBe(true);
    expect(await p.locator('td[data-summed]').count()).toBe(0);
    expect(await href(p)).not.toContain('back=');
    await p.screenshot({ path: path.join(shots, 'explorer-backward.png'), fullPage: false });
    expect(await p.evaluate(() => window.__csp)).toEqual([]);
    await ctx.close();
  });

  it('copy as code: each framework\'s call, tensorcast\'s reproducing the page exactly', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const p = await ctx.newPage();
    await watch(p, 'code');
    const lib = await import('../../dist/node.js');
    await lib.init();
    const runSnippet = async (code) => {
      const body = code.replace(/^import \{([^}]*)\} from 'tensorcast';$/m, 'const {$1} = lib;');
      const quiet = { log: () => {} }; // the snippet prints its result: not into the test's output
      // eslint-disable-next-line no-new-func
      return new Function('lib', 'console', `return (async () => { ${body}\n; return { plan, out: typeof out === 'undefined' ? undefined : out }; })();`)(lib, quiet);
    };
    for (const q of ['?rule=numpy&s=8,1,6,1&s=7,1,5', '?rule=numpy&s=4,3&s=7,5', '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1', '?rule=to-explicit&s=3,1&s=2,3,3&map=1,+2',
      '?rule=to-numpy&s=3,1,5,1&s=-1,-1,5,6&dtype=bigint64', '?rule=named&s=2&s=2&n=X{x1,x2}&n=Y{y1,y2}', '?rule=numpy&s=?,3,1,2..128&s=?,3,2..224,1']) {
      await open(p, q);
      await p.getByRole('tab', { name: 'tensorcast' }).click();
      const code = await p.locator('#code-text').textContent();
      const { plan, out } = await runSnippet(code);
      // Same result and same per-axis verdicts as the page shows.
      if (plan.ok) expect(await p.locator('.status-shape').getAttribute('data-shape'), q).toBe(lib.formatShape(plan.shape));
      else expect(await p.getByRole('status').innerText(), q).toContain(plan.error.message);
      const shown = await p.locator('tr.operand-row').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td.dim')].map((td) => td.dataset.verdict)));
      expect(shown, q).toEqual(plan.operands.map((o) => o.verdicts));
      if (out) expect([...out.shape]).toEqual(plan.shape);
      // Copy puts exactly that text on the clipboard.
      await p.getByRole('button', { name: 'Copy', exact: true }).click();
      await p.locator('#copy-status', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
      expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(code);
    }
    // The other frameworks: their call, or a sentence saying they have none.
    await open(p, '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1');
    await p.getByRole('tab', { name: 'NumPy' }).click();
    expect(await href(p)).toContain('code=numpy');
    expect(await p.locator('#code-note').innerText()).toContain('NumPy has no PDPD');
    expect(await p.locator('#code-text').textContent()).toContain('b.reshape((1, 3, 1, 1))');
    await p.getByRole('tab', { name: 'NumPy' }).press('ArrowRight'); // keyboard: the next tab
    expect(await p.locator('[role="tab"][aria-selected="true"]').innerText()).toBe('PyTorch');
    await p.getByRole('tab', { name: 'OpenVINO' }).click();
    expect(await p.locator('#code-text').textContent()).toContain('AutoBroadcastSpec(ov::op::AutoBroadcastType::PDPD, 1)');
    await open(p, '?rule=numpy&s=8,1,6,1&s=7,1,5&code=openvino');
    expect(await p.locator('#code-text').textContent()).toContain('out = ops.add(a, b, auto_broadcast="numpy")');
    await open(p, '?rule=named&s=2&s=2&n=X{x1,x2}&n=Y{y1,y2}&code=numpy');
    expect(await p.locator('#code-note').innerText()).toContain('NumPy has no named dims');
    expect(await p.locator('#code-pre').isHidden()).toBe(true);
    expect(await p.getByRole('button', { name: 'Copy', exact: true }).isDisabled()).toBe(true);
    await p.screenshot({ path: path.join(shots, 'explorer-code.png'), fullPage: false });
    expect(await p.evaluate(() => window.__csp)).toEqual([]);
    await ctx.close();
  });

  it('copy as code reproduces the data preview: the copied tensorcast code, run in Node, prints the grids the page shows, forward and backward', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const p = await ctx.newPage();
    await watch(p, 'code-values');
    const lib = await import('../../dist/node.js');
    await lib.init();
    // Run copied code with a console that records what it prints.
    const run = async (code) => {
      const body = code.replace(/^import \{([^}]*)\} from 'tensorcast';$/m, 'const {$1} = lib;');
      expect(body).not.toContain('import ');
      const logs = [];
      // eslint-disable-next-line no-new-func
      await new Function('lib', 'console', `return (async () => { ${body}\n; })();`)(lib, { log: (...a) => logs.push(a.map(String).join(' ')) });
      return logs.map((l) => {
        const m = /^(\w+) \(([^)]*)\)(?: dims \([^)]*\))?: (.*)$/.exec(l);
        expect(m, l).not.toBeNull();
        return { name: m[1], shape: `(${m[2]})`, values: m[3].split(' ') };
      });
    };
    const grids = () => p.locator('#preview').evaluate((box) => ({
      direction: box.querySelector('.preview')?.dataset.direction,
      titles: [...box.querySelectorAll('.tensor-title code')].map((c) => c.textContent),
      inputs: [...box.querySelectorAll('.preview-inputs .grid-wrap')].map((w) => [...w.querySelectorAll('.cell')].map((c) => c.textContent)),
      output: [...box.querySelectorAll('.tensor-out .cell')].map((c) => c.textContent),
    }));
    const copied = async () => {
      await p.getByRole('tab', { name: 'tensorcast' }).click();
      await p.getByRole('button', { name: 'Copy', exact: true }).click();
      await p.locator('#copy-status', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
      return p.evaluate(() => navigator.clipboard.readText());
    };
    const cases = [
      '?rule=numpy&s=2,1,3&s=2,1', '?rule=numpy&s=2,1&s=3&s=1,1,1', '?rule=none&s=2,3&s=2,3', '?rule=pdpd&s=2,3,2&s=3&axis=1',
      '?rule=pdpd&s=2,3&s=3,1,1&axis=1', '?rule=to-numpy&s=3,1&s=2,-1,4', '?rule=to-explicit&s=3,1&s=2,3,3&map=1,+2',
      '?rule=to-bidirectional&s=2,1,3&s=4,1', '?rule=to-pdpd&s=3,1&s=2,3,2&axis=1', '?rule=named&s=2,3&s=3,2,4&n=x,+t&n=t,+x,+z',
      '?rule=named&s=&s=3&n=X{x1,x2}&n=y', '?rule=numpy&s=8,8&s=8,1&dtype=int8', '?rule=numpy&s=2,1&s=3&dtype=bigint64',
    ];
    for (const q of cases) {
      await open(p, q);
      // Forward: the copied code prints the output grid.
      let g = await grids();
      expect(g.direction, q).toBe('forward');
      let printed = await run(await copied());
      expect(printed.map((x) => x.name), q).toEqual(['out']);
      expect(printed[0].values, q).toEqual(g.output);
      expect(printed[0].shape, q).toBe(g.titles.at(-1));
      // Backward: the toggle turns the preview into the gradients, and the copied code prints them.
      await p.getByRole('checkbox', { name: /Backward/ }).check();
      await p.locator('#preview .preview[data-direction="backward"]').waitFor({ timeout: 5_000 });
      g = await grids();
      expect(g.output, q).toEqual(g.output.map((_, i) => String(i))); // the result's gradient: arange(size)
      printed = await run(await copied());
      expect(printed.length, q).toBe(g.inputs.length);
      printed.forEach((x, k) => {
        expect(x.values, `${q} ${x.name}`).toEqual(g.inputs[k]);
        expect(x.shape, `${q} ${x.name}`).toBe(g.titles[k]);
      });
      // NumPy, PyTorch and OpenVINO follow the toggle too (their way back, not the forward broadcast).
      const nn = q.includes('rule=named') || q.includes('rule=none');
      for (const [tab, call] of [['NumPy', /grad = np\.arange\(/], ['PyTorch', /sum_to_size\(/], ['OpenVINO', /ops\.reduce_sum\(|ops\.reshape\(grad/]]) {
        await p.getByRole('tab', { name: tab }).click();
        const text = await p.locator('#code-text').textContent();
        if (nn && tab !== 'OpenVINO') expect(text, `${q} ${tab}`).toBe('');
        else if (!q.includes('rule=named')) expect(text, `${q} ${tab}`).toMatch(call);
      }
      await p.getByRole('checkbox', { name: /Backward/ }).uncheck();
    }
    // Expressions whose result has another dtype than the operands (a comparison's uint8, a cast
    // to float16): printed as the preview shows them (until 0.9.15 in the operands' dtype: a
    // TypeError for the first, float16 bits for the second).
    for (const q of ['?rule=expression&e=x%20%3C%202&v=x:2,3&dtype=float16', '?rule=expression&e=cast(x,%20%22float16%22)%20*%202&v=x:2,3']) {
      await open(p, q);
      const g = await grids();
      const printed = await run(await copied());
      expect(printed.map((x) => x.name), q).toEqual(['out']);
      expect(printed[0].values, q).toEqual(g.output);
    }
    // The readout sums the gradient cells that flow into an operand's cell.
    await open(p, '?rule=numpy&s=2,1,3&s=2,1&back=1');
    await p.locator('#preview .preview[data-direction="backward"]').waitFor({ timeout: 5_000 });
    await p.locator('.preview-inputs [data-name="B"] .cell').nth(0).hover();
    expect(await p.locator('.readout').innerText()).toBe('grad B[0, 0] = 0 + 1 + 2 + 6 + 7 + 8 = 24');
    expect(await p.locator('.tensor-out .cell.is-reader').count()).toBe(6);
    await p.locator('.tensor-out .cell').nth(4).hover();
    expect(await p.locator('.readout').innerText()).toBe('grad[0, 1, 1] = 4 flows back to grad A[0, 0, 1], grad B[1, 0]');
    await p.screenshot({ path: path.join(shots, 'explorer-backward-preview.png'), fullPage: false });
    expect(await p.evaluate(() => window.__csp)).toEqual([]);
    await ctx.close();
  });

  it('rank 8 (and 48-digit sizes) on a 390 px phone: only the table scrolls, never the page (light and dark)', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, colorScheme });
      await watch(phone, `phone-390-${colorScheme}`);
      for (const q of ['?rule=numpy&s=8,1,6,1,2,3,4,5&s=7,1,5,1,1,1,1,1', '?rule=numpy&s=8,1,6,1,2,3,4,5&s=7,1,5,1,3,4,1', '?rule=to-explicit&s=3,1&s=2,3,3,4,5,6,7,8&map=1,+2',
        '?rule=named&s=2,3,4,5,6,7,8,9&s=9&n=a,b,c,d,e,f,g,h&n=h',
        '?rule=numpy&s=9007199254740991,9007199254740991,9007199254740991&s=1']) { // exact counts past 2^53 wrap too
        await open(phone, q);
        await phone.getByRole('status').filter({ hasText: /Result|Error/ }).waitFor({ timeout: 5_000 });
        const m = await phone.evaluate(() => ({
          page: document.scrollingElement.scrollWidth, inner: innerWidth,
          table: document.querySelector('#align-scroll').scrollWidth, box: document.querySelector('#align-scroll').clientWidth,
        }));
        expect(m.inner).toBe(390);
        expect(m.page, `${colorScheme} ${q}`).toBeLessThanOrEqual(m.inner);
        expect(m.table, q).toBeGreaterThan(m.box); // the table is wider than the phone: it scrolls inside its box
      }
      await open(phone, '?rule=numpy&s=8,1,6,1,2,3,4,5&s=7,1,5,1,3,4,1');
      await phone.screenshot({ path: path.join(shots, `explorer-phone-rank8-${colorScheme}.png`), fullPage: true });
      expect(await phone.evaluate(() => window.__csp)).toEqual([]);
      await phone.close();
    }
  });

  it('dark mode follows prefers-color-scheme; every text passes WCAG AA (4.5:1) in both themes', async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await watch(p, 'contrast');
    const states = ['?rule=numpy&s=8,1,6,1&s=7,1,5', '?rule=numpy&s=4,3&s=7,5', '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1&code=openvino',
      '?rule=named&s=2,3&s=4&n=x,+t&n=t&code=numpy', '?rule=numpy&s=3,x&s=3', '?rule=to-explicit&s=3,1&s=2,3,3&map=1,+2',
      '?rule=numpy&s=8,1,6,1&s=7,1,5&back=1', '?rule=numpy&s=?,3,1,2..128&s=?,3,2..224,1&back=1',
      '?rule=expression', '?rule=expression&e=(x%20-%20)%20/%20s', '?rule=expression&e=a%20*%20b%20%2B%20c&v=a:2,3&v=b:3&v=c:2', '?rule=numpy&s=2,1,3&s=2,1'];
    const backgrounds = {};
    for (const colorScheme of ['light', 'dark']) {
      await p.emulateMedia({ colorScheme });
      for (const q of states) {
        await open(p, q);
        if (q.endsWith('s=2,1')) await p.locator('.tensor-out .cell').nth(4).hover(); // the preview's highlight colours
        const { failures, checked, body } = await p.evaluate(measureContrast);
        expect(checked, q).toBeGreaterThan(30);
        expect(failures, `${colorScheme} ${q}`).toEqual([]);
        backgrounds[colorScheme] = body;
      }
      await p.screenshot({ path: path.join(shots, `explorer-${colorScheme}.png`), fullPage: true });
    }
    expect(backgrounds.light.luminance).toBeGreaterThan(0.8);
    expect(backgrounds.dark.luminance).toBeLessThan(0.05); // dark really is dark
    expect(backgrounds.dark.ratio).toBeGreaterThanOrEqual(7);
    expect(backgrounds.light.ratio).toBeGreaterThanOrEqual(7);
    await p.close();
  });

  it('its server sends the CSP as a header with frame-ancestors \'none\': no other site can frame it', async () => {
    const res = await page.goto(url);
    const header = res.headers()['content-security-policy'];
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(header).toBe(`${meta}; frame-ancestors 'none'`);
    await page.waitForSelector('html[data-ready="true"]');
    // Another origin (another port) framing the explorer gets nothing.
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-frame-'));
    writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>framer</title><iframe src="${url}" width="400" height="300"></iframe>`);
    const other = await serve(dir, 0);
    const p = await browser.newPage();
    const blocked = [];
    p.on('console', (m) => blocked.push(m.text()));
    await p.goto(other.url);
    await p.waitForTimeout(1500);
    const framed = p.frames().find((f) => f !== p.mainFrame());
    const ready = framed ? await framed.evaluate(() => document.documentElement.dataset.ready ?? null).catch(() => null) : null;
    expect(ready).toBeNull();
    expect(blocked.join('\n')).toMatch(/frame-ancestors/);
    await p.close();
    await new Promise((r) => other.server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  // ---- issue 25 item 7: the page, polished ---------------------------------------

  // Runs in the page: what an alignment table at this width shows too small or on top of something else.
  function measureTable() {
    const visible = (el) => {
      if (el.closest('.sr-only, [hidden]')) return false;
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    };
    const small = [];
    let texts = 0;
    for (const el of document.querySelectorAll('#align-section *')) {
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      if (!visible(el)) continue;
      texts++;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 12) small.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 20)}" ${px}px`);
    }
    const cut = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    const overlaps = [];
    let marks = 0;
    for (const val of document.querySelectorAll('#align-scroll td.dim > .dim-val')) {
      const mark = val.querySelector('.dim-mark');
      if (!mark) continue;
      marks++;
      const text = [...val.childNodes].find((n) => n.nodeType === 3);
      const range = document.createRange();
      range.selectNodeContents(text);
      const t = range.getBoundingClientRect();
      const m = mark.getBoundingClientRect();
      if (cut(t, m)) overlaps.push(`mark "${mark.textContent}" covers "${text.textContent}"`);
      if (!inside(m, val.getBoundingClientRect())) overlaps.push(`mark "${mark.textContent}" spills out of its cell`);
    }
    const chips = [...document.querySelectorAll('#align-scroll tr.verdict-row .chip')].map((c) => ({ c, r: c.getBoundingClientRect() }));
    chips.forEach((x, i) => {
      if (!inside(x.r, x.c.closest('td').getBoundingClientRect())) overlaps.push(`chip "${x.c.innerText}" spills out of its cell`);
      for (const y of chips.slice(i + 1)) if (cut(x.r, y.r)) overlaps.push(`chips "${x.c.innerText}" and "${y.c.innerText}" overlap`);
    });
    const vals = [...document.querySelectorAll('#align-scroll td.dim > .dim-val')].map((v) => v.getBoundingClientRect());
    vals.forEach((a, i) => { for (const b of vals.slice(i + 1)) if (cut(a, b)) overlaps.push('two dim cells overlap'); });
    return { small, texts, overlaps, marks, chips: chips.length };
  }

  it('on a 390 px phone: the result first and visible without scrolling, then the inputs and the examples (light and dark)', async () => {
    for (const colorScheme of ['light', 'dark']) {
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, colorScheme });
      await watch(phone, `polish-390-${colorScheme}`);
      for (const q of ['', '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1', '?rule=numpy&s=3&s=4', '?rule=numpy&s=?,3,1,2..128&s=?,3,2..224,1']) {
        await open(phone, q);
        await phone.getByRole('status').filter({ hasText: /Result|Error/ }).waitFor({ timeout: 5_000 });
        const m = await phone.evaluate(() => {
          const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
          return {
            scrollY, height: innerHeight, status: box('[role="status"]'), table: box('#align-scroll table'), align: box('#align-section'),
            inputs: box('.controls'), examples: box('.examples-panel'), memory: box('#memory-section'), code: box('#code-section'),
          };
        });
        expect(m.scrollY).toBe(0);
        // The outcome and the whole alignment table are on the first screen.
        expect(m.status.top, q).toBeGreaterThanOrEqual(0);
        expect(m.status.bottom, q).toBeLessThanOrEqual(m.height);
        expect(m.table.bottom, q).toBeLessThanOrEqual(m.height);
        // Then the inputs, then the examples (no longer last: above the memory, preview and code views).
        expect(m.status.bottom).toBeLessThanOrEqual(m.align.top);
        expect(m.align.bottom).toBeLessThanOrEqual(m.inputs.top);
        expect(m.inputs.bottom).toBeLessThanOrEqual(m.examples.top);
        expect(m.examples.bottom).toBeLessThanOrEqual(m.memory.top);
        expect(m.examples.bottom).toBeLessThan(m.code.top);
      }
      await open(phone);
      await phone.screenshot({ path: path.join(shots, `explorer-phone-first-screen-${colorScheme}.png`) });
      expect(await phone.evaluate(() => window.__csp)).toEqual([]);
      await phone.close();
    }
    // At 1280 px the two columns stay: inputs and examples on the left, the result on the right, at the top.
    const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await watch(wide, 'polish-1280');
    await open(wide);
    const w = await wide.evaluate(() => ['.controls', '.examples-panel', '.outcome'].map((s) => document.querySelector(s).getBoundingClientRect().left));
    expect(w[0]).toBe(w[1]);
    expect(w[2]).toBeGreaterThan(w[0] + 200);
    await wide.close();
  });

  it('at 390 px every text of the alignment table is at least 12 px, and no mark or chip overlaps another', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    await watch(phone, 'polish-fonts');
    const cases = ['?rule=numpy&s=8,1,6,1&s=7,1,5', '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1', '?rule=numpy&s=4,3&s=7,5',
      '?rule=numpy&s=?,3,1,2..128&s=?,3,2..224,1', '?rule=numpy&s=8,1,6,1&s=7,1,5&back=1', '?rule=to-explicit&s=3,1&s=2,3,3&map=1,2',
      '?rule=named&s=2,3&s=4&n=x,t&n=t', '?rule=numpy&s=8,1,6,1,2,3,4,5&s=7,1,5,1,3,4,1'];
    for (const q of cases) {
      await open(phone, q);
      await phone.getByRole('status').filter({ hasText: /Result|Error/ }).waitFor({ timeout: 5_000 });
      await phone.locator('#align-scroll').evaluate((e) => { e.scrollLeft = 0; });
      const m = await phone.evaluate(measureTable);
      expect(m.texts, q).toBeGreaterThan(20);
      expect(m.small, q).toEqual([]);
      expect(m.overlaps, q).toEqual([]);
      expect(m.chips, q).toBeGreaterThan(0);
      if (!/s=4,3|named/.test(q)) expect(m.marks, q).toBeGreaterThan(0); // stretch, summed or dropped marks were measured
    }
    await phone.close();
  });

  it('no select clips its text, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const p = await browser.newPage({ viewport: { width, height: 844 } });
      await watch(p, `polish-select-${width}`);
      await open(p, '?rule=named&s=2,3&s=3&n=x,t&n=t');
      const m = await p.evaluate(() => [...document.querySelectorAll('select')].flatMap((sel) => {
        const cs = getComputedStyle(sel);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        // The room for text: the box less its padding and the drop-down arrow (about 20 px in Chromium).
        const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return [...sel.options].map((o) => ({ id: sel.id, text: o.text, width: ctx.measureText(o.text).width, room, scroll: sel.scrollWidth, client: sel.clientWidth }));
      }));
      expect(m.filter((o) => o.id === 'shaping')).toHaveLength(3);
      for (const o of m) {
        expect(o.width, `${width} ${o.id}: ${o.text}`).toBeLessThanOrEqual(o.room);
        expect(o.scroll).toBeLessThanOrEqual(o.client);
      }
      // What the short option names leave out is said under the select.
      await p.getByLabel('Shaping', { exact: true }).selectOption('union');
      expect(await p.locator('#shaping-hint').innerText()).toBe('Outer join of the labels.');
      expect(await p.getByLabel('Shaping', { exact: true }).getAttribute('aria-describedby')).toBe('shaping-hint');
      await p.close();
    }
  });

  it('keeps the address clean (%20, never +), still reads older + links, and copies it with Copy link', async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const p = await ctx.newPage();
    await watch(p, 'polish-link');
    await open(p);
    expect(await p.evaluate(() => location.search)).toBe('?rule=numpy&s=8,1,6,1&s=7,1,5');
    await p.getByLabel('Shape A').fill('2, 3');
    await statusHas('Error', p);
    const search = await p.evaluate(() => location.search);
    expect(search).toBe('?rule=numpy&s=2,%203&s=7,1,5');
    expect(search).not.toContain('+');
    await p.getByLabel('Shape A').fill('?, 3..5');
    await p.getByLabel('Shape B').fill('1');
    await statusHas('Result', p);
    expect(await p.evaluate(() => location.search)).toBe('?rule=numpy&s=?,%203..5&s=1');
    // An older link, with + for a space, opens as it did, and the address takes the new form.
    await open(p, '?rule=to-explicit&s=3,+1&s=2,3,3&map=1,+2');
    await statusHas('(2,3,3)', p);
    expect(await p.getByLabel('Shape A').inputValue()).toBe('3, 1');
    expect(await p.getByLabel('Axes mapping', { exact: true }).inputValue()).toBe('1, 2');
    expect(await p.evaluate(() => location.search)).toBe('?rule=to-explicit&s=3,%201&s=2,3,3&map=1,%202');

    // Copy link: a button by that name, from the keyboard, with a visible confirmation.
    const button = p.getByRole('button', { name: 'Copy link', exact: true });
    const box = await button.boundingBox();
    expect(box.y + box.height).toBeLessThanOrEqual(844); // on the first screen, next to the result
    await p.evaluate(() => navigator.clipboard.writeText('nothing yet'));
    await button.focus();
    await p.keyboard.press('Enter');
    await p.locator('#link-status', { hasText: 'Link copied' }).waitFor({ timeout: 5_000 });
    expect(await p.locator('#link-status').isVisible()).toBe(true);
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(await href(p));
    // The copied link opens this view.
    const copied = await p.evaluate(() => navigator.clipboard.readText());
    const p2 = await ctx.newPage();
    await watch(p2, 'polish-link-2');
    await open(p2, copied.slice(url.length));
    await statusHas('(2,3,3)', p2);
    expect(await p2.getByLabel('Axes mapping', { exact: true }).inputValue()).toBe('1, 2');
    await p2.close();
    await ctx.close();

    // Where the clipboard API refuses, the fallback copies (execCommand), or shows the link selected to copy by hand.
    const ctx2 = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    const q = await ctx2.newPage();
    await watch(q, 'polish-link-fallback');
    await q.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => ({ writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) }) });
    });
    await open(q, '?rule=numpy&s=2,3&s=3');
    await q.getByRole('button', { name: 'Copy link' }).click();
    await q.locator('#link-status').filter({ hasText: /Link copied|Ctrl\+C/ }).waitFor({ timeout: 5_000 });
    const said = await q.locator('#link-status').innerText();
    if (said === 'Link copied') {
      // execCommand('copy') put it there: read it with the real clipboard, from a page without the override.
      const r = await ctx2.newPage();
      await r.goto(url);
      expect(await r.evaluate(() => navigator.clipboard.readText())).toBe(await href(q));
      await r.close();
    } else {
      const field = q.getByLabel('Link to this view');
      expect(await field.inputValue()).toBe(await href(q));
      expect(await q.evaluate(() => document.activeElement.id)).toBe('link-fallback');
    }
    await ctx2.close();
  });

  it('words dims that are not provably equal ("?" with "?") as "may differ", not "equal"', async () => {
    await open(page, '?rule=numpy&s=?,3&s=?,3');
    await statusHas('(?,3)');
    const chip = (a) => page.locator(`tr.verdict-row td[data-axis="${a}"]`);
    expect(await chip(0).getAttribute('data-verdict')).toBe('unknown');
    expect(await chip(0).innerText()).toBe('may differ');
    expect(await chip(1).getAttribute('data-verdict')).toBe('equal');
    for (const op of ['A', 'B']) {
      const cell = page.locator(`tr[data-operand="${op}"] td[data-axis="0"]`);
      expect(await cell.getAttribute('data-verdict')).toBe('equal'); // explain()'s verdict, kept
      expect(await cell.getAttribute('data-shown')).toBe('unknown');
      expect(await cell.getAttribute('title')).toMatch(/may differ/);
      expect(await cell.getAttribute('title')).not.toMatch(/equal/);
    }
    expect(await page.locator('#legend-unknown').isVisible()).toBe(true);
    expect(await page.locator('#legend-dropped').isVisible()).toBe(false);
    // Static equal dims are still equal, and the legend entry goes.
    await open(page, '?rule=numpy&s=2,3&s=2,3');
    await statusHas('(2,3)');
    expect(await page.locator('tr.verdict-row td[data-verdict]').evaluateAll((tds) => tds.map((t) => t.dataset.verdict))).toEqual(['equal', 'equal']);
    expect(await page.locator('#legend-unknown').isVisible()).toBe(false);
  });

  it('PDPD: a dropped trailing 1 reads "dropped" only, and its axis is "new" for B', async () => {
    await open(page, '?rule=pdpd&s=2,3,4,5&s=3,1&axis=1');
    await statusHas('(2,3,4,5)');
    const cell = page.locator('tr[data-operand="B"] td[data-axis="2"]');
    expect(await cell.getAttribute('data-verdict')).toBe('stretched'); // explain()'s verdict, kept
    expect(await cell.getAttribute('data-shown')).toBe('dropped');
    expect(await cell.getAttribute('class')).not.toMatch(/v-stretched/);
    expect(await cell.innerText()).not.toMatch(/stretch/);
    const title = await cell.getAttribute('title');
    expect(title).toMatch(/dropped/);
    expect(title).not.toMatch(/stretch/);
    expect(await page.locator('tr.verdict-row td[data-axis="2"]').getAttribute('data-verdict')).toBe('new');
    expect(await page.locator('#legend-dropped').isVisible()).toBe(true);
  });

  it('numpy → pdpd sets operand C aside with a note, and numpy brings it back', async () => {
    await open(page, '?rule=numpy&s=2,3&s=3&s=1,3');
    await statusHas('(2,3)');
    expect(await page.locator('#set-aside').isVisible()).toBe(false);
    await page.getByLabel('Rule', { exact: true }).selectOption('pdpd');
    await statusHas('(2,3)');
    const note = page.locator('#set-aside');
    expect(await note.isVisible()).toBe(true);
    expect(await note.innerText()).toBe('pdpd takes 2 operands: C (1,3) is set aside. Switch back to numpy to get it back.');
    expect(await note.getAttribute('aria-live')).toBe('polite');
    expect(await page.locator('input.shape-input').count()).toBe(2);
    expect(await page.evaluate(() => location.search)).toBe('?rule=pdpd&s=2,3&s=3');
    await page.getByLabel('Rule', { exact: true }).selectOption('numpy');
    await statusHas('(2,3)');
    expect(await shape('C').inputValue()).toBe('1,3');
    expect(await note.innerText()).toBe('Restored C (1,3).');
    expect(await page.evaluate(() => location.search)).toBe('?rule=numpy&s=2,3&s=3&s=1,3');
    // An example starts afresh: no note, nothing kept aside.
    await page.getByLabel('Rule', { exact: true }).selectOption('none');
    await page.locator('button[data-example="numpy"]').click();
    await statusHas('(8,7,6,5)');
    expect(await note.isVisible()).toBe(false);
  });

  it('expression mode: the softmax example is a program, shown pass by pass, and its preview is evaluate()\'s', async () => {
    await open(page, '?rule=expression');
    await page.locator('button[data-example="expr-softmax"]').click();
    await statusHas('(2,4)');
    expect(await page.locator('#operands input.shape-input').evaluateAll((els) => els.map((e) => e.dataset.var))).toEqual(['x']);
    const passes = await page.locator('#program .program-passes li').allInnerTexts();
    expect(passes).toHaveLength(4);
    expect(passes[0]).toMatch(/^m = max\(x, \[-1\]\) → \(2,1\) float32, keepdims \((generated|interpreter)\)$/);
    expect(passes[1]).toMatch(/^e = exp\(x - m\) → \(2,4\) float32/);
    expect(passes[3]).toMatch(/^result = e \/ _+t2 → \(2,4\) float32/);
    // The preview: each row of 1, 2, 3, … sums to 1.
    const cells = await page.locator('#preview .grid-wrap.out .cell').allInnerTexts();
    expect(cells).toHaveLength(8);
    const row = cells.slice(0, 4).map(Number);
    expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(row[3]).toBeGreaterThan(row[0]);
  });

  it('expression mode: a reduction\'s status counts the result\'s elements, not the broadcast\'s (until 0.9.18 "() float32 · 6 elements")', async () => {
    await open(page, '?rule=expression&e=sum(x)&v=x:2,3');
    await statusHas('()');
    expect(await page.locator('#status .status-meta').innerText()).toMatch(/^1 element · .*sum over axes \[0, 1\] of \(2,3\)$/);
    await open(page, '?rule=expression&e=sum(x%2C%20%5B0%5D)&v=x:2,3');
    await statusHas('(3,)');
    expect(await page.locator('#status .status-meta').innerText()).toMatch(/^3 elements · /);
  });

  it('expression mode: a contraction says it runs as a matrix multiply; argmax around a program ends it', async () => {
    await open(page, '?rule=expression');
    const expr = page.getByLabel('Expression');
    await expr.fill('sum(x * w, [1])');
    await page.locator('#operands input[data-var="w"]').waitFor({ timeout: 5_000 });
    await page.locator('#operands input[data-var="x"]').fill('32,64,1');
    await page.locator('#operands input[data-var="w"]').fill('64,32');
    expect(await statusHas('(32,32)')).toContain('runs as a contraction kernel (col order, 32×64×32)');
    expect(await page.locator('#program .program-how').getAttribute('data-execution')).toBe('contraction');
    expect(await page.locator('#program .program-how').innerText()).toMatch(/^A contraction: out\[m, n\] = Σ_k x\(m, k\) · w\(k, n\)/);
    // A bilinear form runs as product rows: its terms summed as they are made.
    await expr.fill('sum(x * w * y, [1, 2])');
    await page.locator('#operands input[data-var="y"]').waitFor({ timeout: 5_000 });
    await page.locator('#operands input[data-var="x"]').fill('8,4,1');
    await page.locator('#operands input[data-var="w"]').fill('4,32');
    await page.locator('#operands input[data-var="y"]').fill('8,1,32');
    expect(await statusHas('(8,)')).toContain('runs as product rows (8 × 128 terms)');
    expect(await page.locator('#program .program-how').innerText()).toMatch(/^Product rows: each of the 8 results sums its 128 terms \(x · w\) · y/);
    await expr.fill('argmax(exp(x) * 2, -1)');
    await page.locator('#operands input[data-var="x"]').fill('3,5');
    expect(await statusHas('(3,)')).toContain('int32');
    const passes = await page.locator('#program .program-passes li').allInnerTexts();
    expect(passes.at(-1)).toMatch(/^result = argmax\(_+t0, -1\) → \(3,\) int32/);
  });

  it('expression mode: type an expression, see one shape per operand, the alignment, the program; a syntax error shows its caret', async () => {
    await open(page, '?rule=expression');
    expect(await statusHas('(2,3)')).toContain('float32');
    const expr = page.getByLabel('Expression');
    expect(await expr.inputValue()).toBe('(x - m) / s');
    // One shape input per operand the expression reads, in its order.
    expect(await page.locator('#operands input.shape-input').evaluateAll((els) => els.map((e) => e.dataset.var))).toEqual(['x', 'm', 's']);
    // Typing a new expression: names that stay keep their shapes, a new one gets an input.
    await page.locator('#operands input[data-var="x"]').fill('4,3');
    await page.locator('#operands input[data-var="s"]').fill('4,1');
    await statusHas('(4,3)');
    await expr.fill('(x - mu) / s + b');
    await page.locator('#operands input[data-var="mu"]').waitFor({ timeout: 5_000 });
    expect(await page.locator('#operands input.shape-input').evaluateAll((els) => els.map((e) => [e.dataset.var, e.value])))
      .toEqual([['x', '4,3'], ['mu', '1'], ['s', '4,1'], ['b', '1']]);
    await page.locator('#operands input[data-var="mu"]').fill('3');
    await statusHas('(4,3)');
    // Every operand aligned to the output, with the other modes' verdicts.
    expect(await page.locator('tr.operand-row').evaluateAll((trs) => trs.map((t) => t.dataset.operand))).toEqual(['x', 'mu', 's', 'b']);
    expect(await page.locator('tr[data-operand="mu"] td[data-axis="0"]').getAttribute('data-verdict')).toBe('new');
    expect(await page.locator('tr[data-operand="s"] td[data-axis="1"]').getAttribute('data-verdict')).toBe('stretched');
    expect(await page.locator('tr.verdict-row td[data-verdict]').evaluateAll((tds) => tds.map((t) => t.dataset.verdict))).toEqual(['new', 'stretched']);
    // The program, and how it runs.
    const lines = await page.locator('#program .program-lines li').allInnerTexts();
    expect(lines[0]).toBe('r0 = x (float32)');
    expect(lines).toContain('r2 = sub(r0, r1) (float32)');
    expect(lines.at(-1)).toMatch(/^r\d+ = add\(r\d+, r\d+\) \(float32\)$/);
    expect(['generated', 'interpreter']).toContain(await page.locator('#program .program-how').getAttribute('data-execution'));
    // The data preview holds 1, 2, 3, … and the output is evaluate()'s.
    expect(await page.locator('#preview .grid-wrap.out .cell').count()).toBe(12);
    expect(await page.locator('#preview .grid-wrap.out .cell[data-flat="0"]').innerText()).toBe('1'); // (1 - 1) / 1 + 1
    // The URL holds the expression and the shapes.
    const link = await href(page);
    expect(link).toContain('rule=expression&e=(x%20-%20mu)%20/%20s%20%2B%20b&v=x:4,3&v=mu:3&v=s:4,1&v=b:1');
    // Copy as code: evaluate() on the preview's values.
    expect(await page.locator('#code-text').innerText()).toContain("evaluate('(x - mu) / s + b', { x, mu, s, b })");
    // A syntax error: the status and the field show the caret under the token.
    await expr.fill('(x - ) / s');
    expect(await statusHas('Syntax error')).toContain('unexpected ")" at offset 5');
    expect(await page.locator('#expr-error').innerText()).toBe('(x - ) / s\n     ^');
    expect(await expr.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#align-scroll').innerText()).toContain('Fix the input');
    await page.screenshot({ path: path.join(shots, 'explorer-expression-syntax.png'), fullPage: true });
    // A broadcast error names the node and draws its clash as the other modes do.
    await expr.fill('x * mu + c');
    await page.locator('#operands input[data-var="c"]').fill('2');
    expect(await statusHas('INCOMPATIBLE_DIMS')).toContain('"x * mu + c"');
    expect(await page.locator('#expr-error').innerText()).toBe('x * mu + c\n^^^^^^^^^^');
    expect(await page.locator('thead th[data-clash="true"]').evaluateAll((els) => els.map((e) => e.dataset.axis))).toEqual(['1']);
    await expr.fill('sum(x * mu, [1])');
    expect(await statusHas('(4,)')).toContain('sum over axes [1]');
    expect(await page.locator('#expr-error').isHidden()).toBe(true);
    await page.screenshot({ path: path.join(shots, 'explorer-expression.png'), fullPage: true });
    // The link restores the view; other rules come back with their shapes.
    await open(page, `?${link.split('?')[1]}`);
    await statusHas('(4,3)');
    await page.locator('#rule').selectOption('numpy');
    await statusHas('(8,7,6,5)');
  });

  it('expression mode at 390 px: no sideways scrolling of the page', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    await watch(phone, 'expression-390');
    for (const q of ['?rule=expression&e=where(x%20%3E%200%2C%20x%2C%200.01%20*%20x)%20*%20gain%20%2B%20bias%20-%20running_mean_of_the_batch&v=x:2,3,4,5,6,7&v=gain:7',
      '?rule=expression&e=(x%20-%20)%20/%20s%20%2B%20a_rather_long_operand_name_that_does_not_fit_on_a_phone']) {
      await open(phone, q);
      await phone.getByRole('status').filter({ hasText: /Result|Error|Syntax/ }).waitFor({ timeout: 5_000 });
      const m = await phone.evaluate(() => ({ page: document.scrollingElement.scrollWidth, inner: innerWidth }));
      expect(m.page, q).toBeLessThanOrEqual(m.inner);
    }
    await phone.screenshot({ path: path.join(shots, 'explorer-expression-phone.png'), fullPage: true });
    await phone.close();
  });

  it('a clash\'s "Try instead" box goes when expression mode shows its result, and comes back with the clash', async () => {
    await open(page, '?rule=numpy&s=3&s=4');
    await statusHas('axis 0 has 3 vs 4');
    const box = page.locator('#suggestions');
    expect(await box.isVisible()).toBe(true);
    await page.getByLabel('Rule', { exact: true }).selectOption('expression');
    expect(await statusHas('(2,3)')).toContain('Result');
    expect(await page.locator('#status').getAttribute('class')).toContain('is-ok');
    expect(await box.isVisible()).toBe(false);
    expect(await box.getAttribute('hidden')).not.toBeNull();
    // An expression that clashes offers no suggestions either (they are the shape modes').
    await page.getByLabel('Expression').fill('a * b + c');
    await page.locator('#operands input[data-var="c"]').waitFor({ timeout: 5_000 });
    await page.locator('#operands input[data-var="a"]').fill('2,3');
    await page.locator('#operands input[data-var="b"]').fill('3');
    await page.locator('#operands input[data-var="c"]').fill('2');
    await page.locator('#status.is-error').waitFor({ timeout: 5_000 });
    expect(await box.isVisible()).toBe(false);
    await page.getByLabel('Rule', { exact: true }).selectOption('numpy');
    await statusHas('axis 0 has 3 vs 4');
    expect(await box.isVisible()).toBe(true);
  });

  it('named: labels that trim, reorder or pad a dim read so (not "equal"), and the preview names the operand they gather', async () => {
    const cells = () => page.locator('tr.operand-row').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td.dim')].map((td) => td.dataset.shown)));
    const axes = () => page.locator('tr.verdict-row td[data-verdict]').evaluateAll((tds) => tds.map((t) => t.dataset.verdict));
    const preview = () => page.locator('#preview').innerText();
    // A has 4 labels, B 3: the intersection keeps 3, so A is trimmed; B is read as it lies.
    await open(page, '?rule=named&s=&s=&n=X{a,b,c,d}&n=X{a,b,c}');
    expect(await statusHas('(3,)')).toContain('Result');
    expect(await cells()).toEqual([['trimmed'], ['equal']]);
    expect(await axes()).toEqual(['trimmed']);
    expect(await page.locator('tr[data-operand="A"] td.dim').getAttribute('data-verdict')).toBe('equal'); // explain()'s own verdict stays
    expect(await page.locator('tr.verdict-row .chip .long').innerText()).toBe('trimmed');
    expect(await preview()).toContain('These labels trim A: reading it is a gather');
    expect(await preview()).not.toContain('reorder B');
    expect(await page.locator('#legend-labels').isVisible()).toBe(true);
    // The same labels in another order: B is reordered.
    await open(page, '?rule=named&s=&s=&n=X{a,b,c}&n=X{c,b,a}');
    await statusHas('(3,)');
    expect(await cells()).toEqual([['equal'], ['reordered']]);
    expect(await preview()).toContain('These labels reorder B: reading it is a gather');
    // A trimmed and B reordered (the intersection keeps A's order: b, d), beside a dim without labels.
    await open(page, '?rule=named&s=&s=2,2&n=X{a,b,c,d}&n=X{d,b},+t');
    await statusHas('(2,2)');
    expect(await cells()).toEqual([['trimmed', 'new'], ['reordered', 'equal']]);
    expect(await axes()).toEqual(['trimmed', 'new']);
    expect(await preview()).toContain('These labels trim A and reorder B: reading them is a gather');
    await open(page, '?rule=named&s=&s=&n=X{a,b,c}&n=X{b,a,c,d}');
    await statusHas('(3,)');
    expect(await cells()).toEqual([['equal'], ['trimmed']]);
    expect(await preview()).toContain('These labels trim B:');
    // Union: each side lacks a label the other has; its cells read the fill value.
    await open(page, '?rule=named&s=&s=&n=X{a,b}&n=X{b,c}&shaping=union');
    await statusHas('(3,)');
    expect(await cells()).toEqual([['filled'], ['filled']]);
    expect(await axes()).toEqual(['filled']);
    expect(await preview()).toContain('These labels pad A and pad B (with the fill value): reading them is a gather');
    // Labels that agree, in order: equal, and a preview.
    await open(page, '?rule=named&s=&s=&n=X{a,b}&n=X{a,b}');
    await statusHas('(2,)');
    expect(await cells()).toEqual([['equal'], ['equal']]);
    expect(await page.locator('#legend-labels').isVisible()).toBe(false);
    await page.locator('#preview .tensor-out .cell').first().waitFor({ timeout: 5_000 });
  });

  it('copy as code in float16 (this Chromium has Float16Array) runs in Node 20, which has none, and prints the page\'s values', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await watch(p, 'float16-code');
    const { runJs } = await import('../tools/run-snippets.mjs');
    // The Node that runs the copied code has no Float16Array: the snippet takes the bits form there.
    const [probe] = runJs(["console.log(typeof Float16Array, process.versions.node.split('.')[0]);"]);
    expect(probe.out.trim()).toBe(`undefined ${process.versions.node.split('.')[0]}`);
    expect(await p.evaluate(() => typeof Float16Array)).toBe('function');
    const cases = ['?rule=numpy&s=2,1,3&s=2,1&dtype=float16', '?rule=numpy&s=2,1,3&s=2,1&dtype=float16&back=1',
      '?rule=to-numpy&s=3,1&s=2,-1,4&dtype=float16', '?rule=named&s=2,3&s=3,2,4&n=x,+t&n=t,+x,+z&dtype=float16',
      '?rule=named&s=2,3&s=3,2,4&n=x,+t&n=t,+x,+z&dtype=float16&back=1', '?rule=expression&dtype=float16'];
    const codes = [];
    const grids = [];
    for (const c of cases) {
      await open(p, c);
      await p.locator('#preview .cell').first().waitFor({ timeout: 5_000 });
      const code = await p.locator('#code-text').textContent();
      expect(code, c).not.toContain('Float16Array.from');
      expect(code, c).toContain("cast({ data: Float32Array.from({ length: n }, (_, i) => i + from), shape: [n] }, 'float16')");
      codes.push(code);
      const back = c.includes('back=1');
      grids.push(await p.locator('#preview').evaluate((box, b) => (b
        ? [...box.querySelectorAll('.preview-inputs .grid-wrap')].map((w) => [...w.querySelectorAll('.cell')].map((x) => x.textContent))
        : [[...box.querySelectorAll('.tensor-out .cell')].map((x) => x.textContent)]), back));
    }
    const ran = runJs(codes);
    ran.forEach((r, i) => {
      expect(r.ok, `${cases[i]}: ${JSON.stringify(r.error)}\n${codes[i]}`).toBe(true);
      const printed = r.out.trim().split('\n').map((l) => /: (.*)$/.exec(l)[1].split(' '));
      expect(printed, cases[i]).toEqual(grids[i]);
    });
    await ctx.close();
  });

  it('copy as code, from links full of hostile text: no tab\'s code runs the text, in Node or python3', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await ctx.newPage();
    await watch(p, 'hostile');
    const { runJs, runPython } = await import('../tools/run-snippets.mjs');
    const { browserLinks, RAN } = await import('../tools/hostile-links.mjs');
    const js = [];
    const py = [];
    for (const link of browserLinks()) {
      for (const back of [false, true]) {
        if (back && link.includes('rule=expression')) continue;
        for (const tab of ['tensorcast', 'numpy', 'torch', 'openvino']) {
          await open(p, `${link.replace(/&code=[^&]*/, '')}&code=${tab}${back ? '&back=1' : ''}`);
          const lang = await p.locator('#code-text').getAttribute('data-lang');
          const code = await p.locator('#code-text').textContent();
          if (!code) continue;
          const where = `${link}${back ? ' (backward)' : ''} [${tab}]`;
          if (tab === 'tensorcast') js.push({ where, code });
          else if (code.startsWith('import ')) py.push({ where, code }); // C++ (OpenVINO's PDPD) starts with #include
          else expect(code, `${where} ${lang}`).not.toMatch(/console|print\(7/);
        }
      }
    }
    expect(js.length).toBeGreaterThan(10);
    const ran = runJs(js.map((x) => x.code));
    expect(ran.flatMap((r, i) => (RAN.test(r.out) ? [`${js[i].where}\n${js[i].code}`] : [])), 'the text ran').toEqual([]);
    ran.forEach((r, i) => {
      const claim = /^\/\/ throws (\S+):/m.exec(js[i].code);
      if (claim) expect(r.error?.code ?? r.error?.name, js[i].where).toBe(claim[1]);
      else expect(r.ok, `${js[i].where}: ${JSON.stringify(r.error)}\n${js[i].code}`).toBe(true);
    });
    const pran = runPython(py.map((x) => x.code));
    expect(pran.flatMap((r, i) => (RAN.test(r.out) ? [`${py[i].where}\n${py[i].code}`] : [])), 'the text ran').toEqual([]);
    pran.forEach((r, i) => expect(r.ok, `${py[i].where}: ${JSON.stringify(r.error)}\n${py[i].code}`).toBe(true));
    await ctx.close();
  }, 180_000);

  it('had no console errors, page errors, failed requests or CSP violations', async () => {
    expect(await page.evaluate(() => window.__csp)).toEqual([]);
    const refusal = /^desktop console\.error: .*inline script.*Content Security Policy/;
    expect(problems.filter((p) => !(probed && refusal.test(p)))).toEqual([]);
  });
});
