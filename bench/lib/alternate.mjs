// Two builds side by side, each in its own Node processes: `script --child
// <dist> ...extra` runs once per build per round, alternating which goes first
// (A then B, then B then A), and prints a JSON object { case: figure }.
// Returns, per build, { case: [the figure of each round] }.
import { execFileSync } from 'node:child_process';

export function alternate(script, dists, rounds, extra = []) {
  const res = dists.map(() => ({}));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [1, 0] : [0, 1];
    for (const i of order) {
      const o = JSON.parse(execFileSync(process.execPath, [script, '--child', dists[i], ...extra]).toString());
      for (const k in o) (res[i][k] ??= []).push(o[k]);
    }
  }
  return res;
}
