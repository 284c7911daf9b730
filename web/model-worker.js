// The model explorer's worker: the model is read here, off the page's thread,
// by the library itself (tensorcast/model: its inferShapes, its engine). In
// this page's Vite build 'tensorcast' is the model entry (vite.model.config.js).
import { init, inferShapes } from 'tensorcast';

let ready = null;

self.onmessage = async (e) => {
  const { id, model, bin } = e.data;
  try {
    ready ??= init();
    await ready;
    const t0 = performance.now();
    const report = inferShapes(model, bin ? { bin } : {});
    self.postMessage({ id, ok: true, report, ms: performance.now() - t0 });
  } catch (err) {
    ready = err && err.name === 'TypeError' ? ready : null;
    self.postMessage({ id, ok: false, error: { name: err?.name ?? 'Error', message: String(err?.message ?? err) } });
  }
};
