// Running a compiled expression: the block interpreter over the library's own
// 1-d kernels (so every result is, bit for bit, what the op-by-op calls give),
// the chunked reduction around it, and the descriptor a generated module reads.
//
// The interpreter walks the loop's rows; each row in blocks of B elements; each
// block instruction by instruction, every register one block long (or one
// element: a splat input, a constant, or a result of those). A contiguous input
// is read where it lies (no copy); the last instruction writes the output.
#include <cstdlib>
#include <cstring>

#include "expr.hpp"
#include "kernels/driver.hpp"
#include "kernels/gemm.hpp"
#include "kernels/reduce.hpp"

namespace tc::expr {

void constant_bytes(const Instr& in, void* dst);

namespace {

struct Reg {
  const unsigned char* p = nullptr;
  bool scalar = false;
};

// Reused between runs (a compiled expression in a loop allocates nothing
// here); one object rather than a static per function and array.
struct Scratch {
  PodVector<unsigned char> block, consts;  // interpret(): register blocks, constants
  PodVector<Reg> reg;
  PodVector<i64> off, idx;                 // interpret(): the row odometer
  PodVector<void*> base;                   // run(): slot pointers
  PodVector<i64> chunk_idx, chunk_off;     // run(): the chunk odometer
  PodVector<std::int32_t> desc;            // run(): a generated module's descriptor
};
Scratch g_scratch;

}  // namespace

void eval_scalar(const Instr& in, const void* a, const void* b, const void* c, void* out) {
  switch (in.code) {
    case Code::binary: find_kernel(in.dtype, static_cast<Op>(in.op), Form::vv)(a, b, out, 1); return;
    case Code::unary: find_unary(in.dtype, static_cast<UnaryOp>(in.op))(a, out, 1); return;
    case Code::cast: find_cast(in.dtype, in.out)(a, out, 1); return;
    case Code::select: std::memcpy(out, truthy(in.cond, a) ? b : c, dtype_size(in.out)); return;
    default: return;
  }
}

void interpret(const Program& prog, const PodVector<DType>& slot_dtype, const Loop& L, void* const* base) {
  const i64 total = L.size();
  if (total == 0 || prog.code.empty()) return;
  const int m = L.rank;
  const i64 n = L.shape[m - 1];
  const size_t NI = prog.code.size();
  i64 B = 2048;
  while (B > 64 && static_cast<size_t>(B) * 8 * NI > 256 * 1024) B /= 2;
  if (B > n) B = n;
  const size_t stride_bytes = (static_cast<size_t>(B) * 8 + 15) & ~size_t{15};
  PodVector<unsigned char>& scratch = g_scratch.block;
  PodVector<unsigned char>& consts = g_scratch.consts;
  PodVector<Reg>& reg = g_scratch.reg;
  PodVector<i64>& off = g_scratch.off;
  PodVector<i64>& idx = g_scratch.idx;
  scratch.resize(NI * stride_bytes + static_cast<size_t>(B) + 16);
  unsigned char* mask = scratch.data() + NI * stride_bytes;
  reg.assign(NI, Reg{});
  consts.assign(NI * 8, 0);
  for (size_t i = 0; i < NI; ++i)
    if (prog.code[i].code == Code::constant) constant_bytes(prog.code[i], consts.data() + i * 8);
  const DType out_dt = prog.result();
  const size_t os = dtype_size(out_dt);
  const int S = 1 + prog.inputs;
  off.assign(static_cast<size_t>(S), 0);
  idx.assign(static_cast<size_t>(m), 0);
  const i64 rows = total / n;
  static const std::uint64_t zero = 0;
  for (i64 row = 0; row < rows; ++row) {
    for (i64 j0 = 0; j0 < n; j0 += B) {
      const i64 len = n - j0 < B ? n - j0 : B;
      unsigned char* outp = static_cast<unsigned char*>(base[0]) + (off[0] + j0) * static_cast<i64>(os);
      bool wrote = false;
      for (size_t i = 0; i < NI; ++i) {
        const Instr& in = prog.code[i];
        unsigned char* own = scratch.data() + i * stride_bytes;
        const bool last = i + 1 == NI;
        Reg& r = reg[i];
        switch (in.code) {
          case Code::load: {
            const int k = in.a;
            const size_t es = dtype_size(slot_dtype[static_cast<size_t>(k)]);
            const i64 s = L.stride(k + 1, m - 1);
            const auto* src = static_cast<const unsigned char*>(base[k + 1]) + (off[static_cast<size_t>(k + 1)] + j0 * s) * static_cast<i64>(es);
            if (s == 1) {
              r = {src, false};
            } else if (s == 0) {
              r = {src, true};
            } else {
              for (i64 e = 0; e < len; ++e) std::memcpy(own + e * static_cast<i64>(es), src + e * s * static_cast<i64>(es), es);
              r = {own, false};
            }
            break;
          }
          case Code::constant: r = {consts.data() + i * 8, true}; break;
          case Code::binary: {
            const Reg a = reg[static_cast<size_t>(in.a)], b = reg[static_cast<size_t>(in.b)];
            const Op op = static_cast<Op>(in.op);
            if (a.scalar && b.scalar) {
              find_kernel(in.dtype, op, Form::vv)(a.p, b.p, own, 1);
              r = {own, true};
              break;
            }
            unsigned char* dst = last ? outp : own;
            const Form f = a.scalar ? Form::sv : b.scalar ? Form::vs : Form::vv;
            find_kernel(in.dtype, op, f)(a.p, b.p, dst, static_cast<size_t>(len));
            r = {dst, false};
            wrote = last;
            break;
          }
          case Code::unary: case Code::cast: {
            const Reg a = reg[static_cast<size_t>(in.a)];
            const UnaryKernel k = in.code == Code::unary ? find_unary(in.dtype, static_cast<UnaryOp>(in.op)) : find_cast(in.dtype, in.out);
            unsigned char* dst = last && !a.scalar ? outp : own;
            k(a.p, dst, a.scalar ? 1 : static_cast<size_t>(len));
            r = {dst, a.scalar};
            wrote = last && !a.scalar;
            break;
          }
          case Code::select: {
            const Reg c = reg[static_cast<size_t>(in.a)], x = reg[static_cast<size_t>(in.b)], y = reg[static_cast<size_t>(in.c)];
            if (c.scalar) {
              r = truthy(in.cond, c.p) ? x : y;
              break;
            }
            const unsigned char* mk = c.p;
            if (dtype_size(in.cond) != 1) {
              find_kernel(in.cond, Op::not_equal, Form::vs)(c.p, &zero, mask, static_cast<size_t>(len));
              mk = mask;
            }
            const SelectForm f = x.scalar ? (y.scalar ? SelectForm::ss : SelectForm::sv) : (y.scalar ? SelectForm::vs : SelectForm::vv);
            unsigned char* dst = last ? outp : own;
            find_select(dtype_size(in.out), f)(mk, x.p, y.p, dst, static_cast<size_t>(len));
            r = {dst, false};
            wrote = last;
            break;
          }
        }
      }
      if (!wrote) {  // the result is an input, a constant or a splat: copied or repeated
        const Reg& r = reg[NI - 1];
        if (r.scalar) {
          for (i64 e = 0; e < len; ++e) std::memcpy(outp + e * static_cast<i64>(os), r.p, os);
        } else if (r.p != outp) {
          std::memmove(outp, r.p, static_cast<size_t>(len) * os);
        }
      }
    }
    // The odometer over the outer axes.
    for (int d = m - 2; d >= 0; --d) {
      for (int k = 0; k < S; ++k) off[static_cast<size_t>(k)] += L.stride(k, d);
      if (++idx[static_cast<size_t>(d)] < L.shape[d]) break;
      for (int k = 0; k < S; ++k) off[static_cast<size_t>(k)] -= L.stride(k, d) * L.shape[d];
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

// Not inlined: a run and a tiled run write it (one copy of the code).
__attribute__((noinline)) void write_descriptor(const Loop& L, const PodVector<DType>& slot_dtype, DType out_dtype, void* const* base,
                                                 PodVector<std::int32_t>& desc) {
  const int m = L.rank;
  const int R = m - 1;
  const int S = 1 + static_cast<int>(slot_dtype.size());
  desc.assign(static_cast<size_t>(3 + R + S * (2 + R) + R), 0);
  i64 rows = 1;
  for (int j = 0; j < R; ++j) rows *= L.shape[R - 1 - j];
  desc[0] = R;
  desc[1] = static_cast<std::int32_t>(L.shape[m - 1]);
  desc[2] = static_cast<std::int32_t>(rows);
  for (int j = 0; j < R; ++j) desc[static_cast<size_t>(3 + j)] = static_cast<std::int32_t>(L.shape[R - 1 - j]);
  size_t p = static_cast<size_t>(3 + R);
  for (int s = 0; s < S; ++s) {
    const i64 es = static_cast<i64>(dtype_size(s == 0 ? out_dtype : slot_dtype[static_cast<size_t>(s - 1)]));
    desc[p++] = static_cast<std::int32_t>(reinterpret_cast<std::uintptr_t>(base[s]));
    desc[p++] = static_cast<std::int32_t>(L.stride(s, m - 1) * es);
    for (int j = 0; j < R; ++j) desc[p++] = static_cast<std::int32_t>(L.stride(s, R - 1 - j) * es);
  }
}

namespace {

constexpr i64 kTileRows = 16, kTileCols = 64;

// Whether a run reads some input down its rows (a transposed view: each
// element of the inner axis a new cache line, the next axis near), so that it
// goes tile by tile (run_tiles) rather than row by row.
bool tiled(const Compiled& c, DType res) {
  const Loop& L = c.loop;
  const int m = L.rank;
  if (m < 2 || L.size() < 4 * kTileRows * kTileCols || L.stride(0, m - 1) != 1) return false;
  (void)res;
  for (int k = 0; k < c.prog.inputs; ++k) {
    const i64 es = static_cast<i64>(dtype_size(c.slot_dtype[static_cast<size_t>(k)]));
    const i64 inner = L.stride(k + 1, m - 1), next = L.stride(k + 1, m - 2);
    if ((inner < 0 ? -inner : inner) * es >= 64 && (next < 0 ? -next : next) * es < 64) return true;
  }
  return false;
}

// The generated module over tiles of kTileRows rows (the axis next to the
// innermost) by kTileCols elements: one call per tile, its descriptor the
// loop's with those two extents and each slot's base moved to the tile.
void run_tiles(const Compiled& c, DType res, PodVector<void*>& base, PodVector<std::int32_t>& desc, GenRun gen) {
  Loop T = c.loop;
  const int m = T.rank;
  const i64 rows = c.loop.shape[m - 2], n = c.loop.shape[m - 1];
  const int S = 1 + c.prog.inputs;
  PodVector<void*> at(static_cast<size_t>(S), nullptr);
  for (i64 r0 = 0; r0 < rows; r0 += kTileRows) {
    T.shape[m - 2] = rows - r0 < kTileRows ? rows - r0 : kTileRows;
    for (i64 i = 0; i < n; i += kTileCols) {
      T.shape[m - 1] = n - i < kTileCols ? n - i : kTileCols;
      for (int s = 0; s < S; ++s) {
        const i64 es = static_cast<i64>(dtype_size(s == 0 ? res : c.slot_dtype[static_cast<size_t>(s - 1)]));
        at[static_cast<size_t>(s)] = static_cast<unsigned char*>(base[static_cast<size_t>(s)]) +
                                     (r0 * c.loop.stride(s, m - 2) + i * c.loop.stride(s, m - 1)) * es;
      }
      write_descriptor(T, c.slot_dtype, res, at.data(), desc);
      gen(c.module, desc.data(), static_cast<int>(desc.size()));
    }
  }
}

}  // namespace

// sum(a * b) through the contraction kernel: A's and B's offsets per output row
// (M's axes, row-major), then one call. False: no kernel in this build, or no
// memory for its packed block or the offsets (run() then runs the chunks).
bool run_contraction(const Compiled& c, const void* const* ptrs, void* out) {
  const Contraction& g = c.gemm;
  const GemmFn k = find_gemm(c.out_dtype);
  if (!k) return false;
  if (g.M > i64{0x7fffffff} / 16) return false;  // the offsets would pass the address space (wasm32)
  auto* offs = static_cast<i64*>(std::malloc(static_cast<size_t>(g.M) * 2 * sizeof(i64)));
  if (!offs) return false;
  i64 idx[kMaxRank] = {};
  i64 oa = 0, ob = 0;
  for (i64 m = 0; m < g.M; ++m) {
    offs[m] = oa;
    offs[g.M + m] = ob;
    for (int d = g.m_rank - 1; d >= 0; --d) {
      oa += g.m_a[d];
      ob += g.m_b[d];
      if (++idx[d] < g.m_dims[d]) break;
      oa -= g.m_a[d] * g.m_dims[d];
      ob -= g.m_b[d] * g.m_dims[d];
      idx[d] = 0;
    }
  }
  GemmProblem p;
  p.row_order = g.row_order;
  p.M = g.M;
  p.K = g.K;
  p.N = g.N;
  p.a = ptrs[c.slot_input[static_cast<size_t>(g.a_slot)]];
  p.b = ptrs[c.slot_input[static_cast<size_t>(g.b_slot)]];
  p.a_off = offs;
  p.b_off = offs + g.M;
  p.a_k = g.a_k;
  p.b_k = g.b_k;
  p.b_n = g.b_n;
  p.part = g.part;
  p.out = out;
  const bool ok = k(p);
  std::free(offs);
  return ok;
}

Status run(const Compiled& c, const void* const* ptrs, void* out, GenRun gen) {
  if (c.gemm.on && run_contraction(c, ptrs, out)) return Status::Ok;
  const int S = 1 + c.prog.inputs;
  PodVector<void*>& base = g_scratch.base;
  PodVector<i64>& idx = g_scratch.chunk_idx;
  PodVector<i64>& off = g_scratch.chunk_off;
  PodVector<std::int32_t>& desc = g_scratch.desc;
  base.assign(static_cast<size_t>(S), nullptr);
  const DType res = c.prog.result();
  const size_t es = dtype_size(res);
  const i64 chunk_elems = shape_size(c.chunk);
  // Axis prefix - 1 in runs of `group` indices: the last chunk of each run
  // takes what is left (r of them), with its own loop and shape.
  const int first = c.first();
  const i64 nb = c.group > 1 ? (c.root.dims[first].lo + c.group - 1) / c.group : 0;
  const i64 r = c.group > 1 ? c.root.dims[first].lo - (nb - 1) * c.group : 0;
  Loop tail_loop;
  Shape tail_chunk = c.chunk;
  if (r != 0 && r != c.group) {
    tail_loop = c.loop;
    tail_loop.shape[0] = c.loop.shape[0] / c.group * r;  // axis first is in the loop's outermost group
    tail_chunk.dims[0] = Dim::fixed(r);
  }
  i64 at_out = 0;  // the chunk's first result element
  unsigned char* temp = nullptr;
  // A product row's chunk is one result, from the factors as they are (expr.hpp ProductRows).
  const ProductRowKernel rows = c.rows.on ? find_product_row(c.out_dtype) : nullptr;
  ProductRow row;
  row.n = c.rows.n;
  row.runs = c.rows.runs;
  for (int f = 0; f < 3; ++f) row.step[f] = c.rows.run_st[f];
  // A reduction of one operand as it is (a bare load: a program's max(x, [-1],
  // true), sum(e, [-1], true)): run_reduce reads its chunks in place, with no
  // copy first; a view through its own strides, in the order the op reduces
  // it in (float16 reduces a contiguous copy, as the op's does).
  const bool one = c.reduce && !rows && c.prog.code.size() == 1 && c.prog.inputs == 1;
  const bool same = one && std::memcmp(c.loop.strides.data(), c.loop.strides.data() + c.loop.rank, c.loop.rank * sizeof(i64)) == 0;
  const bool bare = one && (same || res != DType::f16);
  if (c.reduce && !rows && !bare) {
    if (!(static_cast<double>(chunk_elems) * static_cast<double>(es) <= kMaxBytes)) return Status::TooLarge;
    temp = static_cast<unsigned char*>(std::malloc(static_cast<size_t>(chunk_elems) * es + 16));
    if (!temp) return Status::TooLarge;
  }
  const size_t acc_size = c.reduce ? dtype_size(c.acc) : es;
  idx.assign(static_cast<size_t>(c.prefix > 0 ? c.prefix : 1), 0);
  off.assign(static_cast<size_t>(S), 0);
  Status st = Status::Ok;
  const bool empty_loop = c.loop.size() == 0;
  // min/max of no elements has no value, even where no chunk runs (a kept axis of size 0):
  // the op-by-op reduction refuses it too (reduce_driver.cpp), as NumPy does.
  if (c.reduce && c.chunks == 0 && (c.rop == ReduceOp::min || c.rop == ReduceOp::max)) {
    for (int a = 0; a < c.root.rank; ++a)
      if ((c.mask >> a & 1u) && c.root.dims[a].lo == 0) return Status::InvalidAxis;
  }
  for (i64 ch = 0; ch < c.chunks; ++ch) {
    const bool tail = r != 0 && r != c.group && idx[static_cast<size_t>(c.prefix - 1)] == nb - 1;
    const Loop& L = tail ? tail_loop : c.loop;
    base[0] = c.reduce ? static_cast<void*>(temp) : out;
    for (int k = 0; k < c.prog.inputs; ++k) {
      const int in = c.slot_input[static_cast<size_t>(k)];
      const size_t ks = dtype_size(c.slot_dtype[static_cast<size_t>(k)]);
      base[static_cast<size_t>(k + 1)] = static_cast<unsigned char*>(const_cast<void*>(ptrs[in])) + off[static_cast<size_t>(k + 1)] * static_cast<i64>(ks);
    }
    if (rows) {
      for (int f = 0; f < 3; ++f) row.f[f] = static_cast<const float*>(base[static_cast<size_t>(c.rows.slot[f] + 1)]);
      static_cast<float*>(out)[ch] = rows(row) + 0.0f;  // a sum of -0 terms is +0, as run_reduce's
    } else if (!empty_loop && !bare) {
      if (c.module >= 0 && gen && !c.reduce && tiled(c, res)) {
        run_tiles(c, res, base, desc, gen);
      } else if (c.module >= 0 && gen) {
        write_descriptor(L, c.slot_dtype, res, base.data(), desc);
        gen(c.module, desc.data(), static_cast<int>(desc.size()));
      } else {
        interpret(c.prog, c.slot_dtype, L, base.data());
      }
    }
    if (c.reduce && !rows) {
      Error err;
      st = run_reduce(tail ? tail_chunk : c.chunk, c.mask >> first, c.rop, res, c.acc, bare ? base[1] : temp,
                      static_cast<unsigned char*>(out) + at_out * static_cast<i64>(acc_size), &err,
                      bare && !same ? &c.slot_strides[static_cast<size_t>(first)] : nullptr);
      if (st != Status::Ok) break;
      at_out += tail ? c.chunk_out / c.group * r : c.chunk_out;
    }
    for (int d = c.prefix - 1; d >= 0; --d) {
      const i64 n = d == first && c.group > 1 ? nb : c.root.dims[d].lo;
      for (int k = 0; k < S; ++k) off[static_cast<size_t>(k)] += c.chunk_strides[static_cast<size_t>(k * c.prefix + d)];
      if (++idx[static_cast<size_t>(d)] < n) break;
      for (int k = 0; k < S; ++k) off[static_cast<size_t>(k)] -= c.chunk_strides[static_cast<size_t>(k * c.prefix + d)] * n;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  std::free(temp);
  return st;
}

}  // namespace tc::expr
