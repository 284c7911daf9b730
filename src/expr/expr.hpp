// Compiling a parsed expression against its operands: types, the broadcast
// plan of the whole tree, and the loop every run walks.
//
//   (x - m) / s   x [8,64,56,56]  m, s [1,64,1,1]     (the numpy rule)
//   1. types: every op's operands share a dtype (numbers adopt it), as the ops
//      themselves require; constants fold.
//   2. shapes: the rule planned at each op node, bottom-up (for numpy this is the
//      n-ary result; for pdpd and named operands, exactly what op by op gives);
//      then each load's axes composed down to the root: its strides there.
//   3. slots: loads of the same input with the same strides share one; the loop
//      over the root shape merged for all of them: [512, 3136] with
//      x [3136, 1], m [1, 0], s [1, 0] -> rows of 3136, m and s splat per row.
//   4. a reduction around the whole expression runs chunk by chunk: the root's
//      leading kept axes index the chunks; each chunk is evaluated into a
//      scratch block and reduced into its place in the result, so
//      sum(x * w, ['in']) never holds the [batch, in, out] product.
#pragma once

#include <cstdint>
#include "core/pod_vector.hpp"

#include "core/named_plan.hpp"
#include "core/plan.hpp"
#include "kernels/reduce.hpp"
#include "parse.hpp"
#include "program.hpp"

