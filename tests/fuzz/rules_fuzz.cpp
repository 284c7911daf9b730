// libFuzzer harness for the rule engine: bytes -> shapes, axes, mappings and
// named shapes -> every rule function, then invariants on what came back.
// Built by CMake with TC_FUZZ=ON (clang only), under ASan + UBSan:
//
//   cmake --preset fuzz && cmake --build --preset fuzz
//   build/fuzz/rules_fuzz build/fuzz/corpus -max_total_time=60
//
// Besides "no crash, no UB, no leak", every call must return a status in
// range, report that status in its Error, and, when it succeeds, give a plan
// whose output has rank <= 32 and valid dims, that agrees with the rule (for
// static inputs: numpy dims are the one non-1 value or 1, pdpd gives A, explicit
// gives the target, ...), and whose strides and merged loop are consistent.
// A refusal records every clashing axis in err.clash_axes and marks exactly
// those axes Clash in its plan. Each call is also repeated on a Plan dirty from
// another call: the answer (status, error fields, output) must not depend on
// what a reused Plan held before (the wasm ABI reuses one).
//
// Input format (tests/fuzz/make_seeds.mjs writes seeds in it; a short input
// reads as zeros):
//   u8 rule       % 8: 0 numpy (n-ary), 1 none, 2 pdpd, 3 to_numpy,
//                      4 to_explicit, 5 to_bidirectional, 6 to_pdpd, 7 named
//   u8 flags      bit 0: shape_only
//   numpy:        u8 n (% 12), then n shapes
//   1-6:          shape A (input), shape B (target); pdpd/to_pdpd: axis;
//                 to_explicit: mapping
//   named:        u8 shaping (% 3), named shape L, named shape R
//   shape:        u8 r: 0xff unknown rank; 0xfe rank -2 (invalid);
//                 0xf0..0xfd rank 33..46 (invalid, no dims follow); else
//                 rank r % 33, then that many dims
//   dim:          u8 t: < 0xc0 static {1,0,2,3,1,4,5,1}[t % 8];
//                 0xc0..0xdf raw i64 (next 8 bytes, little-endian);
//                 0xe0..0xe7 keep (-1); 0xe8..0xef "?";
//                 0xf0..0xf7 interval u8 lo, u8 hi (hi 0xff: unbounded);
//                 0xf8..0xff raw Dim: i64 lo, i64 hi
//   axis:         u8 a: 0x80 raw i64; else (int8_t)a
//   mapping:      u8 len: 0xff unknown mapping; else len % 36, then entries
//                 as axes
//   named shape:  u8 r: 0xf0.. rank 33+ (invalid); else r % 12; per dim:
//                 u8 name (% 10), u8 size (0xff: raw i64; else % 6),
//                 u8 labeled (odd: labels follow when size <= 16, one u8 each, % 8)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/plan.hpp"
#include "core/shape.hpp"
#include "rules/rules.hpp"

using namespace tc;

namespace {

struct Bytes {
  const uint8_t* p;
  const uint8_t* end;
  uint8_t u8() { return p < end ? *p++ : 0; }
  i64 i64_() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(u8()) << (8 * i);
    i64 r;
    std::memcpy(&r, &v, sizeof r);
    return r;
  }
};

