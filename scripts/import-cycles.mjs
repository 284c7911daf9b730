// The import cycles among bindings/js's modules (none expected): prints each
// cycle found and exits 1 if there is any. `node scripts/import-cycles.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bindings', 'js');
/** Each module's relative imports (static and dynamic). */
export function importsOf(d = dir) {
  const g = {};
  for (const f of fs.readdirSync(d).filter((x) => x.endsWith('.js'))) {
    const src = fs.readFileSync(path.join(d, f), 'utf8');
    g[f] = [...src.matchAll(/(?:^import|^export)[^'";]*?from\s*['"]\.\/([^'"]+)['"]|import\(\s*['"]\.\/([^'"]+)['"]\s*\)/gm)].map((m) => m[1] ?? m[2]);
  }
  return g;
}

/** Every elementary cycle's modules, each once (rotated to start at its least name). */
export function cycles(g = importsOf()) {
  const found = new Map();
  const visit = (n, stack) => {
    const i = stack.indexOf(n);
    if (i >= 0) {
      const c = stack.slice(i);
      const k = c.indexOf([...c].sort()[0]);
      const rot = [...c.slice(k), ...c.slice(0, k)];
      found.set(rot.join(' -> '), rot);
      return;
    }
    for (const m of g[n] ?? []) visit(m, [...stack, n]);
  };
  for (const n of Object.keys(g)) visit(n, []);
  return [...found.values()];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const g = importsOf();
  const cs = cycles(g);
  console.log(`${Object.keys(g).length} modules, ${Object.values(g).reduce((s, l) => s + l.length, 0)} imports, ${cs.length} cycles`);
  for (const c of cs) console.log(`  ${c.join(' -> ')} -> ${c[0]}`);
  process.exit(cs.length ? 1 : 0);
}
