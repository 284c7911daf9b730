// Memory filled to its 4 GB, calls that need the engine's own blocks made while
// it is full (they go to the engine's reserve, the last 16 MiB:
// bindings/wasm/malloc.cpp), then everything freed: calls must run as before.
// emmalloc serves a request from the smallest free region that holds it, which
// was then a piece of the reserve between the engine's blocks, and the library
// refused every such block as TOO_LARGE: even a 64-byte add failed with 4 GB
// free. heap-reserve-child.mjs does it twice over in a process of its own (the
// heap stays at 4 GB for the process's life); memory is filled with blocks
// never written, so the process takes a few seconds and little memory.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./heap-reserve-child.mjs', import.meta.url));

describe('memory filled to 4 GB, then freed', () => {
  it('the engine gets its reserve while memory is full, and every call runs again once it is freed', () => {
    const r = spawnSync(process.execPath, [CHILD], { encoding: 'utf8', timeout: 150_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const round = {
      full: true,
      fullEvaluated: 50,
      fullExplained: 50,
      64: 7, 1024: 7, 16384: 7,
      add: '2,3',
      resident: 3,
      evaluated: '3,5,7',
      allocated: 0,
      live: 0,
    };
    expect(JSON.parse(r.stdout)).toEqual([round, round]);
  }, 180_000);
});
