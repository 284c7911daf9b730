// libFuzzer harness for the expression parser (src/expr/parse.cpp), under
// ASan + UBSan (CMake TC_FUZZ=ON, beside rules_fuzz):
//
//   cmake --preset fuzz && cmake --build --preset fuzz
//   mkdir -p build/fuzz/expr-corpus
//   build/fuzz/expr_fuzz build/fuzz/expr-corpus tests/fuzz/expr-corpus \
//     -dict=tests/fuzz/expr.dict -max_total_time=60
//
// (new units go to the first directory, so the committed seeds stay as they are)
//
// Input: each byte is one UTF-16 unit (bytes 0xf8..0xff stand for non-ASCII
// units: é, a surrogate pair's halves, U+2028, U+FEFF, ...), parsed from an
// exact-size heap copy so that a read past `n` is an ASan report. Besides "no
// crash, no UB, no leak, no deep recursion", every result must be whole: an
// error has a code and a span inside the text and leaves no tree; a tree is in
// post-order (every argument before its call, the root last, each node used
// once), within the limits, with calls of the right arity and argument kinds,
// a reduction only at the root, inputs numbered by first appearance and named
// by their spans. Parsing again into a used Parsed gives the same answer.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "expr/parse.hpp"

using namespace tc::expr;

namespace {

[[noreturn]] void violated(const char* what) {
  std::fprintf(stderr, "expr_fuzz: invariant violated: %s\n", what);
  std::abort();
}
#define CHECK(cond) \
  do {              \
    if (!(cond)) violated(#cond); \
  } while (0)

const char16_t kWide[8] = {0x00e9, 0x00a0, 0x2028, 0xfeff, 0xd83d, 0xde00, 0x4e2d, 0xffff};

bool same(const Parsed& a, const Parsed& b) {
  if (a.code != b.code || a.err_pos != b.err_pos || a.err_len != b.err_len || a.root != b.root) return false;
  if (a.nodes.size() != b.nodes.size() || a.args != b.args || a.name_pos != b.name_pos || a.name_len != b.name_len)
    return false;
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = a.nodes[i];
    const Node& y = b.nodes[i];
    if (x.kind != y.kind || x.fn != y.fn || x.op != y.op || x.is_bigint != y.is_bigint || x.pos != y.pos ||
        x.len != y.len || x.index != y.index || x.first != y.first || x.count != y.count || x.bits != y.bits ||
        std::memcmp(&x.value, &y.value, sizeof x.value) != 0)
      return false;
  }
  return true;
}

void check(const char16_t* s, int n, const Parsed& p) {
  CHECK(p.code <= SyntaxCode::bad_axis);
  if (p.code != SyntaxCode::ok) {
    CHECK(p.root == -1 && p.nodes.empty() && p.args.empty() && p.name_pos.empty() && p.name_len.empty());
    if (p.code == SyntaxCode::too_long) {
      CHECK(n > kMaxText && p.err_pos == 0 && p.err_len == 0);
      return;
    }
    CHECK(n <= kMaxText);
    CHECK(p.err_pos >= 0 && p.err_len >= 0 && p.err_pos + p.err_len <= n);
    if (p.code == SyntaxCode::unexpected_end) CHECK(p.err_pos == n && p.err_len == 0);
    else CHECK(p.err_len > 0);
    return;
  }
  const int count = static_cast<int>(p.nodes.size());
  CHECK(count >= 1 && count <= kMaxNodes);
  CHECK(p.root == count - 1);
  CHECK(p.name_pos.size() == p.name_len.size() && p.name_pos.size() <= static_cast<std::size_t>(kMaxInputs));
  std::vector<int> uses(static_cast<std::size_t>(count), 0);
  int next_input = 0;  // inputs are numbered in order of first appearance
  for (int i = 0; i < count; ++i) {
    const Node& nd = p.nodes[static_cast<std::size_t>(i)];
    CHECK(nd.pos >= 0 && nd.len > 0 && nd.pos + nd.len <= n);
    switch (nd.kind) {
      case Kind::input: {
        CHECK(nd.index >= 0 && nd.index < static_cast<int>(p.name_pos.size()));
        CHECK(nd.index <= next_input);
        if (nd.index == next_input) ++next_input;
        const std::size_t k = static_cast<std::size_t>(nd.index);
        CHECK(p.name_len[k] == nd.len &&
              std::memcmp(s + p.name_pos[k], s + nd.pos, sizeof(char16_t) * static_cast<std::size_t>(nd.len)) == 0);
        break;
      }
      case Kind::number:
        // A BigInt's bits are its value modulo 2^64; its value is Number() of it (exact up to 2^53).
        if (nd.is_bigint && nd.value >= -9007199254740992.0 && nd.value <= 9007199254740992.0)
          CHECK(nd.value == static_cast<double>(nd.bits));
        break;
      case Kind::string:
        CHECK(nd.len >= 2 && (s[nd.pos] == '\'' || s[nd.pos] == '"') && s[nd.pos + nd.len - 1] == s[nd.pos]);
        break;
      case Kind::list:
      case Kind::call: {
        CHECK(nd.first >= 0 && nd.count >= 0 && static_cast<std::size_t>(nd.first + nd.count) <= p.args.size());
        for (int k = 0; k < nd.count; ++k) {
          const int a = p.args[static_cast<std::size_t>(nd.first + k)];
          CHECK(a >= 0 && a < i);  // post-order
          ++uses[static_cast<std::size_t>(a)];
          const Node& arg = p.nodes[static_cast<std::size_t>(a)];
          CHECK(arg.pos >= nd.pos && arg.pos + arg.len <= nd.pos + nd.len);
          const bool value = arg.kind != Kind::string && arg.kind != Kind::list;
          if (nd.kind == Kind::list) CHECK(arg.kind == Kind::number || arg.kind == Kind::string);
          else if (k == 1 && nd.fn == Fn::cast) CHECK(arg.kind == Kind::string);
          else if (k == 1 && nd.fn == Fn::reduce) CHECK(!value || arg.kind == Kind::number);
          else CHECK(value);
        }
        if (nd.kind == Kind::call) {
          switch (nd.fn) {
            case Fn::binary: CHECK(nd.count == 2); break;
            case Fn::unary: CHECK(nd.count == 1); break;
            case Fn::where: CHECK(nd.count == 3); break;
            case Fn::cast: CHECK(nd.count == 2); break;
            case Fn::reduce: CHECK((nd.count == 1 || nd.count == 2) && i == p.root); break;
          }
        }
        break;
      }
    }
  }
  CHECK(next_input == static_cast<int>(p.name_pos.size()));
  for (int i = 0; i < count; ++i) CHECK(uses[static_cast<std::size_t>(i)] == (i == p.root ? 0 : 1));
  const Kind rk = p.nodes[static_cast<std::size_t>(p.root)].kind;
  CHECK(rk != Kind::string && rk != Kind::list);
}

Parsed g_dirty;  // reused across runs, as a binding would

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > static_cast<std::size_t>(kMaxText) + 16) return 0;
  const int n = static_cast<int>(size);
  std::unique_ptr<char16_t[]> text(new char16_t[size > 0 ? size : 1]);
  for (std::size_t i = 0; i < size; ++i) text[i] = data[i] >= 0xf8 ? kWide[data[i] - 0xf8] : data[i];
  Parsed fresh;
  parse(text.get(), n, fresh);
  check(text.get(), n, fresh);
  parse(text.get(), n, g_dirty);
  CHECK(same(fresh, g_dirty));
  return 0;
}
