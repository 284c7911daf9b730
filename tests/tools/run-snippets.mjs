// Run "Copy as code" snippets as a person would after pasting them: each
// JavaScript snippet as its own ES module file in Node (its `import ... from
// 'tensorcast'` resolving to this repository's package), each Python snippet
// as its own file under python3 (read as bytes, so an encoding declaration
// would count, as it does for a file). One process per language for a whole
// batch. PyTorch and OpenVINO are not installable here: their modules are
// stand-ins that accept any attribute, call and operator, so the snippet's
// own lines (and anything smuggled into them) still run.
//
//   const r = runJs(codes)      // [{ ok, error?: { name, code, message }, out }]
//   const r = runPython(codes)  // [{ ok, syntax?, error?, out }]
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SEP = '\u0001SNIPPET';

/** A folder of its own (its own package.json, so no package.json above it counts) where 'tensorcast' is this repository. */
function folder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'tc-snippets-'));
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(root, path.join(dir, 'node_modules', 'tensorcast'));
  return dir;
}

/** Split a driver's stdout into one record per snippet (what it printed, then its END line). */
function records(stdout, n) {
  const out = [];
  for (const part of stdout.split(`${SEP} BEGIN `).slice(1)) {
    const nl = part.indexOf('\n');
    const i = Number(part.slice(0, nl));
    const body = part.slice(nl + 1);
    const end = body.lastIndexOf(`${SEP} END `);
    if (end < 0) { out[i] = { ok: false, out: body, error: { name: 'NoEnd', message: 'the snippet never finished' } }; continue; }
    const result = JSON.parse(body.slice(end + `${SEP} END `.length).split('\n')[0]);
    out[i] = { ...result, out: body.slice(0, end) };
  }
  for (let i = 0; i < n; i++) out[i] ??= { ok: false, out: '', error: { name: 'NotRun', message: 'the driver stopped before this snippet' } };
  return out;
}

/** Run JavaScript snippets (ES modules) in Node, one after the other, in one process. */
export function runJs(codes, { timeout = 120_000 } = {}) {
  const dir = folder();
  try {
    codes.forEach((c, i) => writeFileSync(path.join(dir, `s${i}.mjs`), c));
    writeFileSync(path.join(dir, 'driver.mjs'), `
const SEP = ${JSON.stringify(SEP)};
for (let i = 0; i < ${codes.length}; i++) {
  process.stdout.write(SEP + ' BEGIN ' + i + '\\n');
  let r;
  try {
    await import('./s' + i + '.mjs');
    r = { ok: true };
  } catch (e) {
    r = { ok: false, error: { name: e?.name, code: e?.code ?? null, message: String(e?.message ?? e) } };
  }
  await new Promise((f) => setTimeout(f, 0)); // what the snippet scheduled runs before its END
  process.stdout.write('\\n' + SEP + ' END ' + JSON.stringify(r) + '\\n');
}
`);
    const r = spawnSync(process.execPath, ['driver.mjs'], { cwd: dir, encoding: 'utf8', timeout });
    const list = records(r.stdout ?? '', codes.length);
    return Object.assign(list, { stderr: r.stderr, status: r.status });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PY_DRIVER = `
import sys, json, types

class Anything:
    """Stands for torch / openvino: every attribute, call, index and operator gives another one."""
    def __getattr__(self, name): return Anything()
    def __call__(self, *a, **k): return Anything()
    def __getitem__(self, k): return Anything()
    def __iter__(self): return iter(())
    def __repr__(self): return '<stand-in>'
for op in ['add', 'radd', 'sub', 'rsub', 'mul', 'rmul', 'truediv', 'rtruediv', 'neg']:
    setattr(Anything, '__%s__' % op, lambda self, *a: Anything())

def stand_in(name):
    m = types.ModuleType(name)
    m.__getattr__ = lambda attr: Anything()
    return m
for name in ['torch', 'openvino', 'openvino.opset13']:
    sys.modules[name] = stand_in(name)

SEP = ${JSON.stringify(SEP)}
for i, f in enumerate(sys.argv[1:]):
    sys.stdout.write(SEP + ' BEGIN %d\\n' % i)
    sys.stdout.flush()
    try:
        with open(f, 'rb') as fh:
            code = compile(fh.read(), f, 'exec')
    except (SyntaxError, ValueError) as e:
        r = {'ok': False, 'syntax': True, 'error': {'name': type(e).__name__, 'message': str(e)}}
    else:
        try:
            exec(code, {'__name__': '__main__'})
            r = {'ok': True}
        except Exception as e:
            r = {'ok': False, 'error': {'name': type(e).__name__, 'message': str(e)}}
    sys.stdout.flush()
    sys.stdout.write('\\n' + SEP + ' END ' + json.dumps(r) + '\\n')
    sys.stdout.flush()
`;

/** Run Python snippets under python3, one after the other, in one process. */
export function runPython(codes, { timeout = 120_000, python = '/usr/bin/python3' } = {}) {
  const dir = folder();
  try {
    const files = codes.map((c, i) => {
      const f = path.join(dir, `s${i}.py`);
      writeFileSync(f, c);
      return f;
    });
    writeFileSync(path.join(dir, 'driver.py'), PY_DRIVER);
    const r = spawnSync(python, ['driver.py', ...files], { cwd: dir, encoding: 'utf8', timeout, env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
    const list = records(r.stdout ?? '', codes.length);
    return Object.assign(list, { stderr: r.stderr, status: r.status });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
