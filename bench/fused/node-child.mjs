// One group of bench/fused/groups.mjs in a fresh Node process:
//   node bench/fused/node-child.mjs <group> <limit dir or -> [--quick] [--clock=wall]
// prints one JSON line: the group's figures.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runFusedGroup, CHAINS } from './groups.mjs';
import { clockStep } from '../lib/wall.mjs';
import { loadTfNode } from '../lib/tfnode.mjs';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [group, limitDir, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
const CHAIN_GROUPS = Object.keys(CHAINS);

// TENSORCAST_BENCH_ENTRY: another build's node entry (default ../dist/node.js), as bench/lib/tensorcast.mjs.
const entry = process.env.TENSORCAST_BENCH_ENTRY || path.join(benchDir, '..', 'dist', 'node.js');
const tc = await import(pathToFileURL(path.resolve(entry)).href);
await tc.init();
const { tf, info: tfInfo } = await loadTfNode();
// onnxruntime-web (one thread), for the chains only; not loaded in the page (as bench/browser/).
let ort = null;
let ortInfo = 'not loaded';
if (CHAIN_GROUPS.includes(group)) {
  try {
    const { ortweb } = await import('../lib/peers.mjs');
    await ortweb.init();
    ort = ortweb.ort;
    ortInfo = `onnxruntime-web ${ort.env.versions?.web ?? ''} (${ortweb.info})`;
  } catch (e) {
    ortInfo = `onnxruntime-web did not load: ${e.message.split('\n')[0]}`;
  }
}
const wasm = limitDir && limitDir !== '-' ? path.join(limitDir, 'fused.wasm') : null;
const limit = wasm && fs.existsSync(wasm) ? new WebAssembly.Module(fs.readFileSync(wasm)) : null;

// --clock=wall: wall time only, as the page; default min(wall, process CPU) per batch, as the Node sets.
const cpu = flags.includes('--clock=wall') ? undefined : () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const r = await runFusedGroup(group, { tc, tf, limit, ort }, { cpu, ...(quick ? { runs: 7, warmupMs: 60 } : {}) });
r.env = { name: 'Node', version: process.version, tf: tfInfo, ort: ortInfo, clockStepMs: clockStep(), evaluate: typeof tc.evaluate === 'function', compile: typeof tc.compile === 'function' };
process.stdout.write(JSON.stringify(r) + '\n');
process.exit(0);
