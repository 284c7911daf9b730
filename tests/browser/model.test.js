// The model explorer (web/model.html) in headless Chromium: a sample, a
// picked file (the largest real model of the corpus) and a non-model, used
// the way a person would. The page is the one scripts/web.mjs built into
// dist/explorer (with the broadcast explorer), served by scripts/serve.mjs.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.js';
import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = path.join(root, 'tests', 'fixtures', 'onnx');

let server;
let url;
let browser;
let page;
const problems = [];

beforeAll(async () => {
  ({ server, url } = await serve(path.join(root, 'dist', 'explorer'), 0));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(`${url}model.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(r) : r()));
});

const listed = () => page.evaluate(() => document.body.dataset.listedMs);
/** Forget the last listing, so that the next one is seen whatever its time. */
const unlisted = () => page.evaluate(() => { delete document.body.dataset.listedMs; });

async function waitListed(before) {
  await page.waitForFunction((b) => document.body.dataset.listedMs !== undefined && document.body.dataset.listedMs !== b
    && document.body.dataset.nodes !== undefined, before, { timeout: 20_000 });
}

describe('the model explorer', () => {
  it('opens a sample: every status, the names and what they must satisfy, one node\'s alignment', async () => {
    const before = await listed();
    await page.getByRole('button', { name: /Every status/ }).click();
    await waitListed(before);
    const summary = await page.locator('#summary').textContent();
    expect(summary).toContain('checks.onnx');
    expect(summary).toMatch(/5 ok/);
    expect(summary).toMatch(/1 clash/);
    expect(summary).toMatch(/1 declared mismatch/);
    expect(summary).toMatch(/1 unknown/);
    expect(await page.locator('#symbols').textContent()).toContain('batch must be 1: it meets 3 at scale_3 and 5 at scale_5');
    // problems first: the clash is the node opened
    const rows = await page.locator('.node-row .line').allTextContents();
    expect(rows[0]).toBe('Mul (batch,seq,16) ⊕ (batch,1,12) → ✕');
    expect(await page.locator('#node-detail').textContent()).toContain('INCOMPATIBLE_DIMS');
    expect(await page.locator('#align-scroll td[data-clash="true"]').count()).toBeGreaterThan(0);
    // the unknown names the node that lost the shape
    await page.locator('.node-row', { hasText: 'after_norm' }).click();
    expect(await page.locator('#node-detail').textContent()).toContain('my_norm');
    // the declared mismatch shows both shapes
    await page.locator('.node-row', { hasText: 'residual' }).click();
    const d = await page.locator('#node-detail').textContent();
    expect(d).toContain('(batch,seq,16)');
    expect(d).toContain('(batch,seq,15)');
    // filters
    await page.selectOption('#filter-status', 'ok');
    expect(await page.locator('.node-row').count()).toBe(5);
    await page.selectOption('#filter-status', '');
    await page.selectOption('#filter-op', 'MatMul');
    expect(await page.locator('.node-row .line').allTextContents()).toEqual(['MatMul (batch,seq,8) ⊕ (8,16) → (batch,seq,16)']);
  });

  it('reads a picked file in a worker and lists the nodes of the largest real model within a second', async () => {
    const before = await listed();
    await page.setInputFiles('#file', path.join(fixtures, 'real', 'ch_PP-OCRv4_det_infer.onnx'));
    await waitListed(before);
    const ms = Number(await listed());
    expect(Number(await page.evaluate(() => document.body.dataset.nodes))).toBeGreaterThan(100);
    expect(await page.locator('#summary').textContent()).toContain('ch_PP-OCRv4_det_infer.onnx');
    // (the timing target is the bench's: bench/model.mjs; here only that it is listed, and the figure is sane)
    expect(ms).toBeGreaterThan(0);
  });

  it('opens a file dropped anywhere on the page, not only on the zone (until 0.9.17 the browser took it)', async () => {
    const before = await listed();
    const bytes = [...readFileSync(path.join(root, 'web', 'public', 'samples', 'checks.onnx'))];
    const prevented = await page.evaluate((b) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(b)], 'dropped.onnx'));
      const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
      const drop = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
      document.querySelector('h1').dispatchEvent(over);
      document.querySelector('h1').dispatchEvent(drop);
      return [over.defaultPrevented, drop.defaultPrevented];
    }, bytes);
    expect(prevented).toEqual([true, true]);
    // text dragged (into the filter box) is left to the browser
    expect(await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData('text/plain', 'Add');
      const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
      document.querySelector('#filter-text').dispatchEvent(over);
      return over.defaultPrevented;
    })).toBe(false);
    await waitListed(before);
    expect(await page.locator('#summary').textContent()).toContain('dropped.onnx');
  });

  it('says what is not a model, and stays usable', async () => {
    await page.setInputFiles('#file', { name: 'notes.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from('this is not a model') });
    await page.locator('#summary.is-error').waitFor({ timeout: 10_000 });
    expect(await page.locator('#summary').textContent()).toContain('Not a model');
    const before = await listed();
    await page.getByRole('button', { name: /Attention block/ }).click();
    await waitListed(before);
    expect(await page.locator('#summary').textContent()).toContain('attention.onnx');
    expect(await page.locator('.node-row .line').allTextContents()).toContain('Add (batch,12,seq,64) ⊕ (batch,1,1,seq) → (batch,12,seq,64)');
  });

  it('shows the last pick: a model picked while another is read replaces it, and the earlier answer never shows (until 0.9.21 it could, under the later name)', async () => {
    await unlisted();
    // two picks at once: the small file is read (and answered) first, the large one would answer last
    await Promise.all([page.setInputFiles('#file', path.join(fixtures, 'real', 'ch_PP-OCRv4_det_infer.onnx')),
      page.setInputFiles('#file', path.join(root, 'web', 'public', 'samples', 'attention.onnx'))]);
    await waitListed(undefined);
    const shown = async () => [await page.locator('#summary .status-kind').textContent(), await page.evaluate(() => document.body.dataset.nodes)];
    expect(await shown()).toEqual(['ONNX · attention.onnx (551 B)', '2']);
    await page.waitForTimeout(1500); // the PaddleOCR read, had it gone on, would have answered by now
    expect(await shown()).toEqual(['ONNX · attention.onnx (551 B)', '2']);
  });

  it('a refused pick clears the report it replaces; the same file picked again is read again (until 0.9.21 the old nodes stayed, and a re-pick did nothing)', async () => {
    const checks = { name: 'checks.onnx', mimeType: 'application/octet-stream', buffer: readFileSync(path.join(root, 'web', 'public', 'samples', 'checks.onnx')) };
    await unlisted();
    await page.setInputFiles('#file', checks);
    await waitListed(undefined);
    expect(await page.locator('#nodes-section').isVisible()).toBe(true);
    const xml = (name) => ({ name, mimeType: 'text/xml', buffer: Buffer.from('<net/>') });
    await page.setInputFiles('#file', [xml('a.xml'), xml('b.xml')]);
    await page.locator('#summary.is-error').waitFor({ timeout: 10_000 });
    expect(await page.locator('#summary').textContent()).toMatch(/^Cannot openDrop one model at a time/);
    expect(await page.locator('#nodes-section').isHidden()).toBe(true);
    expect(await page.locator('#node-section').isHidden()).toBe(true);
    await page.setInputFiles('#file', { name: 'm.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(8) });
    await page.locator('#summary.is-error').waitFor({ timeout: 10_000 });
    expect(await page.locator('#summary').textContent()).toContain('m.bin holds an OpenVINO IR\'s weights');
    await unlisted();
    await page.setInputFiles('#file', checks);
    await waitListed(undefined);
    await unlisted();
    await page.setInputFiles('#file', checks); // the same file again
    await waitListed(undefined);
    expect(await page.locator('#summary .status-kind').textContent()).toBe('ONNX · checks.onnx (1.2 KB)');
  });

  it('had no console errors, page errors or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
