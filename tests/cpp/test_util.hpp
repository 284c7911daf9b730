// Builders and matchers shared by the rule tests, so each test reads like the
// spec example it checks:  EXPECT_SHAPE(numpy({S({2,1,6}), S({3,1})}).out(), S({2,3,6})).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/shape.hpp"
#include "rules/rules.hpp"

// gtest printers (found by ADL) so failures read "INCOMPATIBLE_DIMS", not bytes.
namespace tc {
inline void PrintTo(Status s, std::ostream* os) { *os << status_name(s); }
inline void PrintTo(Verdict v, std::ostream* os) {
  static const char* const names[] = {"Equal", "Stretched", "New", "Clash"};
  const unsigned i = static_cast<unsigned>(v);
  *os << (i < 4 ? names[i] : "?");
}
// A PodVector (the engine's vector) compared with, and printed as, a std::vector.
template <class T>
bool operator==(const PodVector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
template <class T>
void PrintTo(const PodVector<T>& v, std::ostream* os) {
  *os << "{";
  for (std::size_t i = 0; i < v.size(); ++i) *os << (i ? ", " : " ") << v[i];
  *os << " }";
}
}  // namespace tc

namespace tct {

using tc::Dim;
using tc::Error;
using tc::i64;
using tc::Plan;
using tc::Shape;
using tc::Status;
using tc::Verdict;

// ---- builders ------------------------------------------------------------------
// Static shape; every value becomes Dim::fixed (so -1 is Dim::keep(), and other
// negatives are invalid dims, which is what the validation tests want).
inline Shape S(std::initializer_list<i64> dims) {
  Shape s;
  for (i64 d : dims) s.push(Dim::fixed(d));
  return s;
}
// Partial shape from dims.
inline Shape P(std::initializer_list<Dim> dims) {
  Shape s;
  for (Dim d : dims) s.push(d);
  return s;
}
inline Dim D(i64 d) { return Dim::fixed(d); }
inline Dim I(i64 lo, i64 hi) { return Dim::interval(lo, hi); }
inline Dim From(i64 lo) { return Dim::interval(lo, tc::kUnbounded); }  // "lo.."
inline const Dim Q = Dim::dynamic();                                   // "?"
inline Shape U() { return Shape::unknown_rank(); }                     // "[...]"

// ---- printing --------------------------------------------------------------------
inline std::string str(Dim d) {
  if (d.is_keep()) return "-1";
  if (d.lo == d.hi) return std::to_string(d.lo);
  if (d.lo == 0 && d.hi == tc::kUnbounded) return "?";
  std::string s = d.lo == 0 ? "" : std::to_string(d.lo);
  s += "..";
  if (d.hi != tc::kUnbounded) s += std::to_string(d.hi);
  return s;
}
inline std::string str(const Shape& s) {
  if (!s.rank_known()) return "[...]";
  if (s.rank < 0 || s.rank > tc::kMaxRank) return "[rank " + std::to_string(s.rank) + "]";
  std::string r = "[";
  for (int i = 0; i < s.rank; ++i) r += (i ? "," : "") + str(s.dims[i]);
  return r + "]";
}
inline std::string str(Status s) { return tc::status_name(s); }
inline std::string str(const Error& e) {
  std::ostringstream o;
  o << tc::status_name(e.code) << " axis " << e.axis << " operands " << e.operand_a << "," << e.operand_b
    << " dims " << str(e.dim_a) << "," << str(e.dim_b) << " detail " << e.detail;
  return o.str();
}

inline bool same(const Shape& a, const Shape& b) {
  if (a.rank != b.rank) return false;
  if (!a.rank_known()) return true;
  for (int i = 0; i < a.rank; ++i)
    if (a.dims[i] != b.dims[i]) return false;
  return true;
}

inline ::testing::AssertionResult ShapeEq(const char* ae, const char* be, const Shape& a, const Shape& b) {
  if (same(a, b)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << ae << " is " << str(a) << ", expected " << be << " = " << str(b);
}
#define EXPECT_SHAPE(actual, expected) EXPECT_PRED_FORMAT2(::tct::ShapeEq, actual, expected)
#define ASSERT_SHAPE(actual, expected) ASSERT_PRED_FORMAT2(::tct::ShapeEq, actual, expected)

inline ::testing::AssertionResult DimEq(const char* ae, const char* be, Dim a, Dim b) {
  if (a == b) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << ae << " is " << str(a) << ", expected " << be << " = " << str(b);
}
#define EXPECT_DIM(actual, expected) EXPECT_PRED_FORMAT2(::tct::DimEq, actual, expected)

// ---- rule calls ------------------------------------------------------------------------
// Result of one rule call. `ok()` / `code()` read the status; `out()` the shape.
struct R {
  Status st = Status::Ok;
  Plan plan;
  Error err;
  bool ok() const { return st == Status::Ok; }
  Status code() const { return st; }
  const Shape& out() const { return plan.out; }
  const tc::OperandPlan& op(int k) const { return plan.ops[static_cast<size_t>(k)]; }
  std::vector<i64> strides(int k) const {
    const auto& o = op(k);
    return std::vector<i64>(o.strides, o.strides + plan.out.rank);
  }
  std::vector<Verdict> verdicts(int k) const {
    const auto& o = op(k);
    return std::vector<Verdict>(o.verdict, o.verdict + plan.out.rank);
  }
  std::vector<i64> loop_shape() const { return std::vector<i64>(plan.loop.shape, plan.loop.shape + plan.loop.rank); }
  std::vector<i64> loop_strides(int k) const {
    const auto& row = plan.loop.strides.at(static_cast<size_t>(k));
    return std::vector<i64>(row.begin(), row.begin() + plan.loop.rank);
  }
  // For failure messages.
  std::string describe() const {
    return str(st) + " out " + str(plan.out) + (ok() ? "" : " | " + str(err));
  }
};

inline R numpy(std::vector<Shape> shapes) {
  R r;
  r.st = tc::broadcast_numpy(shapes.data(), static_cast<int>(shapes.size()), r.plan, r.err);
  return r;
}
inline R none(const Shape& a, const Shape& b) {
  R r;
  r.st = tc::broadcast_none(a, b, r.plan, r.err);
  return r;
}
inline R pdpd(const Shape& a, const Shape& b, i64 axis = -1) {
  R r;
  r.st = tc::broadcast_pdpd(a, b, axis, r.plan, r.err);
  return r;
}
inline R to_numpy(const Shape& in, const Shape& target) {
  R r;
  r.st = tc::broadcast_to_numpy(in, target, r.plan, r.err);
  return r;
}
inline R to_explicit(const Shape& in, const Shape& target, std::vector<i64> mapping, bool known = true) {
  R r;
  r.st = tc::broadcast_to_explicit(in, target, mapping.data(), static_cast<int>(mapping.size()), known, r.plan, r.err);
  return r;
}
inline R to_bidirectional(const Shape& in, const Shape& target) {
  R r;
  r.st = tc::broadcast_to_bidirectional(in, target, r.plan, r.err);
  return r;
}
inline R to_pdpd(const Shape& in, const Shape& target, i64 axis = -1) {
  R r;
  r.st = tc::broadcast_to_pdpd(in, target, axis, r.plan, r.err);
  return r;
}

using V = std::vector<i64>;

}  // namespace tct
