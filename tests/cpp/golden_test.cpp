// Every vector of tests/fixtures/golden.json (transcribed by
// tests/tools/golden_to_cpp.mjs) run through the engine: one test per case,
// named by its index in the fixture; failures print the case's shapes.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "golden_case.hpp"
#include "golden_cases.inc"
#include "test_util.hpp"

namespace {

using golden::Case;
using golden::Family;
using tct::str;

tc::Shape shape_of(golden::ShapeRef r) {
  if (r.rank == tc::kUnknownRank) return tc::Shape::unknown_rank();
  tc::Shape s;
  for (int i = 0; i < r.rank; ++i) s.push(golden::kDims[r.first + i]);
  return s;
}
tc::Shape operand(const Case& c, int k) { return shape_of(golden::kOperands[c.first_operand + k]); }

const char* family_name(Family f) {
  switch (f) {
    case Family::Numpy: return "numpy";
    case Family::None: return "none";
    case Family::Pdpd: return "pdpd";
    case Family::NumpyTo: return "numpy_to";
    case Family::Explicit: return "explicit";
    case Family::Bidirectional: return "bidirectional";
    case Family::PdpdBroadcastOp: return "pdpd_broadcast_op";
    case Family::BroadcastToMinus1: return "broadcast_to_minus1";
    case Family::OnnxUnidirectional: return "onnx_unidirectional";
    case Family::NamedMissing: return "named_missing";
  }
  return "?";
}

// Runs a shape family; returns the status, fills plan/err.
tc::Status run_shapes(const Case& c, tc::Plan& plan, tc::Error& err) {
  switch (c.family) {
    case Family::Numpy: {
      std::vector<tc::Shape> shapes;
      for (int k = 0; k < c.n_operands; ++k) shapes.push_back(operand(c, k));
      return tc::broadcast_numpy(shapes.data(), c.n_operands, plan, err);
    }
    case Family::None:
      return tc::broadcast_none(operand(c, 0), operand(c, 1), plan, err);
    case Family::Pdpd:
      return tc::broadcast_pdpd(operand(c, 0), operand(c, 1), c.axis, plan, err);
    case Family::NumpyTo:
    case Family::BroadcastToMinus1:
    case Family::OnnxUnidirectional:  // operands are already (B, A): B is the input
      return tc::broadcast_to_numpy(operand(c, 0), operand(c, 1), plan, err);
    case Family::Explicit:
      return tc::broadcast_to_explicit(operand(c, 0), operand(c, 1), golden::kInts + c.first_mapping,
                                       c.mapping_len, c.mapping_known, plan, err);
    case Family::Bidirectional:
      return tc::broadcast_to_bidirectional(operand(c, 0), operand(c, 1), plan, err);
    case Family::PdpdBroadcastOp:
      return tc::broadcast_to_pdpd(operand(c, 0), operand(c, 1), c.axis, plan, err);
    case Family::NamedMissing:
      break;
  }
  ADD_FAILURE() << "not a shape family";
  return tc::Status::Ok;
}

void check_named(const Case& c) {
  const golden::NamedCase& n = golden::kNamed[c.named];
  auto build = [](golden::NamedOperand o) {
    tc::NamedShape s;
    s.rank = o.rank;
    for (int i = 0; i < o.rank; ++i) {
      const golden::NamedDim& d = golden::kNamedDims[o.first + i];
      s.name[i] = d.name;
      s.size[i] = d.size;
      s.labels[i] = d.first_label < 0 ? nullptr : golden::kInts + d.first_label;
    }
    return s;
  };
  const tc::NamedShape left = build(n.left), right = build(n.right);
  tc::NamedPlan named;
  tc::Plan plan;
  tc::Error err;
  const tc::Status st = tc::broadcast_named(left, right, static_cast<tc::Shaping>(n.shaping), named, plan, err);
  ASSERT_EQ(st, tc::Status::Ok) << tct::str(err);

  // Output dims: names in order, and the shape of the plan agrees.
  std::vector<tc::i64> names, want(golden::kInts + n.first_out_name, golden::kInts + n.first_out_name + n.out_rank);
  for (const auto& ax : named.axes) names.push_back(ax.name);
  EXPECT_EQ(names, want) << "output dim order";
  ASSERT_EQ(plan.out.rank, n.out_rank);
  tc::i64 size = 1;
  for (size_t a = 0; a < named.axes.size(); ++a) {
    EXPECT_TRUE(plan.out.dims[a].is(named.axes[a].size)) << "axis " << a;
    size *= named.axes[a].size;
  }
  EXPECT_EQ(size, n.expect_size);
  EXPECT_EQ(plan.out_size, n.expect_size);

  // Positions: the cartesian product of the output coordinates, as a set.
  if (n.n_positions >= 0) {
    std::multiset<std::vector<tc::i64>> got, expect;
    for (int p = 0; p < n.n_positions; ++p) {
      const tc::i64* at = golden::kInts + n.first_position + p * n.out_rank;
      expect.insert(std::vector<tc::i64>(at, at + n.out_rank));
    }
    for (const auto& ax : named.axes) ASSERT_TRUE(ax.labeled) << "axis " << ax.name << " lost its labels";
    std::vector<size_t> idx(named.axes.size(), 0);
    for (tc::i64 k = 0; k < size; ++k) {
      std::vector<tc::i64> pos;
      for (size_t a = 0; a < idx.size(); ++a) pos.push_back(named.axes[a].labels[idx[a]]);
      got.insert(pos);
      for (size_t a = idx.size(); a-- > 0;) {  // row-major increment
        if (++idx[a] < named.axes[a].labels.size()) break;
        idx[a] = 0;
      }
    }
    EXPECT_EQ(got, expect) << "positions";
  }
}

class Golden : public ::testing::TestWithParam<int> {};

TEST_P(Golden, Case) {
  const Case& c = golden::kCases[GetParam()];
  if (c.skip) GTEST_SKIP() << c.id << " (" << c.name << "): " << c.skip;
  SCOPED_TRACE(std::string(c.id) + " " + c.name + "  [" + c.source + ": " + c.note + "]");
  if (c.family == Family::NamedMissing) {
    check_named(c);
    return;
  }
  tc::Plan plan;
  tc::Error err;
  const tc::Status st = run_shapes(c, plan, err);
  if (c.expect_ok) {
    ASSERT_EQ(st, tc::Status::Ok) << c.name << ": refused with " << str(err);
    const tc::Shape want = shape_of(c.expect_shape);
    EXPECT_SHAPE(plan.out, want) << c.name;
    // Static in, static out (spec §7): a static result must come with a usable plan.
    if (plan.out.rank_known() && plan.out.is_static()) {
      EXPECT_EQ(plan.out_size, tc::shape_size(plan.out));
    }
  } else {
    EXPECT_NE(st, tc::Status::Ok) << c.name << ": accepted with " << str(plan.out);
    if (c.expect_code != golden::kAnyError) {
      EXPECT_EQ(str(st), str(static_cast<tc::Status>(c.expect_code))) << c.name << ": " << str(err);
    }
    EXPECT_EQ(err.code, st) << "the Error must carry the returned status";
  }
}

std::string case_test_name(const ::testing::TestParamInfo<int>& info) {
  std::string id = golden::kCases[info.param].id;  // "dynamic_cases[12]" -> "dynamic_cases_012"
  std::string out;
  for (char ch : id) out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  const size_t open = id.find('[');
  std::string num = id.substr(open + 1, id.size() - open - 2);
  while (num.size() < 3) num = "0" + num;
  return out.substr(0, open) + "_" + num;
}

INSTANTIATE_TEST_SUITE_P(Fixture, Golden, ::testing::Range(0, golden::kNumCases), case_test_name);

// A golden run that silently executes nothing is a failure: count what runs.
TEST(GoldenCoverage, EnoughCasesExecute) {
  int executed = 0, skipped = 0, errors = 0, dynamic = 0;
  std::map<std::string, int> per_family;
  for (int i = 0; i < golden::kNumCases; ++i) {
    const Case& c = golden::kCases[i];
    if (c.skip) {
      ++skipped;
      std::cout << "[ golden  ] skipped " << c.id << ": " << c.skip << "\n";
      continue;
    }
    ++executed;
    ++per_family[family_name(c.family)];
    if (!c.expect_ok) ++errors;
    if (std::string(c.id).rfind("dynamic", 0) == 0) ++dynamic;
  }
  std::cout << "[ golden  ] " << golden::kNumCases << " cases: " << executed << " executed ("
            << errors << " expected errors, " << dynamic << " dynamic), " << skipped << " skipped\n";
  for (const auto& [f, n] : per_family) std::cout << "[ golden  ]   " << f << ": " << n << "\n";

  EXPECT_EQ(skipped, golden::kNumSkippedByGenerator);
  EXPECT_GE(executed, 240) << "the fixture (200 static + 50 dynamic cases) must nearly all run";
  EXPECT_LE(skipped, 3) << "skips must stay rare: only ONNX null-dim / no-shape cases";
  EXPECT_GE(errors, 20);
  EXPECT_GE(dynamic, 45);
  for (const char* f : {"numpy", "none", "pdpd", "numpy_to", "explicit", "bidirectional", "pdpd_broadcast_op",
                        "broadcast_to_minus1", "onnx_unidirectional", "named_missing"}) {
    EXPECT_GT(per_family[f], 0) << "no executed case of family " << f;
  }
}

}  // namespace
