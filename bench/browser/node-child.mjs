// One group of bench/browser/groups.mjs in a fresh Node process:
//   node bench/browser/node-child.mjs <group> [--quick]
// prints one JSON line: the group's figures, plus this process's import and
// init() times of tensorcast.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runGroup } from './groups.mjs';
import { clockStep } from '../lib/wall.mjs';
import { loadTfNode } from '../lib/tfnode.mjs';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [group, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');

const t0 = performance.now();
const tc = await import(pathToFileURL(path.join(benchDir, '..', 'dist', 'node.js')).href);
const t1 = performance.now();
await tc.init();
const t2 = performance.now();

const { tf, info: tfInfo } = await loadTfNode();

const r = await runGroup(group, { tc, tf }, quick ? { runs: 7, warmupMs: 60 } : {});
r.env = { name: 'Node', version: process.version, tf: tfInfo, clockStepMs: clockStep(), importMs: t1 - t0, initMs: t2 - t1 };
process.stdout.write(JSON.stringify(r) + '\n');
process.exit(0);
