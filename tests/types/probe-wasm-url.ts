// The README's esbuild recipe: the engine file imported as its emitted address.
import wasmUrl from 'tensorcast/tensorcast.wasm';
import shapesWasmUrl from 'tensorcast/tensorcast-shapes.wasm';
import { init } from 'tensorcast';
import { init as initShapes } from 'tensorcast/shapes';

export const url: string = wasmUrl;
export const ready: Promise<void> = init({ wasmUrl });
export const shapesReady: Promise<void> = initShapes({ wasmUrl: shapesWasmUrl });
// @ts-expect-error: an address, not bytes
export const bytes: Uint8Array = wasmUrl;
