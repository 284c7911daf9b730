#include "driver.hpp"

#include <cstring>
#include <vector>

namespace tc {

namespace {

// Rows shorter than this are packed: one call per tile, not per row. 8: a
// [N, 8] + [N, 1] (a column gathered into every row) ran 1.2x slower packed,
// a [N, 8] + [8] 0.4x; under 8 both gain.
constexpr i64 kShortRow = 8;

// Bytes of a tile gathered at a time, per operand (run_tiles keeps two on the
// stack: 64 KB of its 256). 32 KB: best of 4-64 KB on a transposed add.
constexpr size_t kTile = 32768;

// Odometer over loop axes [0, end): calls at(base, i) for each of their index
// tuples in row-major order, i counting from 0, base[k] = operand k's element
// offset there.
template <size_t N, typename At>
void walk_outer(const LoopPlan& L, int end, At&& at) {
  i64 count = 1;
  for (int d = 0; d < end; ++d) count *= L.shape[d];
  i64 idx[kMaxRank];
  for (int d = 0; d < end; ++d) idx[d] = 0;  // not `= {0}`: a 256-byte memory.fill on every call
  i64 base[N] = {0};
  for (i64 i = 0; i < count; ++i) {
    at(static_cast<const i64*>(base), i);
    for (int d = end - 1; d >= 0; --d) {
      for (size_t k = 0; k < N; ++k) base[k] += L.strides[k][static_cast<size_t>(d)];
      if (++idx[d] < L.shape[d]) break;
      for (size_t k = 0; k < N; ++k) base[k] -= L.strides[k][static_cast<size_t>(d)] * L.shape[d];
      idx[d] = 0;
    }
  }
}

// Calls row(offsets...) once per innermost row with each operand's element
// offset. The axis next to the innermost runs as a tight loop (short rows are
// common: a pdpd bias over [C, H, W] calls a row kernel C * H times).
template <size_t N, typename Row>
void walk_rows(const LoopPlan& L, Row&& row) {
  const int m = L.rank;
  if (m == 1) {
    const i64 off[N] = {0};
    row(off, 0);
    return;
  }
  const int d1 = m - 2;
  const i64 len1 = L.shape[d1];
  i64 step1[N];
  for (size_t k = 0; k < N; ++k) step1[k] = L.strides[k][static_cast<size_t>(d1)];
  i64 off[N];
  i64 r = 0;
  walk_outer<N>(L, d1, [&](const i64* base, i64) {
    for (size_t k = 0; k < N; ++k) off[k] = base[k];
    for (i64 j = 0; j < len1; ++j, ++r) {
      row(static_cast<const i64*>(off), r);
      for (size_t k = 0; k < N; ++k) off[k] += step1[k];
    }
  });
}

// `n` elements of T read `stride` apart into a contiguous row.
template <typename T>
void gather_typed(char* o, const char* src, i64 stride, i64 n) {
  auto* d = reinterpret_cast<T*>(o);
  const auto* p = reinterpret_cast<const T*>(src);
  for (i64 i = 0; i < n; ++i) d[i] = p[i * stride];
}

// A strided row gathered (any stride but 1 and 0: fill_row has those).
void gather_row(char* o, const char* src, i64 stride, size_t es, i64 n) {
  switch (es) {
    case 1: gather_typed<std::uint8_t>(o, src, stride, n); break;
    case 2: gather_typed<std::uint16_t>(o, src, stride, n); break;
    case 4: gather_typed<std::uint32_t>(o, src, stride, n); break;
    default: gather_typed<std::uint64_t>(o, src, stride, n); break;
  }
}

// The first `head` bytes at o copied onto the next `total - head`, in
// doubling runs (a copy of what is already written: log2 calls, not one each).
// Not inlined, nor packs() below: at their call sites the page measured 26-50 B larger.
[[gnu::noinline]] void repeat_head(char* o, size_t head, size_t total) {
  for (size_t done = head; done < total;) {
    const size_t c = done < total - done ? done : total - done;
    std::memcpy(o + done, o, c);
    done += c;
  }
}

// 8 or more rows (all axes but the innermost) of fewer than kShortRow
// elements: run_tiles packs them, a buffer's worth to one call (fewer rows: a
// call a row costs less than gathering them). run_binary and run_copy ask too.
[[gnu::noinline]] bool packs(const LoopPlan& L) {
  const i64 len = L.shape[L.rank - 1];
  i64 rows = 1;
  for (int d = 0; d < L.rank - 1; ++d) rows *= L.shape[d];
  return len < kShortRow && rows >= 8;
}

// A row of `n` elements of `es` bytes read at `stride` elements apart:
// contiguous (one memcpy), one element repeated (one element, then doubling
// copies of what is written; under kShortRow elements, as a gather), or
// gathered element by element.
void fill_row(char* o, const char* src, i64 stride, size_t es, i64 n) {
  const size_t total = static_cast<size_t>(n) * es;
  if (stride == 1) {
    std::memcpy(o, src, total);
  } else if (stride == 0 && n >= kShortRow) {
    std::memcpy(o, src, es);
    repeat_head(o, es, total);
  } else {
    gather_row(o, src, stride, es, n);
  }
}

// Element-wise over a loop whose inner axis is strided (a view, permuted named
// dims), or short (rows under kShortRow elements), or any loop of a copy: the
// rows of the axis next to the innermost kTileRows at a time, each `chunk`
// elements at a time, so that a transposed operand's cache lines (read down
// the rows) serve every row of the tile before they leave the cache (Node,
// [1024,1024] float32: 32 x 256 tiles 1.45-1.56x add(a, b), 16 x 64 1.96x). Operand k < n
// (elements of es bytes at in[k]) is read in place where its inner stride is
// 1 (or 0 with `zero`: the callback repeats it), else its tile is first
// gathered into a buffer (gather_tile); then row(ctx, src, out, c) for each row
// of the tile, `out` the result's row at that chunk (elements of os bytes).
// Short rows go whole, a buffer's worth of them (every operand gathered into
// rows one after another unless it is so already) to one call: a [N, 3] + [3]
// is N / 2730 calls, not N. Any order of cells: element-wise only.
constexpr i64 kTileRows = 32;
using TileRow = void (*)(const void* ctx, const char* const* src, char* out, size_t c);
[[gnu::noinline]] void run_tiles(const LoopPlan& L, size_t n, const char* const* in, size_t es, char* out, size_t os,
                                 TileRow row, const void* ctx, bool zero = false) {
  const int m = L.rank;
  const i64 len = L.shape[m - 1];
  const i64 rows = m == 1 ? 1 : L.shape[m - 2];
  i64 count = 1;
  for (int d = 0; d < m - 2; ++d) count *= L.shape[d];
  const bool pack = packs(L);  // whole rows, a tile of them one call
  bool gathers = pack;         // rows read in place go whole
  for (size_t k = 0; k < n; ++k) {
    const i64 s = L.strides[k][static_cast<size_t>(m - 1)];
    gathers |= s != 1 && !(zero && s == 0);
  }
  const i64 chunk = gathers ? static_cast<i64>(kTile / kTileRows / es) : len;
  const i64 tile = pack ? static_cast<i64>(kTile / es) / len : kTileRows;  // short rows: as many as fill a buffer
  alignas(16) char buf[2][kTile];
  const char* had[2] = {nullptr, nullptr};  // what buf[k] holds: a tile (rr, c) of this row repeated
  i64 had_rc[2] = {0, 0};
  for (i64 b = 0; b < count; ++b) {
    i64 base[2] = {0, 0};
    i64 q = b;
    for (int d = m - 3; d >= 0; --d) {  // the outer axes' index tuple of block b
      const i64 x = q % L.shape[d];
      q /= L.shape[d];
      for (size_t k = 0; k < n; ++k) base[k] += x * L.strides[k][static_cast<size_t>(d)];
    }
    for (i64 r0 = 0; r0 < rows; r0 += tile) {
      const i64 rr = rows - r0 < tile ? rows - r0 : tile;
      for (i64 i = 0; i < len; i += chunk) {
        const i64 c = len - i < chunk ? len - i : chunk;
        const char* src[2];
        i64 step[2];
        for (size_t k = 0; k < n; ++k) {
          const i64 s = L.strides[k][static_cast<size_t>(m - 1)];
          step[k] = m == 1 ? 0 : L.strides[k][static_cast<size_t>(m - 2)];
          src[k] = in[k] + (base[k] + r0 * step[k] + i * s) * static_cast<i64>(es);
          if ((s != 1 && !(zero && s == 0 && !pack)) || (pack && step[k] != c)) {
            // A row repeated down the rows (step 0) gathers the same tile as last time: kept.
            const i64 rc = rr * static_cast<i64>(kTile) + c;
            if (step[k] != 0 || src[k] != had[k] || rc != had_rc[k]) gather_tile(buf[k], src[k], s, step[k], es, rr, c);
            had[k] = step[k] == 0 ? src[k] : nullptr;
            had_rc[k] = rc;
            src[k] = buf[k];
            step[k] = c;
          }
        }
        char* o = out + ((b * rows + r0) * len + i) * static_cast<i64>(os);
        if (pack) {  // every operand's rows one after another, like the result's
          row(ctx, src, o, static_cast<size_t>(rr * c));
          continue;
        }
        for (i64 r = 0; r < rr; ++r) {
          const char* at[2];
          for (size_t k = 0; k < n; ++k) at[k] = src[k] + r * step[k] * static_cast<i64>(es);
          row(ctx, at, o + r * len * static_cast<i64>(os), static_cast<size_t>(c));
        }
      }
    }
  }
}

bool runnable(const Plan& plan, size_t n_ops) {
  return plan.is_static && plan.ops.size() == n_ops && plan.loop.rank >= 1 && plan.loop.strides.size() == n_ops;
}

}  // namespace

// rr rows of a tile, c elements each (row r at src + r * step elements,
// elements `s` apart), gathered into dst one after another: a transposed
// 4-byte operand (step 1) four rows at a time (find_tile_gather32), one row
// repeated (step 0) once and then copied in doubling runs, the rest row by row.
void gather_tile(char* dst, const char* src, i64 s, i64 step, size_t es, i64 rr, i64 c) {
  const i64 row = c * static_cast<i64>(es);
  i64 r = 0;
  if (step == 0) {
    fill_row(dst, src, s, es, c);
    repeat_head(dst, static_cast<size_t>(row), static_cast<size_t>(rr * row));
    return;
  }
  const TileGather t = find_tile_gather32();
  if (t && es == 4 && step == 1 && s != 0) {
    r = rr & ~i64{3};
    t(dst, static_cast<ptrdiff_t>(c), src, static_cast<ptrdiff_t>(s), static_cast<ptrdiff_t>(r), static_cast<ptrdiff_t>(c));
  }
  for (; r < rr; ++r) fill_row(dst + r * row, src + r * step * static_cast<i64>(es), s, es, c);
}

Status run_binary(const Plan& plan, DType dt, Op op, const void* a, const void* b, void* out) {
  if (!runnable(plan, 2)) return Status::InvalidShape;
  if (!op_defined(dt, op)) return Status::DtypeMismatch;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const i64 n = L.shape[L.rank - 1];
  const size_t es = dtype_size(dt);
  const size_t os = op_yields_bool(op) ? 1 : es;
  const auto* pa = static_cast<const char*>(a);
  const auto* pb = static_cast<const char*>(b);
  auto* po = static_cast<char*>(out);
  const LoopPlan::Inner inner = L.inner;
  // One 1-d kernel serves every row: the form the merged loop's inner axis has.
  const Form form = inner == LoopPlan::SecondScalar ? Form::vs : inner == LoopPlan::FirstScalar ? Form::sv : Form::vv;
  const BinaryKernel k = find_kernel(dt, op, form);
  if (!packs(L) && (inner == LoopPlan::Contiguous || inner == LoopPlan::SecondScalar || inner == LoopPlan::FirstScalar)) {
    walk_rows<2>(L, [&](const i64* off, i64 r) {
      k(pa + off[0] * static_cast<i64>(es), pb + off[1] * static_cast<i64>(es), po + r * n * static_cast<i64>(os),
        static_cast<size_t>(n));
    });
    return Status::Ok;
  }
  // Short rows, a strided inner axis, or both operands one element along it
  // (a scalar and a scalar): tiles (run_tiles), then the vector kernel on
  // whole rows (every operand gathered or read as rows of elements).
  const char* in[2] = {pa, pb};
  const BinaryKernel kv = find_kernel(dt, op, Form::vv);
  run_tiles(L, 2, in, es, po, os, [](const void* c, const char* const* x, char* o, size_t m) {
    (*static_cast<const BinaryKernel*>(c))(x[0], x[1], o, m);
  }, &kv);
  return Status::Ok;
}

Status run_map(const Plan& plan, size_t es, size_t os, UnaryKernel fn, const void* in, void* out) {
  if (!runnable(plan, 1) || fn == nullptr) return Status::InvalidShape;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const i64 n = L.shape[L.rank - 1];
  const i64 s = L.strides[0][static_cast<size_t>(L.rank - 1)];
  const auto* pi = static_cast<const char*>(in);
  auto* po = static_cast<char*>(out);
  if (L.rank == 1 && s == 1) {  // the common case: one contiguous row
    fn(pi, po, static_cast<size_t>(n));
    return Status::Ok;
  }
  // Rows (of a view) in tiles (run_tiles).
  run_tiles(L, 1, &pi, es, po, os, [](const void* c, const char* const* x, char* o, size_t m) {
    (*static_cast<const UnaryKernel*>(c))(x[0], o, m);
  }, &fn);
  return Status::Ok;
}

Status run_copy(const Plan& plan, size_t es, const void* in, void* out) {
  if (!runnable(plan, 1) || es == 0) return Status::InvalidShape;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const i64 s = L.strides[0][static_cast<size_t>(L.rank - 1)];
  const auto* pi = static_cast<const char*>(in);
  auto* po = static_cast<char*>(out);
  // Tiles (run_tiles), each row (or packed run of short rows) copied out; a
  // row of one element repeated (inner stride 0, not a short row) written
  // straight from that element.
  struct Row {
    size_t es;
    i64 s;
  };
  const Row w{es, s == 0 && !packs(L) ? 0 : 1};  // read in place by run_tiles (packed rows come gathered)
  run_tiles(L, 1, &pi, es, po, es, [](const void* p, const char* const* x, char* o, size_t m) {
    const Row* c = static_cast<const Row*>(p);
    fill_row(o, x[0], c->s, c->es, static_cast<i64>(m));
  }, &w, true);
  return Status::Ok;
}

// One element of a condition of dtype dt is true where != 0 (NaN true, -0 false).
bool truthy(DType dt, const void* e) {
  const auto* p = static_cast<const char*>(e);
  switch (dt) {
    case DType::f32: { float v; std::memcpy(&v, p, 4); return v != 0; }
    case DType::f64: { double v; std::memcpy(&v, p, 8); return v != 0; }
    case DType::f16: { uint16_t v; std::memcpy(&v, p, 2); return (v & 0x7fffu) != 0; }  // -0 false, NaN true
    case DType::i8: case DType::u8: case DType::u8c: return *p != 0;
    case DType::i16: case DType::u16: { uint16_t v; std::memcpy(&v, p, 2); return v != 0; }
    case DType::i32: case DType::u32: { uint32_t v; std::memcpy(&v, p, 4); return v != 0; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v != 0; }
  }
}

// Per row: the condition becomes a mask of bytes (a 1-byte condition already
// is one; others go through the not_equal kernel, in chunks that stay in L1),
// then the select kernel of the element width picks x or y.
//   cond [3,1] x [1,4] y [] -> loop [3,4]; per row cond is one element (a whole
//   row of x or of y is copied), x advances, y is one element.
Status run_where(const Plan& plan, DType cond_dt, size_t es, const void* cond, const void* x, const void* y, void* out) {
  if (!runnable(plan, 3)) return Status::InvalidShape;
  if (cond_dt >= DType::count || !find_select(es, SelectForm::vv)) return Status::DtypeMismatch;
  if (plan.out_size == 0) return Status::Ok;
  const LoopPlan& L = plan.loop;
  const size_t last = static_cast<size_t>(L.rank - 1);
  const i64 n = L.shape[last];
  const size_t cs = dtype_size(cond_dt);
  const i64 sc = L.strides[0][last], sx = L.strides[1][last], sy = L.strides[2][last];
  const bool unit = (sc == 0 || sc == 1) && (sx == 0 || sx == 1) && (sy == 0 || sy == 1);
  const SelectForm form = sx == 1 ? (sy == 1 ? SelectForm::vv : SelectForm::vs) : (sy == 1 ? SelectForm::sv : SelectForm::ss);
  const SelectKernel sel = find_select(es, form);
  const bool byte_cond = cs == 1;  // its own mask
  const BinaryKernel to_mask = find_kernel(cond_dt, Op::not_equal, Form::vs);
  const uint64_t zero = 0;
  const auto* pc = static_cast<const char*>(cond);
  const auto* px = static_cast<const char*>(x);
  const auto* py = static_cast<const char*>(y);
  auto* po = static_cast<char*>(out);
  constexpr i64 kChunk = 2048;
  uint8_t mask[kChunk];
  walk_rows<3>(L, [&](const i64* off, i64 r) {
    const char* rc = pc + off[0] * static_cast<i64>(cs);
    const char* rx = px + off[1] * static_cast<i64>(es);
    const char* ry = py + off[2] * static_cast<i64>(es);
    char* ro = po + r * n * static_cast<i64>(es);
    if (!unit) {  // not produced by the numpy rule; kept correct, not fast
      for (i64 i = 0; i < n; ++i) {
        const char* src = truthy(cond_dt, rc + i * sc * static_cast<i64>(cs)) ? rx + i * sx * static_cast<i64>(es)
                                                                              : ry + i * sy * static_cast<i64>(es);
        std::memcpy(ro + i * static_cast<i64>(es), src, es);
      }
      return;
    }
    if (sc == 0) {  // one condition for the whole row: copy a row of x or of y
      const bool t = truthy(cond_dt, rc);
      fill_row(ro, t ? rx : ry, t ? sx : sy, es, n);
      return;
    }
    for (i64 i = 0; i < n; i += kChunk) {
      const i64 c = n - i < kChunk ? n - i : kChunk;
      const uint8_t* m = reinterpret_cast<const uint8_t*>(rc + i);
      if (!byte_cond) {
        to_mask(rc + i * static_cast<i64>(cs), &zero, mask, static_cast<size_t>(c));
        m = mask;
      }
      sel(m, rx + i * sx * static_cast<i64>(es), ry + i * sy * static_cast<i64>(es), ro + i * static_cast<i64>(es),
          static_cast<size_t>(c));
    }
  });
  return Status::Ok;
}

Status run_binary_gather(const Plan& plan, const NamedPlan& named, DType dt, Op op, const void* a, const void* b,
                         const void* fill_a, const void* fill_b, void* out) {
  if (!plan.is_static || plan.ops.size() != 2 || named.axes.size() != static_cast<size_t>(plan.out.rank))
    return Status::InvalidShape;
  if (!op_defined(dt, op)) return Status::DtypeMismatch;
  const BinaryKernel k = find_kernel(dt, op, Form::vv);
  const int rank = plan.out.rank;
  const size_t es = dtype_size(dt);
  const size_t os = op_yields_bool(op) ? 1 : es;
  i64 own[2][kMaxRank];
  for (int s = 0; s < 2; ++s) {
    const Shape& sh = plan.ops[static_cast<size_t>(s)].shape;
    i64 acc = 1;
    for (int i = sh.rank - 1; i >= 0; --i) { own[s][i] = acc; acc *= sh.dims[i].lo; }
  }
  // Blocks of up to 256 elements of each side gathered (absent labels read
  // their fill), then one kernel call per block.
  constexpr i64 kBlock = 256;
  alignas(16) char ga[kBlock * 8], gb[kBlock * 8];
  i64 idx[kMaxRank] = {0};
  for (i64 e0 = 0; e0 < plan.out_size; e0 += kBlock) {
    const i64 c = plan.out_size - e0 < kBlock ? plan.out_size - e0 : kBlock;
    for (i64 j = 0; j < c; ++j) {
      for (int s = 0; s < 2; ++s) {
        i64 off = 0;
        bool absent = false;
        for (int a = 0; a < rank; ++a) {
          const NamedAxis& ax = named.axes[static_cast<size_t>(a)];
          const int sa = s == 0 ? ax.left_axis : ax.right_axis;
          if (sa < 0) continue;  // a missing dim: broadcast
          i64 i = idx[a];
          if (ax.labeled) {
            const auto& map = s == 0 ? ax.left_index : ax.right_index;
            i = map[static_cast<size_t>(idx[a])];
            if (i < 0) { absent = true; break; }
          }
          off += i * own[s][sa];
        }
        const void* base = s == 0 ? a : b;
        const void* src = absent ? (s == 0 ? fill_a : fill_b) : static_cast<const char*>(base) + off * static_cast<i64>(es);
        std::memcpy((s == 0 ? ga : gb) + j * static_cast<i64>(es), src, es);
      }
      for (int a = rank - 1; a >= 0; --a) {
        if (++idx[a] < plan.out.dims[a].lo) break;
        idx[a] = 0;
      }
    }
    k(ga, gb, static_cast<char*>(out) + e0 * static_cast<i64>(os), static_cast<size_t>(c));
  }
  return Status::Ok;
}

}  // namespace tc
