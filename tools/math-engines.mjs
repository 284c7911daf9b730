// How often Node's and Chromium's float64 Math functions give different bits,
// and by how many ulp: the float64 functions tensorcast takes from the JS
// engine (README, Precision) differ between engines in this way. 100,000
// seeded inputs per function, the same in both. Usage (Debian's chromium, as the browser tests):
//   node tools/math-engines.mjs
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/browser/chromium.js';

// Run in both engines (so it carries its own inputs): [[name, results], ...].
function results() {
  let s = 12345;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const xs = Array.from({ length: 100000 }, () => (rnd() - 0.5) * 40);
  const out = ['sin', 'cos', 'tan', 'exp', 'expm1', 'log', 'log1p', 'tanh'].map((fn) => [fn, xs.map((x) => Math[fn](fn.startsWith('log') ? Math.abs(x) : x))]);
  out.push(['atan2', xs.map((x, i) => Math.atan2(x, xs[(i + 1) % xs.length]))]);
  out.push(['pow', xs.map((x, i) => Math.pow(Math.abs(x), xs[(i + 7) % xs.length] / 4))]);
  return out;
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
const page = await browser.newPage();
const there = await page.evaluate(`(${results})()`);
const version = (await browser.version());
await browser.close();
const bits = new BigInt64Array(2);
const f64 = new Float64Array(bits.buffer);
console.log(`Node ${process.version} vs Chromium ${version}: inputs whose results differ, and the largest difference`);
for (const [k, [fn, here]] of results().entries()) {
  let n = 0;
  let most = 0n;
  for (let i = 0; i < here.length; i++) {
    if (Object.is(here[i], there[k][1][i])) continue;
    n++;
    f64[0] = here[i];
    f64[1] = there[k][1][i];
    const d = bits[0] > bits[1] ? bits[0] - bits[1] : bits[1] - bits[0]; // same sign here: ulp apart
    if (d > most) most = d;
  }
  console.log(`${fn.padEnd(6)} ${String(n).padStart(6)} of ${here.length}  ${most} ulp`);
}