[[noreturn]] void violated(const char* what, int rule) {
  std::fprintf(stderr, "rules_fuzz: invariant violated (rule %d): %s\n", rule, what);
  std::abort();
}
#define CHECK(cond) \
  do {              \
    if (!(cond)) violated(#cond, g_rule); \
  } while (0)

int g_rule = -1;

Dim read_dim(Bytes& b) {
  const uint8_t t = b.u8();
  static const i64 kSmall[8] = {1, 0, 2, 3, 1, 4, 5, 1};
  if (t < 0xc0) return Dim::fixed(kSmall[t % 8]);
  if (t < 0xe0) return Dim::fixed(b.i64_());
  if (t < 0xe8) return Dim::keep();
  if (t < 0xf0) return Dim::dynamic();
  if (t < 0xf8) {
    const i64 lo = b.u8();
    const uint8_t hi = b.u8();
    return Dim::interval(lo, hi == 0xff ? kUnbounded : static_cast<i64>(hi));
  }
  const i64 lo = b.i64_();
  const i64 hi = b.i64_();
  return Dim{lo, hi};
}

Shape read_shape(Bytes& b) {
  const uint8_t r = b.u8();
  Shape s;
  if (r == 0xff) return Shape::unknown_rank();
  if (r == 0xfe) { s.rank = -2; return s; }
  if (r >= 0xf0) { s.rank = 33 + (r - 0xf0); return s; }  // invalid: no dims may be read
  const int rank = r % 33;
  for (int i = 0; i < rank; ++i) s.push(read_dim(b));
  return s;
}

i64 read_axis(Bytes& b) {
  const uint8_t a = b.u8();
  if (a == 0x80) return b.i64_();
  return static_cast<int8_t>(a);
}

// Named shapes own their label arrays.
struct Named {
  NamedShape s;
  std::vector<i64> labels[kMaxRank];
};

void read_named(Bytes& b, Named& n) {
  const uint8_t r = b.u8();
  n.s = NamedShape{};
  if (r >= 0xf0) { n.s.rank = 33 + (r - 0xf0); return; }
  n.s.rank = r % 12;
  for (int i = 0; i < n.s.rank; ++i) {
    n.s.name[i] = b.u8() % 10;
    const uint8_t sz = b.u8();
    n.s.size[i] = sz == 0xff ? b.i64_() : sz % 6;
    n.s.labels[i] = nullptr;
    n.labels[i].clear();
    if ((b.u8() & 1) && n.s.size[i] >= 0 && n.s.size[i] <= 16) {
      for (i64 j = 0; j < n.s.size[i]; ++j) n.labels[i].push_back(b.u8() % 8);
      n.s.labels[i] = n.labels[i].data();
    }
  }
}

bool all_static(const Shape* s, int n) {
  for (int k = 0; k < n; ++k)  // (an invalid rank has no dims to look at)
    if (s[k].rank > kMaxRank || !s[k].is_static()) return false;
  return true;
}

// What every rule must satisfy, whatever the input.
void check_common(Status st, const Error& err, const Plan& plan) {
  const int code = static_cast<int>(st);
  CHECK(code >= 0 && code <= static_cast<int>(Status::TooLarge));
  if (st != Status::Ok) {
    CHECK(err.code == st);
    CHECK(err.axis >= -1 && err.axis < kMaxRank);
    // Every clash is recorded (issue 11): only dim clashes, on output axes, the
    // reported one among them; the refused plan marks each on some operand and
    // marks nothing else.
    CHECK((err.clash_axes >> kMaxRank) == 0);
    const bool dim_clash = st == Status::IncompatibleDims || st == Status::ShapeMismatch;
    if (err.clash_axes != 0) CHECK(dim_clash && err.axis >= 0 && (err.clash_axes >> err.axis & 1));
    if (err.clash_axes != 0 && !plan.shape_only) {
      CHECK(plan.out.rank_known());
      for (int a = 0; a < plan.out.rank; ++a) {
        bool marked = false;
        for (const OperandPlan& op : plan.ops) {
          if (op.verdict[a] != Verdict::Clash) continue;
          marked = true;
          CHECK(op.src_axis[a] >= 0);
        }
        CHECK(marked == ((err.clash_axes >> a & 1) != 0));
      }
      CHECK((err.clash_axes >> plan.out.rank) == 0);
      CHECK(plan.loop.rank == 0);
    }
    return;
  }
  CHECK(plan.out.rank == kUnknownRank || (plan.out.rank >= 0 && plan.out.rank <= kMaxRank));
  for (int a = 0; plan.out.rank_known() && a < plan.out.rank; ++a) {
    CHECK(plan.out.dims[a].is_valid());
    CHECK(!plan.out.dims[a].is_keep());
  }
  if (!plan.out.rank_known()) return;
  CHECK(plan.out_size == shape_size(plan.out) || !plan.is_static);
  if (!plan.is_static || plan.shape_only) return;
  // Strides are 0 wherever an operand is new or stretched; the loop covers the output.
  for (const OperandPlan& op : plan.ops) {
    for (int a = 0; a < plan.out.rank; ++a) {
      CHECK((op.verdict[a] == Verdict::New) == (op.src_axis[a] < 0));
      if (op.verdict[a] == Verdict::New || op.verdict[a] == Verdict::Stretched) CHECK(op.strides[a] == 0);
      CHECK(op.verdict[a] != Verdict::Clash);
    }
  }
  CHECK(plan.loop.rank >= 1 && plan.loop.rank <= kMaxRank);
  i64 n = 1;
  for (int i = 0; i < plan.loop.rank; ++i) n = sat_mul(n, plan.loop.shape[i]);
  CHECK(n == plan.out_size);
  CHECK(plan.loop.strides.size() == plan.ops.size());
}

// §1 for static shapes: per axis the one non-1 dim, or 1.
void check_numpy_static(const Shape* s, int n, const Shape& out) {
  int rank = 0;
  for (int k = 0; k < n; ++k) rank = s[k].rank > rank ? s[k].rank : rank;
  CHECK(out.rank == rank);
  for (int a = 0; a < rank; ++a) {
    i64 want = 1;
    for (int k = 0; k < n; ++k) {
      const int i = a - (rank - s[k].rank);
      if (i < 0) continue;
      const i64 d = s[k].dims[i].lo;
      if (d != 1) {
        CHECK(want == 1 || want == d);
        want = d;
      }
    }
    CHECK(out.dims[a].is(want));
  }
}

// numpy_static_shape (the shape API's plan-free answer) over the same shapes
// in flat form, as the wire carries them: it answers exactly the calls the
// rule accepts whose shapes are all static, with the rule's output shape.
void check_numpy_flat(const Shape* s, int n, Status st, const Plan& plan) {
  std::vector<double> w;
  for (int k = 0; k < n; ++k) {
    if (!s[k].rank_known()) { w.push_back(-1); continue; }
    w.push_back(s[k].rank);
    for (int i = 0; i < s[k].rank && i < kMaxRank; ++i) {
      const Dim d = s[k].dims[i];
      w.push_back(d.lo == d.hi ? static_cast<double>(d.lo) : -2);  // -2: an interval's marker
    }
  }
  double out[kMaxRank];
  const int r = numpy_static_shape(w.data(), w.size(), n, out);
  const bool answered = st == Status::Ok && all_static(s, n);
  CHECK((r >= 0) == answered);
  if (!answered) return;
  CHECK(r == plan.out.rank);
  for (int a = 0; a < r; ++a) CHECK(plan.out.dims[a].is(static_cast<i64>(out[a])));
}

bool same_shape(const Shape& x, const Shape& y) {
  if (x.rank != y.rank) return false;
  for (int i = 0; x.rank_known() && i < x.rank; ++i)
    if (x.dims[i] != y.dims[i]) return false;
  return true;
}

Plan g_dirty;  // reused across calls, as the wasm ABI reuses its Plan

// Run a rule on a fresh Plan and on the dirty one: same status, same output.
template <typename F>
Status run_twice(F&& rule, Plan& fresh, Error& err, bool shape_only) {
  fresh.shape_only = shape_only;
  const Status st = rule(fresh, err);
  check_common(st, err, fresh);
  Error err2;
  g_dirty.shape_only = !shape_only;  // and the other detail level
  const Status st2 = rule(g_dirty, err2);
  check_common(st2, err2, g_dirty);
  CHECK(st == st2);
  CHECK(err.axis == err2.axis);
  CHECK(err.clash_axes == err2.clash_axes);
  CHECK(err.detail == err2.detail && err.operand_a == err2.operand_a && err.operand_b == err2.operand_b);
  if (st == Status::Ok) CHECK(same_shape(fresh.out, g_dirty.out));
  return st;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes b{data, data + size};
  g_rule = b.u8() % 8;
  const bool shape_only = b.u8() & 1;
  Plan plan;
  Error err;
  switch (g_rule) {
    case 0: {  // §1 numpy, n-ary
      const int n = b.u8() % 12;
      std::vector<Shape> s(static_cast<size_t>(n));
      for (auto& x : s) x = read_shape(b);
      const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_numpy(s.data(), n, p, e); }, plan, err, shape_only);
      if (st == Status::Ok && all_static(s.data(), n)) check_numpy_static(s.data(), n, plan.out);
      check_numpy_flat(s.data(), n, st, plan);
      break;
    }
    case 1: case 2: case 3: case 4: case 5: case 6: {
      const Shape a = read_shape(b);
      const Shape t = read_shape(b);
      const Shape pair[2] = {a, t};
      const bool stat = all_static(pair, 2);
      if (g_rule == 1) {
        const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_none(a, t, p, e); }, plan, err, shape_only);
        if (st == Status::Ok && stat) CHECK(same_shape(plan.out, a) && same_shape(a, t));
      } else if (g_rule == 2) {
        const i64 axis = read_axis(b);
        const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_pdpd(a, t, axis, p, e); }, plan, err, shape_only);
        if (st == Status::Ok && a.rank_known()) CHECK(plan.out.rank == a.rank);
        if (st == Status::Ok && stat) CHECK(same_shape(plan.out, a));  // B never enlarges A
      } else if (g_rule == 3) {
        const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_to_numpy(a, t, p, e); }, plan, err, shape_only);
        if (st == Status::Ok && a.rank_known() && t.rank_known()) {
          CHECK(plan.out.rank == t.rank && a.rank <= t.rank);
          for (int i = 0; i < t.rank; ++i) {
            const int src = i - (t.rank - a.rank);
            if (t.dims[i].is_keep()) CHECK(src >= 0 && plan.out.dims[i] == a.dims[src]);
            else if (stat) CHECK(plan.out.dims[i] == t.dims[i]);
            if (stat && src >= 0 && !t.dims[i].is_keep()) CHECK(a.dims[src].is(1) || a.dims[src] == t.dims[i]);
          }
        }
      } else if (g_rule == 4) {
        const uint8_t len = b.u8();
        const bool known = len != 0xff;
        const int n = known ? len % 36 : 0;
        std::vector<i64> m(static_cast<size_t>(n) + 1);
        for (int i = 0; i < n; ++i) m[static_cast<size_t>(i)] = read_axis(b);
        const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_to_explicit(a, t, m.data(), n, known, p, e); }, plan, err, shape_only);
        if (st == Status::Ok && t.rank_known()) CHECK(same_shape(plan.out, t));
        if (st == Status::Ok && known && a.rank_known() && t.rank_known()) {
          for (int i = 1; i < n; ++i) CHECK(m[static_cast<size_t>(i)] > m[static_cast<size_t>(i - 1)]);
          for (int i = 0; i < n; ++i) CHECK(m[static_cast<size_t>(i)] >= 0 && m[static_cast<size_t>(i)] < t.rank);
        }
      } else if (g_rule == 5) {
        const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_to_bidirectional(a, t, p, e); }, plan, err, shape_only);
        if (st == Status::Ok && stat) check_numpy_static(pair, 2, plan.out);
      } else {
        const i64 axis = read_axis(b);
        const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_to_pdpd(a, t, axis, p, e); }, plan, err, shape_only);
        if (st == Status::Ok && t.rank_known()) CHECK(plan.out.rank == t.rank);
        if (st == Status::Ok && stat) {
          for (int i = 0; i < t.rank; ++i) {
            const Dim o = plan.out.dims[i];
            CHECK(o == t.dims[i] || t.dims[i].is(1));
          }
        }
      }
      break;
    }
    default: {  // §6 named
      const Shaping shaping = static_cast<Shaping>(b.u8() % 3);
      static Named l, r;
      read_named(b, l);
      read_named(b, r);
      NamedPlan named;
      const Status st = run_twice([&](Plan& p, Error& e) { return broadcast_named(l.s, r.s, shaping, named, p, e); }, plan, err, shape_only);
      if (st == Status::Ok) {
        // Output: left's dims, then right's new ones; a dim both have is never stretched.
        CHECK(static_cast<int>(named.axes.size()) == plan.out.rank);
        CHECK(plan.out.rank >= l.s.rank && plan.out.rank <= l.s.rank + r.s.rank);
        for (int a = 0; a < plan.out.rank; ++a) {
          const NamedAxis& ax = named.axes[static_cast<size_t>(a)];
          CHECK(plan.out.dims[a].is(ax.size));
          if (a < l.s.rank) CHECK(ax.left_axis == a && ax.name == l.s.name[a]);
          else CHECK(ax.left_axis == -1 && ax.right_axis >= 0);
          if (ax.left_axis >= 0 && ax.right_axis >= 0 && !(l.s.labels[ax.left_axis] && r.s.labels[ax.right_axis]))
            CHECK(l.s.size[ax.left_axis] == r.s.size[ax.right_axis] && ax.size == l.s.size[ax.left_axis]);
          if (ax.labeled) {
            CHECK(static_cast<i64>(ax.labels.size()) == ax.size);
            CHECK(ax.left_index.size() == ax.labels.size() || ax.left_axis < 0);
          }
        }
      }
      break;
    }
  }
  return 0;
}
