// Post-link step of both modules, first part (scripts/wasm-post.mjs runs it):
// join the active data segments that lie close together in memory into one.
//
// Binaryen's memory packing splits the data section at every run of zeros, so
// a table such as the C library's pow table arrives as ~125 segments of 23
// bytes, each with its own header. Gzip compresses the zeros between them to
// almost nothing, but not the headers: joined (gaps up to MAX_GAP bytes filled
// with zeros) the module is ~3 KB larger raw and ~0.7 KB smaller gzipped. The
// memory the module starts with is the same byte for byte.

const MAX_GAP = 1024;

/** The unsigned LEB128 number at buf[i]: [value, the index after it]. */
export function uleb(buf, i) {
  let r = 0;
  let shift = 0;
  for (;;) {
    const b = buf[i++];
    r += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [r, i];
  }
}

/**
 * The signed LEB128 number at buf[i] as a 32-bit integer: [value, the index
 * after it]. The index is right for a number of any width (an i64.const's).
 */
export function sleb32(buf, i) {
  let r = 0;
  let shift = 0;
  let b;
  do {
    b = buf[i++];
    r |= (b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  if (shift < 32 && (b & 0x40)) r |= -1 << shift;
  return [r, i];
}

/** n as unsigned LEB128 bytes. */
export function encU(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

/** A 32-bit integer as signed LEB128 bytes. */
export function encS32(n) {
  const out = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** A module's sections: [{ id, from (the id byte), start, end (of the contents) }], in order. */
export function wasmSections(bytes) {
  const sections = [];
  for (let i = 8; i < bytes.length;) {
    const id = bytes[i];
    const [size, start] = uleb(bytes, i + 1);
    sections.push({ id, from: i, start, end: start + size });
    i = start + size;
  }
  return sections;
}

/** The module's bytes with its nearby active data segments joined; null when there is nothing to join. */
export function joinDataSegments(bytes) {
  const sections = wasmSections(bytes);
  const data = sections.find((s) => s.id === 11);
  if (!data) return null;
  let [count, p] = uleb(bytes, data.start);
  const segs = [];
  for (let k = 0; k < count; k++) {
    // Only the form wasm-ld writes here: active, memory 0, offset an i32.const.
    if (bytes[p] !== 0 || bytes[p + 1] !== 0x41) return null;
    let off;
    [off, p] = sleb32(bytes, p + 2);
    if (bytes[p] !== 0x0b) return null;
    let len;
    [len, p] = uleb(bytes, p + 1);
    segs.push({ off: off >>> 0, body: bytes.subarray(p, p + len) });
    p += len;
  }
  if (p !== data.end) return null;
  const joined = [];
  for (const s of segs) {
    const last = joined[joined.length - 1];
    const gap = last ? s.off - (last.off + last.len) : -1;
    if (last && gap >= 0 && gap <= MAX_GAP) {
      last.parts.push(new Uint8Array(gap), s.body);
      last.len += gap + s.body.length;
    } else {
      joined.push({ off: s.off, len: s.body.length, parts: [s.body] });
    }
  }
  if (joined.length === segs.length) return null;
  const body = [...encU(joined.length)];
  const chunks = [];
  for (const j of joined) {
    chunks.push(Uint8Array.from([...body, 0, 0x41, ...encS32(j.off | 0), 0x0b, ...encU(j.len)]));
    body.length = 0;
    chunks.push(...j.parts);
  }
  const payload = Buffer.concat(chunks);
  const out = [Buffer.from(bytes.subarray(0, 8))];
  for (const s of sections) {
    if (s.id === 11) out.push(Buffer.from([11, ...encU(payload.length)]), payload);
    else if (s.id === 12) { const c = encU(joined.length); out.push(Buffer.from([12, ...encU(c.length), ...c])); }
    else out.push(Buffer.from(bytes.subarray(s.from, s.end)));
  }
  return Buffer.concat(out);
}
