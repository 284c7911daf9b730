// Dims and shapes: the vocabulary every rule speaks.
//
// A dim is an inclusive interval [lo, hi] of sizes. A static dim has lo == hi;
// "?" is [0, inf); "2..5" is [2, 5]. Rules are written once against this type,
// so static shapes and OpenVINO-style partial shapes (spec §7) share one code
// path, and a static input always gives exactly the static result.
#pragma once

#include <cstdint>

namespace tc {

using i64 = std::int64_t;

// Largest dim a JavaScript number can carry exactly (spec: dims are safe integers).
constexpr i64 kMaxDim = (i64{1} << 53) - 1;
// Upper bound of an unbounded interval ("?" or "6..").
constexpr i64 kUnbounded = INT64_MAX;
// Spec: more than 32 dims is INVALID_SHAPE.
constexpr int kMaxRank = 32;
// A shape whose rank is not known (OpenVINO "[...]").
constexpr int kUnknownRank = -1;

// A dim or a rank as JS and the wire carry it (a double): a static dim is an
// integer in [0, kMaxDim], a rank one in [0, kMaxRank]. The range is checked
// first, so the integer conversion is always in range; NaN is neither.
constexpr bool is_dim_value(double v) {
  return v >= 0 && v <= static_cast<double>(kMaxDim) && v == static_cast<double>(static_cast<i64>(v));
}
constexpr bool is_rank_value(double v) {
  return v >= 0 && v <= kMaxRank && v == static_cast<double>(static_cast<int>(v));
}

struct Dim {
  // Trivially constructible on purpose: a Shape holds 32 of them and only its
  // first `rank` are ever read, so nothing is paid for the unused tail.
  i64 lo;
  i64 hi;

  static constexpr Dim fixed(i64 d) { return Dim{d, d}; }
  static constexpr Dim dynamic() { return Dim{0, kUnbounded}; }
  static constexpr Dim interval(i64 lo, i64 hi) { return Dim{lo, hi}; }
  // Marker for "-1" in a broadcast_to target (spec §5): keep the input's dim.
  static constexpr Dim keep() { return Dim{-1, -1}; }

  constexpr bool is_static() const { return lo == hi && lo >= 0; }
  constexpr bool is_keep() const { return lo == -1 && hi == -1; }
  constexpr bool is(i64 d) const { return lo == d && hi == d; }
  constexpr bool may_be(i64 d) const { return lo <= d && d <= hi; }
  constexpr bool is_valid() const {
    return is_keep() || (lo >= 0 && lo <= kMaxDim && hi >= lo && (hi <= kMaxDim || hi == kUnbounded));
  }
  constexpr bool operator==(const Dim& o) const { return lo == o.lo && hi == o.hi; }
  constexpr bool operator!=(const Dim& o) const { return !(*this == o); }
};

// Smallest interval holding both (OpenVINO: both sides may be 1 -> union).
constexpr Dim hull(Dim a, Dim b) { return Dim{a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi}; }

// Intersection; false when empty (the dims cannot be equal).
constexpr bool intersect(Dim a, Dim b, Dim& out) {
  i64 lo = a.lo > b.lo ? a.lo : b.lo;
  i64 hi = a.hi < b.hi ? a.hi : b.hi;
  if (lo > hi) return false;
  out = Dim{lo, hi};
  return true;
}

// NumPy's per-axis rule generalised to intervals (OpenVINO Dimension::broadcast_merge):
//   a static 1 yields the other side; both may be 1 -> union; only one may be 1
//   -> the other; neither -> intersection, empty = incompatible.
// For static dims this is exactly NumPy: 1 with d gives d (0 included), d with d
// gives d, anything else fails.
constexpr bool broadcast_merge(Dim a, Dim b, Dim& out) {
  if (a.is(1)) { out = b; return true; }
  if (b.is(1)) { out = a; return true; }
  const bool a1 = a.may_be(1), b1 = b.may_be(1);
  if (a1 && b1) { out = hull(a, b); return true; }
  if (a1) { out = b; return true; }
  if (b1) { out = a; return true; }
  return intersect(a, b, out);
}

// A shape: rank (or kUnknownRank) and up to kMaxRank dims.
struct Shape {
  int rank = 0;
  Dim dims[kMaxRank];

  Shape() = default;
  // Copies move only the dims in use (a full Shape is 512 bytes; the rules
  // copy shapes on every call, and this keeps a rank-4 call cheap).
  Shape(const Shape& o) : rank(o.rank) { copy_dims(o); }
  Shape& operator=(const Shape& o) {
    rank = o.rank;
    copy_dims(o);
    return *this;
  }

  static Shape unknown_rank() { Shape s; s.rank = kUnknownRank; return s; }
  bool rank_known() const { return rank != kUnknownRank; }
  bool is_static() const {
    if (!rank_known()) return false;
    for (int i = 0; i < rank; ++i) if (!dims[i].is_static()) return false;
    return true;
  }
  Dim operator[](int i) const { return dims[i]; }
  Dim& operator[](int i) { return dims[i]; }
  void push(Dim d) { dims[rank++] = d; }

 private:
  void copy_dims(const Shape& o) {
    for (int i = 0; i < o.rank && i < kMaxRank; ++i) dims[i] = o.dims[i];
  }
};

// Build a static shape from a list, for tests and callers that have plain ints.
template <typename It>
Shape make_shape(It first, It last) {
  Shape s;
  for (; first != last && s.rank < kMaxRank; ++first) s.push(Dim::fixed(static_cast<i64>(*first)));
  return s;
}

// Saturating multiply for sizes of shapes that are only descriptions ([1e12, 1e12]).
inline i64 sat_mul(i64 a, i64 b) {
  // Fast path for the common case: in wasm32 the overflow builtin becomes a
  // 128-bit multiply helper call, which dominated plan building.
  if (static_cast<std::uint64_t>(a) < (std::uint64_t{1} << 31) && static_cast<std::uint64_t>(b) < (std::uint64_t{1} << 31)) return a * b;
  i64 r;
  if (__builtin_mul_overflow(a, b, &r)) return INT64_MAX;
  return r;
}

}  // namespace tc