namespace tc::expr {

struct Input {
  enum Kind : int { tensor = 0, number = 1, bigint = 2 };
  Kind kind = tensor;
  DType dtype = DType::count;  // tensor
  double value = 0;            // number; bigint: Number() of it (for dtypes other than the 64-bit ones)
  std::int64_t bits = 0;       // bigint: the BigInt modulo 2^64 (for bigint64 / biguint64)
  Shape shape;                 // tensor, positional rules
  NamedShape named;            // tensor, the named rule (labels point into the caller's store)
  bool strided = false;        // tensor: read with `strides` (a view), not row-major
  i64 strides[kMaxRank];       // per axis of its own shape, in elements (any integer)
};

enum class Fail : int {
  ok,
  mismatch,       // an op's operands have two dtypes (a, b)
  domain,         // the op does not take dtype a (bitwise on floats, sqrt on integers)
  no_tensor,      // the expression reads no tensor: nothing gives it a dtype and a shape
  not_integer,    // a number that must become a bigint element is not an integer
  bad_dtype,      // cast's dtype string names no dtype
  broadcast,      // the rule refused the shapes at this node (err, shapes[])
  gather,         // named operands whose labels would be re-indexed (intersection/union)
  bad_axis,       // a reduction axis out of range or repeated (err)
  unknown_dim,    // a reduction dim name the result does not have
  out_dtype,      // a resident out of dtype a for a result of dtype b
};

struct Failure {
  Fail code = Fail::ok;
  int pos = 0, len = 0;  // the node's span in the text
  DType a = DType::count, b = DType::count;
  Error err;
  int n_shapes = 0;      // broadcast: the node's operand shapes (positional) ...
  Shape shapes[3];
  bool named = false;    // ... and, named, each one's dim names (ids), shapes[k].rank of them
  i64 names[3][kMaxRank] = {};
  int entry = -1;        // bad_axis / unknown_dim: which entry of the axis list
};

// A merged loop over slots (slot 0 = the output / chunk buffer, 1 + k = slot k).
struct Loop {
  int rank = 0;
  i64 shape[kMaxRank];
  PodVector<i64> strides;  // [slot * rank + axis], elements
  i64 size() const {
    i64 n = 1;
    for (int i = 0; i < rank; ++i) n *= shape[i];
    return n;
  }
  i64 stride(int slot, int axis) const { return strides[static_cast<size_t>(slot * rank + axis)]; }
};

// A sum of a product of two operands that runs as a contraction kernel
// (kernels/gemm.hpp): the reduced axes stand together and each operand reads
// them as one progression; N, the trailing kept axes, is read by B only; the
// other kept axes (M, outer first) by either. The order of k is the one the
// op-by-op sum runs: row where the reduced axes are the root's last, else col.
struct Contraction {
  bool on = false;
  bool row_order = false;
  int a_slot = -1, b_slot = -1;  // slots (Instr::a of the loads)
  i64 M = 1, K = 0, N = 1;
  i64 a_k = 0, b_k = 0, b_n = 0;  // element strides
  i64 part = 0;                   // float16: k's parts (GemmProblem::part)
  int m_rank = 0;                 // M's axes, outer first: extents and A's and B's strides
  i64 m_dims[kMaxRank], m_a[kMaxRank], m_b[kMaxRank];  // the first m_rank
};

// A float32 sum of a three-factor product, (P * Q) * R, over the root's
// trailing axes, run by the product-row kernel (kernels/reduce.hpp
// ProductRow): each chunk is one result, computed from the factors as they
// are, with the bits of the stored chunk's sum. The chunk reads as `runs` runs
// of n elements (n % 16 == 0): P one value a run, Q and R contiguous along it
// (x {b, i} * w {i, j} * y {b, j} over i, j).
struct ProductRows {
  bool on = false;
  int slot[3] = {-1, -1, -1};  // P, Q, R
  i64 n = 0, runs = 1;
  i64 run_st[3] = {};  // per factor: elements from one run to the next
};

struct Compiled {
  Program prog;                  // loads read slots (Instr::a = slot)
  PodVector<int> slot_input;   // per slot: the input it reads
  PodVector<DType> slot_dtype;
  Shape root;                    // the element-wise result's shape
  PodVector<i64> root_names;   // named: per root axis its name id ...
  PodVector<i64> root_label_count;  // ... 1 + how many labels it has (0: unlabeled; 1: labeled, none) ...
  PodVector<i64> root_labels;       // ... and those labels, axis after axis
  bool named = false;
  // Per slot, per root axis: element strides (0 = broadcast).
  PodVector<i64> slot_strides;  // [slot * root.rank + axis]
  PodVector<int> slot_src;      // [slot * root.rank + axis]: the input's axis there, -1: none (explain)
  // The reduction, if one wraps the expression.
  bool reduce = false;
  ReduceOp rop = ReduceOp::sum;
  std::uint64_t mask = 0;
  DType acc = DType::count;      // the result's dtype when reducing
  int prefix = 0;                // root axes [0, prefix) index the chunks
  // A chunk takes `group` indices of axis prefix - 1 (1: one, and the chunk
  // is root dims [prefix, rank)); the last chunk of each run of them takes
  // what is left (root dim mod group; 0: none left, every chunk is whole).
  i64 group = 1;
  int first() const { return prefix - (group > 1); }  // the chunk's first root axis
  i64 chunks = 1;
  Shape chunk;                   // root dims [first, rank), `group` for axis first = prefix - 1 where group > 1
  Shape out;                     // the call's result shape (keepdims applied)
  DType out_dtype = DType::count;
  i64 out_size = 0;
  i64 chunk_out = 0;             // result elements per chunk (a whole one)
  Loop loop;                     // the walk of one run (or of one chunk)
  // Per slot: strides on the chunk axes [0, prefix) (elements; axis prefix - 1's
  // times `group`), to offset each chunk.
  PodVector<i64> chunk_strides;
  int module = -1;               // the generated module's id, -1: the interpreter
  Contraction gemm;              // on: run() calls the contraction kernel
  ProductRows rows;              // on: run() calls the product-row kernel
};

struct Request {
  Rule rule = Rule::numpy;
  i64 axis = -1;
  Shaping shaping = Shaping::Exact;
  const Input* inputs = nullptr;
  int n_inputs = 0;
  bool keepdims = false;
  // Reduction axes as the caller resolved them: numbers as given, dim names as
  // their ids (entry_is_name[i]); count -1 = every axis.
  const i64* axes = nullptr;
  const bool* axis_is_name = nullptr;
  int n_axes = -1;
};

// Compile `p` (parsed from `text`) for `req`. Ok, or a failure naming the node.
Status compile(const Parsed& p, const char16_t* text, const Request& req, Compiled& out, Failure& fail);

// Run a compiled expression with the interpreter (or, for a generated module,
// with `gen`, called per chunk with the descriptor). `ptrs[k]` is input k's data.
// `words`: the descriptor's length (it is the same for every run of `c`).
using GenRun = void (*)(int module, const std::int32_t* desc, int words);
Status run(const Compiled& c, const void* const* ptrs, void* out, GenRun gen);

// The interpreter on one loop: slot 0 is written, slots 1.. read at `base`.
void interpret(const Program& prog, const PodVector<DType>& slot_dtype, const Loop& loop, void* const* base);

// Fill the descriptor wasmgen.hpp documents for `loop` and slot pointers.
void write_descriptor(const Loop& loop, const PodVector<DType>& slot_dtype, DType out_dtype, void* const* base,
                      PodVector<std::int32_t>& desc);

}  // namespace tc::expr
