// expr/parse.cpp — the expression parser: JavaScript's precedence and
// associativity (every tree printed as an S-expression and compared with its
// fully parenthesised form), every operator and function, JS's numeric
// literals and their exact values, every error code with its span, the limits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "expr/parse.hpp"
#include "kernels/reduce.hpp"

namespace {

using tc::expr::Fn;
using tc::expr::Kind;
using tc::expr::Node;
using tc::expr::Parsed;
using tc::expr::SyntaxCode;

const char* code_name(SyntaxCode c) {
  static const char* const names[] = {"ok", "unexpected_char", "unexpected_token", "unexpected_end",
                                      "unknown_function", "arg_count", "arg_kind", "unary_before_pow",
                                      "bad_number", "unterminated_string", "reduction_inside", "too_long",
                                      "too_many_nodes", "too_deep", "too_many_inputs", "bad_axis"};
  const unsigned i = static_cast<unsigned>(c);
  return i < sizeof names / sizeof *names ? names[i] : "?";
}

const char* const kBinaryNames[] = {
#define TC_OP(e, js, r, d) js,
#include "kernels/ops.def"
};
const char* const kUnaryNames[] = {
#define TC_UNARY(e, js, r, d) js,
#include "kernels/unary.def"
};
const char* const kReduceNames[] = {
#define TC_REDUCE_OP(e, k, m) #e,
#include "kernels/reduce_ops.def"
};

}  // namespace

namespace tc::expr {  // gtest prints codes by name (found by ADL)
inline void PrintTo(SyntaxCode c, std::ostream* os) { *os << code_name(c); }
}  // namespace tc::expr

namespace {

std::u16string u16(const std::string& s) { return std::u16string(s.begin(), s.end()); }

// Parses from an exact-size heap copy, so a read past `n` is an ASan report.
struct Result {
  std::u16string text;
  Parsed p;
  const Node& node(int i) const { return p.nodes.at(static_cast<std::size_t>(i)); }
  const Node& root() const { return node(p.root); }
  int arg(const Node& n, int k) const { return p.args.at(static_cast<std::size_t>(n.first + k)); }
  std::string slice(int pos, int len) const {
    std::string r;
    for (int k = pos; k < pos + len; ++k) r += static_cast<char>(text.at(static_cast<std::size_t>(k)));
    return r;
  }
  std::string name(int input) const {
    return slice(p.name_pos.at(static_cast<std::size_t>(input)), p.name_len.at(static_cast<std::size_t>(input)));
  }
};

Result parse16(const std::u16string& text) {
  Result r;
  r.text = text;
  std::unique_ptr<char16_t[]> buf(new char16_t[text.size() + 1]);
  std::memcpy(buf.get(), text.data(), sizeof(char16_t) * text.size());
  tc::expr::parse(buf.get(), static_cast<int>(text.size()), r.p);
  return r;
}
Result parse(const std::string& text) { return parse16(u16(text)); }

std::string number_text(const Node& n) {
  if (n.is_bigint) return std::to_string(n.bits) + "n";
  const double v = n.value;
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char b[64];
  if (v == std::floor(v) && std::fabs(v) < 1e21) {
    std::snprintf(b, sizeof b, "%.0f", v);
    return std::signbit(v) && v == 0 ? "-0" : b;
  }
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(b, sizeof b, "%.*g", p, v);
    if (std::strtod(b, nullptr) == v) break;
  }
  return b;
}

std::string sexpr(const Result& r, int i) {
  const Node& n = r.node(i);
  switch (n.kind) {
    case Kind::input: return r.name(n.index);
    case Kind::number: return number_text(n);
    case Kind::string: return r.slice(n.pos, n.len);
    case Kind::list: {
      std::string s = "[";
      for (int k = 0; k < n.count; ++k) s += (k ? " " : "") + sexpr(r, r.arg(n, k));
      return s + "]";
    }
    case Kind::call: {
      std::string s = "(";
      switch (n.fn) {
        case Fn::binary: s += kBinaryNames[n.op]; break;
        case Fn::unary: s += kUnaryNames[n.op]; break;
        case Fn::where: s += "where"; break;
        case Fn::cast: s += "cast"; break;
        case Fn::reduce: s += kReduceNames[n.op]; break;
      }
      for (int k = 0; k < n.count; ++k) s += " " + sexpr(r, r.arg(n, k));
      return s + ")";
    }
  }
  return "?";
}

// The tree, or the error as "code@pos+len".
std::string tree(const Result& r) {
  if (r.p.code != SyntaxCode::ok) {
    return std::string(code_name(r.p.code)) + "@" + std::to_string(r.p.err_pos) + "+" + std::to_string(r.p.err_len);
  }
  return sexpr(r, r.p.root);
}
std::string tree(const std::string& text) { return tree(parse(text)); }

// ---- precedence and associativity -------------------------------------------
// Each row was also checked against a JavaScript parser (acorn, strict mode):
// the same tree, the same refusals.
struct Row {
  const char* text;
  const char* want;
};
const Row kPrecedence[] = {
    {"a + b * c", "(add a (mul b c))"},
    {"a * b + c", "(add (mul a b) c)"},
    {"a - b - c", "(sub (sub a b) c)"},
    {"a / b / c", "(div (div a b) c)"},
    {"a % b * c", "(mul (rem a b) c)"},
    {"a - b + c", "(add (sub a b) c)"},
    {"a ** b ** c", "(pow a (pow b c))"},
    {"a * b ** c", "(mul a (pow b c))"},
    {"a ** b * c", "(mul (pow a b) c)"},
    {"2 ** -x", "(pow 2 (neg x))"},
    {"2 ** -x * 3", "(mul (pow 2 (neg x)) 3)"},
    {"(-x) ** 2", "(pow (neg x) 2)"},
    {"-(x ** 2)", "(neg (pow x 2))"},
    {"-x * y", "(mul (neg x) y)"},
    {"- -x", "(neg (neg x))"},
    {"-+-x", "(neg (neg x))"},
    {"+x", "x"},
    {"!~x", "(logicalNot (bitwiseNot x))"},
    {"a < b < c", "(less (less a b) c)"},
    {"a > b >= c <= d", "(lessEqual (greaterEqual (greater a b) c) d)"},
    {"a == b == c", "(equal (equal a b) c)"},
    {"a === b !== c != d", "(notEqual (notEqual (equal a b) c) d)"},
    {"a < b == c > d", "(equal (less a b) (greater c d))"},
    {"a + b < c * d", "(less (add a b) (mul c d))"},
    {"a & b == c", "(bitwiseAnd a (equal b c))"},
    {"a | b ^ c & d", "(bitwiseOr a (bitwiseXor b (bitwiseAnd c d)))"},
    {"a & b | c ^ d", "(bitwiseOr (bitwiseAnd a b) (bitwiseXor c d))"},
    {"a ^ b ^ c", "(bitwiseXor (bitwiseXor a b) c)"},
    {"a && b | c", "(logicalAnd a (bitwiseOr b c))"},
    {"a || b && c", "(logicalOr a (logicalAnd b c))"},
    {"a && b || c && d", "(logicalOr (logicalAnd a b) (logicalAnd c d))"},
    {"a || b || c", "(logicalOr (logicalOr a b) c)"},
    {"a ? b : c", "(where a b c)"},
    {"a ? b : c ? d : e", "(where a b (where c d e))"},
    {"a ? b ? c : d : e", "(where a (where b c d) e)"},
    {"a || b ? c + 1 : d && e", "(where (logicalOr a b) (add c 1) (logicalAnd d e))"},
    {"(a ? b : c) ? d : e", "(where (where a b c) d e)"},
    {"a + (b ? c : d)", "(add a (where b c d))"},
    {"(a + b) * c", "(mul (add a b) c)"},
    {"((a))", "a"},
    {"a*b+c*d-e", "(sub (add (mul a b) (mul c d)) e)"},
    {"(x - m) / s", "(div (sub x m) s)"},
    {"!a == b", "(equal (logicalNot a) b)"},
    {"~a & b", "(bitwiseAnd (bitwiseNot a) b)"},
    {"-a - -b", "(sub (neg a) (neg b))"},
    {"a- -b", "(sub a (neg b))"},
    {"a - - - b", "(sub a (neg (neg b)))"},
    {"1-1", "(sub 1 1)"},
    {"x?.5:1", "(where x 0.5 1)"},
    {"a <= b >= c", "(greaterEqual (lessEqual a b) c)"},
    {"exp(a) ** 2", "(pow (exp a) 2)"},
    {"2 ** 3 ** -a", "(pow 2 (pow 3 (neg a)))"},
    {"add(a, b) * c", "(mul (add a b) c)"},
    {"where(a > 0, a, -a)", "(where (greater a 0) a (neg a))"},
    {"a\t+\nb\r\n*  c", "(add a (mul b c))"},
    // What JavaScript refuses, and its operators this language does not have: refused.
    {"-x ** 2", "unary_before_pow@0+2"},
    {"+x ** 2", "unary_before_pow@0+2"},
    {"!x ** 2", "unary_before_pow@0+2"},
    {"~x ** 2", "unary_before_pow@0+2"},
    {"-(x) ** 2", "unary_before_pow@0+4"},
    {"2 ** -x ** 2", "unary_before_pow@5+2"},
    {"a ++ b", "unexpected_token@2+2"},
    {"a--b", "unexpected_token@1+2"},
    {"a << b", "unexpected_token@2+2"},
    {"a >>> b", "unexpected_token@2+3"},
    {"a ?? b", "unexpected_token@2+2"},
    {"a?.b", "unexpected_token@1+2"},
    {"a = b", "unexpected_token@2+1"},
    {"a.b", "unexpected_token@1+1"},
    {"a => b", "unexpected_token@2+2"},
    {"a ? b", "unexpected_end@5+0"},
    {"a ? b , c", "unexpected_token@6+1"},
    {"(a, b)", "unexpected_token@2+1"},
    {"a b", "unexpected_token@2+1"},
    {"a (b)", "unknown_function@0+1"},
    {"(a)(b)", "unexpected_token@3+1"},
    {"exp(a)(b)", "unexpected_token@6+1"},
    {"1 2", "unexpected_token@2+1"},
    {"x.5", "unexpected_token@1+2"},
};

TEST(ExprParse, PrecedenceAndAssociativityAsJavaScript) {
  for (const Row& row : kPrecedence) EXPECT_EQ(tree(row.text), row.want) << row.text;
}

// ---- every operator and function -------------------------------------------
TEST(ExprParse, EveryOperator) {
  const Row ops[] = {
      {"a + b", "(add a b)"},          {"a - b", "(sub a b)"},        {"a * b", "(mul a b)"},
      {"a / b", "(div a b)"},          {"a % b", "(rem a b)"},        {"a ** b", "(pow a b)"},
      {"a < b", "(less a b)"},         {"a <= b", "(lessEqual a b)"}, {"a > b", "(greater a b)"},
      {"a >= b", "(greaterEqual a b)"}, {"a == b", "(equal a b)"},    {"a === b", "(equal a b)"},
      {"a != b", "(notEqual a b)"},    {"a !== b", "(notEqual a b)"}, {"a && b", "(logicalAnd a b)"},
      {"a || b", "(logicalOr a b)"},   {"a & b", "(bitwiseAnd a b)"}, {"a | b", "(bitwiseOr a b)"},
      {"a ^ b", "(bitwiseXor a b)"},   {"-a", "(neg a)"},             {"!a", "(logicalNot a)"},
      {"~a", "(bitwiseNot a)"},        {"+a", "a"},                   {"a ? b : c", "(where a b c)"},
  };
  for (const Row& row : ops) EXPECT_EQ(tree(row.text), row.want) << row.text;
  // The node carries the library's op: `**` is Op::pow, `===` Op::equal.
  Result r = parse("a ** b");
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  EXPECT_EQ(r.root().fn, Fn::binary);
  EXPECT_EQ(r.root().op, static_cast<std::uint8_t>(tc::Op::pow));
  r = parse("a === b");
  EXPECT_EQ(r.root().op, static_cast<std::uint8_t>(tc::Op::equal));
  r = parse("~a");
  EXPECT_EQ(r.root().fn, Fn::unary);
  EXPECT_EQ(r.root().op, static_cast<std::uint8_t>(tc::UnaryOp::bitwise_not));
}

TEST(ExprParse, EveryFunction) {
  for (const char* name : kBinaryNames) {
    const std::string text = std::string(name) + "(a, b)";
    EXPECT_EQ(tree(text), "(" + std::string(name) + " a b)") << text;
    EXPECT_EQ(tree(std::string(name) + "(a)"), "arg_count@0+" + std::to_string(std::strlen(name) + 3)) << name;
    EXPECT_EQ(tree(std::string(name) + " + 1"), "(add " + std::string(name) + " 1)") << name;
  }
  for (const char* name : kUnaryNames) {
    const std::string text = std::string(name) + "(a)";
    EXPECT_EQ(tree(text), "(" + std::string(name) + " a)") << text;
    EXPECT_EQ(tree(std::string(name) + "(a, b)"), "arg_count@0+" + std::to_string(std::strlen(name) + 6)) << name;
    EXPECT_EQ(tree(std::string(name) + " * 2"), "(mul " + std::string(name) + " 2)") << name;
  }
  for (const char* name : kReduceNames) {
    const std::string n = name;
    EXPECT_EQ(tree(n + "(x * w)"), "(" + n + " (mul x w))") << n;
    EXPECT_EQ(tree(n + "(x * w, [1, 2])"), "(" + n + " (mul x w) [1 2])") << n;
    EXPECT_EQ(tree(n + "(x, ['in'])"), "(" + n + " x ['in'])") << n;
    EXPECT_EQ(tree(n + "(x, 1)"), "(" + n + " x 1)") << n;
    EXPECT_EQ(tree(n + "(x, \"in\")"), "(" + n + " x \"in\")") << n;
    EXPECT_EQ(tree(n + "(x, 1, 2)"), "arg_count@0+" + std::to_string(n.size() + 9)) << n;
    EXPECT_EQ(tree(n + " - 1"), "(sub " + n + " 1)") << n;
  }
  EXPECT_EQ(tree("where(c, a, b)"), "(where c a b)");
  EXPECT_EQ(tree("where(c, a)"), "arg_count@0+11");
  EXPECT_EQ(tree("cast(x, 'float32')"), "(cast x 'float32')");
  EXPECT_EQ(tree("cast(x + 1, \"int8\")"), "(cast (add x 1) \"int8\")");
  EXPECT_EQ(tree("cast(x)"), "arg_count@0+7");
  EXPECT_EQ(tree("where + cast"), "(add where cast)");
  // Each name maps to its own op.
  Result r = parse("floorDiv(a, b)");
  EXPECT_EQ(r.root().op, static_cast<std::uint8_t>(tc::Op::floor_div));
  r = parse("isFinite(a)");
  EXPECT_EQ(r.root().op, static_cast<std::uint8_t>(tc::UnaryOp::is_finite));
  r = parse("mean(a)");
  EXPECT_EQ(r.root().fn, Fn::reduce);
  EXPECT_EQ(r.root().op, static_cast<std::uint8_t>(tc::ReduceOp::mean));
  // Names are case-sensitive, whole words.
  EXPECT_EQ(tree("Add(a, b)"), "unknown_function@0+3");
  EXPECT_EQ(tree("addx(a, b)"), "unknown_function@0+4");
  EXPECT_EQ(tree("ad(a, b)"), "unknown_function@0+2");
  EXPECT_EQ(tree("x + exp (y)"), "(add x (exp y))");
}

TEST(ExprParse, ReductionAxes) {
  EXPECT_EQ(tree("sum(x, -1)"), "(sum x -1)");
  EXPECT_EQ(tree("sum(x, [-1, 0, 'c'])"), "(sum x [-1 0 'c'])");
  EXPECT_EQ(tree("sum(x, [])"), "(sum x [])");
  EXPECT_EQ(tree("sum(x, (2))"), "(sum x 2)");
  EXPECT_EQ(tree("sum(x, +2)"), "(sum x 2)");
  EXPECT_EQ(tree("+(sum(x))"), "(sum x)");
  EXPECT_EQ(tree("((sum(x, [0])))"), "(sum x [0])");
  // A folded -1 is one number node spanning the sign.
  Result r = parse("sum(x, [ - 1 ])");
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  EXPECT_EQ(r.p.nodes.size(), 4u);  // x, -1, the list, the call
  const Node& list = r.node(r.arg(r.root(), 1));
  ASSERT_EQ(list.kind, Kind::list);
  EXPECT_EQ(list.pos, 7);
  EXPECT_EQ(list.len, 7);
  const Node& entry = r.node(r.arg(list, 0));
  EXPECT_EQ(entry.kind, Kind::number);
  EXPECT_EQ(entry.value, -1.0);
  EXPECT_EQ(entry.pos, 9);
  EXPECT_EQ(entry.len, 3);
  // Signs and parentheses around a number literal fold into it, as JavaScript
  // reads them: one number node spanning them all, its value signed.
  EXPECT_EQ(tree("sum(x, [- -1])"), "(sum x [1])");
  EXPECT_EQ(tree("sum(x, -(1))"), "(sum x -1)");
  EXPECT_EQ(tree("sum(x, -+1)"), "(sum x -1)");
  EXPECT_EQ(tree("sum(x, -0x1)"), "(sum x -1)");
  EXPECT_EQ(tree("sum(x, +-(+(-(2))))"), "(sum x 2)");
  EXPECT_EQ(tree("sum(x, [-(1), 0, -(-(-0b11))])"), "(sum x [-1 0 -3])");
  EXPECT_EQ(tree("sum(x, -1.5)"), "(sum x -1.5)");  // a fraction is the caller's to refuse (INVALID_AXIS)
  EXPECT_EQ(tree("sum(x, -5n)"), "(sum x -5n)");
  for (const char* text : {"sum(x, -(1))", "sum(x, [-+1])", "sum(x, - - -0x1)"}) {
    Result f = parse(text);
    ASSERT_EQ(f.p.code, SyntaxCode::ok) << text;
    EXPECT_EQ(f.p.nodes.size(), std::strchr(text, '[') ? 4u : 3u) << text;  // x, the number, (the list,) the call
    EXPECT_EQ(f.p.args.size(), std::strchr(text, '[') ? 3u : 2u) << text;
    const Node& a = f.node(f.arg(f.root(), 1));
    const Node& num = a.kind == Kind::list ? f.node(f.arg(a, 0)) : a;
    EXPECT_EQ(num.kind, Kind::number) << text;
    EXPECT_EQ(num.value, -1.0) << text;
    const char* from = std::strchr(text, '-');
    EXPECT_EQ(num.pos, from - text) << text;  // the span: from the first sign to the literal's end
    EXPECT_EQ(num.pos + num.len, static_cast<int>(std::strlen(text)) - (std::strchr(text, '[') ? 2 : 1)) << text;
  }
  // Elsewhere `-` stays an op.
  EXPECT_EQ(tree("-(1) + x"), "(add (neg 1) x)");
  // Axis positions take numbers (signed), strings and lists; anything else is bad_axis.
  EXPECT_EQ(tree("sum(x, y)"), "bad_axis@7+1");
  EXPECT_EQ(tree("sum(x, 1 + 1)"), "bad_axis@7+5");
  EXPECT_EQ(tree("sum(x, [y])"), "bad_axis@8+1");
  EXPECT_EQ(tree("sum(x, [[1]])"), "bad_axis@8+3");
  EXPECT_EQ(tree("sum(x, -y)"), "bad_axis@7+2");
  EXPECT_EQ(tree("sum(x, ~0)"), "bad_axis@7+2");
  EXPECT_EQ(tree("sum(x, [-(1 + 1)])"), "bad_axis@8+8");
  EXPECT_EQ(tree("sum(x, [1,])"), "unexpected_token@10+1");
  EXPECT_EQ(tree("sum(x, [1 2])"), "unexpected_token@10+1");
  EXPECT_EQ(tree("sum(x, [1"), "unexpected_end@9+0");
  EXPECT_EQ(tree("sum('x')"), "arg_kind@4+3");
  EXPECT_EQ(tree("sum([1])"), "arg_kind@4+3");
}

// ---- literals --------------------------------------------------------------
double value_of(const std::string& text) {
  Result r = parse(text);
  EXPECT_EQ(r.p.code, SyntaxCode::ok) << text << ": " << tree(r);
  if (r.p.code != SyntaxCode::ok) return -12345;
  EXPECT_EQ(r.root().kind, Kind::number) << text;
  EXPECT_FALSE(r.root().is_bigint) << text;
  return r.root().value;
}

TEST(ExprParse, NumberValuesAreJavaScripts) {
  EXPECT_EQ(value_of("0x10"), 16.0);
  EXPECT_EQ(value_of("0XfF"), 255.0);
  EXPECT_EQ(value_of("0o17"), 15.0);
  EXPECT_EQ(value_of("0O17"), 15.0);
  EXPECT_EQ(value_of("0b101"), 5.0);
  EXPECT_EQ(value_of("0B1_1"), 3.0);
  EXPECT_EQ(value_of("1e3"), 1000.0);
  EXPECT_EQ(value_of("1E+3"), 1000.0);
  EXPECT_EQ(value_of("25e-1"), 2.5);
  EXPECT_EQ(value_of(".5"), 0.5);
  EXPECT_EQ(value_of("5."), 5.0);
  EXPECT_EQ(value_of("5.e1"), 50.0);
  EXPECT_EQ(value_of("0"), 0.0);
  EXPECT_FALSE(std::signbit(value_of("0.0e5")));
  EXPECT_EQ(value_of("0.5"), 0.5);
  EXPECT_EQ(value_of("0e7"), 0.0);
  EXPECT_EQ(value_of("1_000"), 1000.0);
  EXPECT_EQ(value_of("1_000.000_1e0_1"), 10000.001);
  EXPECT_EQ(value_of("0x1_F"), 31.0);
  EXPECT_EQ(value_of("0.1"), 0.1);
  EXPECT_EQ(value_of("0.30000000000000004"), 0.1 + 0.2);
  EXPECT_EQ(value_of("1.7976931348623157e308"), 1.7976931348623157e308);
  EXPECT_EQ(value_of("1.7976931348623159e308"), INFINITY);
  EXPECT_EQ(value_of("1e400"), INFINITY);
  EXPECT_EQ(value_of("1e99999999999999999999"), INFINITY);
  EXPECT_EQ(value_of("1e-400"), 0.0);
  EXPECT_EQ(value_of("5e-324"), 5e-324);
  EXPECT_EQ(value_of("0.000001e-99999999999"), 0.0);
  // Round to nearest, ties to even, decimal and not.
  EXPECT_EQ(value_of("9007199254740993"), 9007199254740992.0);
  EXPECT_EQ(value_of("9007199254740995"), 9007199254740996.0);
  EXPECT_EQ(value_of("9007199254740993.0000000000000000000001"), 9007199254740994.0);
  EXPECT_EQ(value_of("0x20000000000001"), 9007199254740992.0);
  EXPECT_EQ(value_of("0x20000000000003"), 9007199254740996.0);
  EXPECT_EQ(value_of("0b100000000000000000000000000000000000000000000000000011"), 9007199254740996.0);
  EXPECT_EQ(value_of("0x1fffffffffffff800"), 36893488147419103232.0);  // a tie: to even, up
  EXPECT_EQ(value_of("0x1ffffffffffffe800"), 36893488147419095040.0);  // a tie: to even, down
  EXPECT_EQ(value_of("0x1ffffffffffffe801"), 36893488147419103232.0 - 4096.0);  // past the tie: up
  EXPECT_EQ(value_of("0xffffffffffffffff"), 18446744073709551616.0);
  EXPECT_EQ(value_of("0o777777777777777777777"), 9223372036854775808.0);
  EXPECT_EQ(value_of("0x1" + std::string(255, '0')), std::ldexp(1.0, 1020));
  EXPECT_EQ(value_of("0x" + std::string(256, 'f')), INFINITY);
  EXPECT_EQ(value_of("0x" + std::string(256, '0') + "1"), 1.0);
  // Far more digits than a double holds: the tail still decides a tie. This
  // is 2^-1075 exactly (half the least subnormal: a tie, to even, 0); one
  // more 1 far behind it rounds up.
  const std::string half_min =
      "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772"
      "2858865463328355177969898199387398005390939063150356595155702263922908583924491051844359318028499365361525003193"
      "7045767824921936562366986365848075700158576926990370631192827955855133292783433840935197801553124659726357957462"
      "2766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968"
      "9513405355374585166611342237666786041621596804619144672918403005300575308490487653917113865916462395249126236538"
      "8187963623937328042389101867234849766823508986338858792562830275599565752445550725518931369083625477918694866799"
      "4968324049705821028513185451396213837722826145437693412532098591327667236328125";
  EXPECT_EQ(value_of(half_min + "e-324"), 0.0);
  EXPECT_EQ(value_of(half_min + std::string(3000, '0') + "1e-324"), 5e-324);
  EXPECT_EQ(value_of("0." + std::string(5000, '0') + "1e5001"), 1.0);
  EXPECT_EQ(value_of("0." + std::string(5000, '0') + "1e5000"), 0.1);
  EXPECT_EQ(value_of(std::string(400, '9')), INFINITY);
  EXPECT_EQ(value_of("1" + std::string(308, '0')), 1e308);
}

TEST(ExprParse, BigIntLiterals) {
  struct B {
    const char* text;
    std::int64_t bits;
  };
  const B cases[] = {{"5n", 5},
                     {"0n", 0},
                     {"1_000n", 1000},
                     {"0x1fn", 31},
                     {"0o7n", 7},
                     {"0b11n", 3},
                     {"9223372036854775807n", INT64_MAX},
                     {"0x7fffffffffffffffn", INT64_MAX},
                     {"9007199254740993n", 9007199254740993}};
  for (const B& c : cases) {
    Result r = parse(c.text);
    ASSERT_EQ(r.p.code, SyntaxCode::ok) << c.text;
    EXPECT_TRUE(r.root().is_bigint) << c.text;
    EXPECT_EQ(r.root().bits, c.bits) << c.text;
    EXPECT_EQ(r.root().value, static_cast<double>(c.bits)) << c.text;
  }
  EXPECT_EQ(tree("-5n"), "(neg 5n)");
  // Any BigInt literal is valid (JavaScript has no bound): its bits are the
  // value modulo 2^64, as BigInt64Array / BigUint64Array store it, and its
  // value Number() of the whole integer, correctly rounded.
  struct W {
    const char* text;
    std::uint64_t bits;
    double value;
  };
  const W wide[] = {
      {"9223372036854775808n", 0x8000000000000000u, 9223372036854775808.0},
      {"0x8000000000000000n", 0x8000000000000000u, 9223372036854775808.0},
      {"0xFFFFFFFFFFFFFFFFn", 0xFFFFFFFFFFFFFFFFu, 18446744073709551616.0},
      {"18446744073709551615n", 0xFFFFFFFFFFFFFFFFu, 18446744073709551616.0},
      {"18446744073709551616n", 0, 18446744073709551616.0},
      {"18446744073709551621n", 5, 18446744073709551616.0},
      {"0x1_0000_0000_0000_0005n", 5, 18446744073709551616.0},
      {"0o2000000000000000000005n", 5, 18446744073709551616.0},
      {"99999999999999999999999n", 0x2c7e14af67fffffu, 1e23},
      {"9007199254740993n", 9007199254740993u, 9007199254740992.0},  // rounds half to even
      {"9007199254740995n", 9007199254740995u, 9007199254740996.0},
  };
  for (const W& c : wide) {
    Result r = parse(c.text);
    ASSERT_EQ(r.p.code, SyntaxCode::ok) << c.text;
    EXPECT_TRUE(r.root().is_bigint) << c.text;
    EXPECT_EQ(static_cast<std::uint64_t>(r.root().bits), c.bits) << c.text;
    EXPECT_EQ(r.root().value, c.value) << c.text;
  }
  EXPECT_EQ(tree("x + 99999999999999999999999n"), "(add x 200376420520689663n)");
  EXPECT_EQ(value_of(std::string(400, '9')), INFINITY);
  {
    Result r = parse(std::string(400, '9') + "n");
    ASSERT_EQ(r.p.code, SyntaxCode::ok);
    EXPECT_EQ(r.root().value, INFINITY);
  }
  // A folded sign negates the bits modulo 2^64.
  {
    Result r = parse("sum(x, -0xFFFFFFFFFFFFFFFFn)");
    ASSERT_EQ(r.p.code, SyntaxCode::ok);
    EXPECT_EQ(r.node(r.arg(r.root(), 1)).bits, 1);
    EXPECT_EQ(r.node(r.arg(r.root(), 1)).value, -18446744073709551616.0);
  }
  for (const char* bad : {"1.5n", "1.n", ".5n", "1e3n", "08n", "00n", "0_1n", "1_n", "5nn", "5n1"}) {
    EXPECT_EQ(tree(bad), "bad_number@0+" + std::to_string(std::strlen(bad))) << bad;
  }
  EXPECT_EQ(value_of("0.5"), 0.5);  // a fraction is no BigInt
}

TEST(ExprParse, MalformedNumbers) {
  // The span covers the malformed literal and the rest of its word.
  const char* whole[] = {"1e",     "1E",   "0x",    "0X",   "0o",   "0b",  "0b2",  "0o8",   "0xg",   "1__0", "1_",
                         "1._5", "1e_5",  "1e5_", "0_1",  "08",  "012",  "00",    "0x_1", "0x1_",
                         "5x",     "3in",  "1.5e3x", "0b12", "0x1g", "1e+_1", "5._", "1ee5", "0xn",   "1$",   "1_e5"};
  for (const char* t : whole) EXPECT_EQ(tree(t), "bad_number@0+" + std::to_string(std::strlen(t))) << t;
  EXPECT_EQ(tree("1e+"), "bad_number@0+3");
  EXPECT_EQ(tree("1_.5"), "bad_number@0+2");  // the word ends at the dot
  EXPECT_EQ(tree("09.5"), "bad_number@0+2");
  EXPECT_EQ(tree("1e- 5"), "bad_number@0+3");
  EXPECT_EQ(tree("a * 1e+ b"), "bad_number@4+3");
  EXPECT_EQ(tree("1..5"), "unexpected_token@2+2");   // 1. then .5
  EXPECT_EQ(tree("1.5.5"), "unexpected_token@3+2");  // 1.5 then .5
  EXPECT_EQ(tree("0.5"), "0.5");
}

// ---- names, inputs, strings, spans ------------------------------------------
TEST(ExprParse, InputsInOrderOfFirstAppearance) {
  Result r = parse("b * a + b - $c_1 / _ + a");
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  ASSERT_EQ(r.p.name_pos.size(), 4u);
  EXPECT_EQ(r.name(0), "b");
  EXPECT_EQ(r.name(1), "a");
  EXPECT_EQ(r.name(2), "$c_1");
  EXPECT_EQ(r.name(3), "_");
  int inputs = 0;
  for (const Node& n : r.p.nodes) {
    if (n.kind != Kind::input) continue;
    ++inputs;
    EXPECT_EQ(r.slice(n.pos, n.len), r.name(n.index));
  }
  EXPECT_EQ(inputs, 6);
  // A name that is a prefix of another is another name.
  r = parse("ab + a + abc");
  EXPECT_EQ(r.p.name_pos.size(), 3u);
}

// Nodes are in post-order, the root last, each used once: the lowering walks
// them by index.
TEST(ExprParse, NodesInPostOrder) {
  for (const char* text : {"a*b + c*d - e", "where(x > 0, -x, x ** 2) / (y ? 1 : 2)", "sum(cast(x, 'f') * w, [-1, 'in'])",
                           "-(-(-a))", "max(e)", "a ? b ? c : d : e ? f : g", "hypot(a, b) ** -c * d"}) {
    Result r = parse(text);
    ASSERT_EQ(r.p.code, SyntaxCode::ok) << text;
    const int n = static_cast<int>(r.p.nodes.size());
    EXPECT_EQ(r.p.root, n - 1) << text;
    std::vector<int> uses(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < n; ++i) {
      const Node& nd = r.node(i);
      if (nd.kind != Kind::call && nd.kind != Kind::list) continue;
      for (int k = 0; k < nd.count; ++k) {
        const int a = r.arg(nd, k);
        EXPECT_LT(a, i) << text;
        if (a >= 0 && a < n) ++uses[static_cast<std::size_t>(a)];
      }
    }
    for (int i = 0; i < n; ++i) EXPECT_EQ(uses[static_cast<std::size_t>(i)], i == n - 1 ? 0 : 1) << text << " node " << i;
    EXPECT_EQ(r.p.args.size(), static_cast<std::size_t>(n - 1)) << text;
  }
}

TEST(ExprParse, HostileNamesArePlainNames) {
  Result r = parse("__proto__ + constructor * valueOf - toString + hasOwnProperty + __proto__");
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  ASSERT_EQ(r.p.name_pos.size(), 5u);
  EXPECT_EQ(r.name(0), "__proto__");
  EXPECT_EQ(r.name(1), "constructor");
  EXPECT_EQ(r.name(2), "valueOf");
  EXPECT_EQ(r.name(4), "hasOwnProperty");
  EXPECT_EQ(tree("constructor(x)"), "unknown_function@0+11");
  EXPECT_EQ(tree("__proto__(x)"), "unknown_function@0+9");
  EXPECT_EQ(tree("valueOf()"), "unknown_function@0+7");
  EXPECT_EQ(tree("NaN + Infinity + undefined + true"), "(add (add (add NaN Infinity) undefined) true)");
}

TEST(ExprParse, Spans) {
  Result r = parse(" (a + b) * c ");
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  EXPECT_EQ(r.root().pos, 1);  // the parentheses belong to the product
  EXPECT_EQ(r.root().len, 11);
  const Node& sum = r.node(r.arg(r.root(), 0));
  EXPECT_EQ(sum.pos, 2);  // not to the sum
  EXPECT_EQ(sum.len, 5);
  r = parse("-x + +y");
  const Node& neg = r.node(r.arg(r.root(), 0));
  EXPECT_EQ(neg.pos, 0);
  EXPECT_EQ(neg.len, 2);
  EXPECT_EQ(r.root().len, 7);  // + y: no node, but the sum spans it
  r = parse("cast(x, 'float32')");
  const Node& str = r.node(r.arg(r.root(), 1));
  EXPECT_EQ(str.kind, Kind::string);
  EXPECT_EQ(r.slice(str.pos + 1, str.len - 2), "float32");
  EXPECT_EQ(r.root().pos, 0);
  EXPECT_EQ(r.root().len, 18);
  r = parse("a ? b : c");
  EXPECT_EQ(r.root().len, 9);
}

TEST(ExprParse, StringsOnlyWhereAllowed) {
  Result r = parse16(u"cast(x, 'd\u00e9\u4e2d')");  // any UTF-16 unit inside a string
  EXPECT_EQ(r.p.code, SyntaxCode::ok);
  EXPECT_EQ(tree("x + 'a'"), "arg_kind@4+3");
  EXPECT_EQ(tree("'a' * x"), "arg_kind@0+3");
  EXPECT_EQ(tree("'a'"), "arg_kind@0+3");
  EXPECT_EQ(tree("('a')"), "arg_kind@0+5");
  EXPECT_EQ(tree("[1, 2]"), "arg_kind@0+6");
  EXPECT_EQ(tree("-'a'"), "arg_kind@1+3");
  EXPECT_EQ(tree("+'a'"), "arg_kind@1+3");
  EXPECT_EQ(tree("'a' ? x : y"), "arg_kind@0+3");
  EXPECT_EQ(tree("c ? 'a' : y"), "arg_kind@4+3");
  EXPECT_EQ(tree("2 ** 'a'"), "arg_kind@5+3");
  EXPECT_EQ(tree("'a' ** 2"), "arg_kind@0+3");
  EXPECT_EQ(tree("add(x, 'a')"), "arg_kind@7+3");
  EXPECT_EQ(tree("where(x, [1], y)"), "arg_kind@9+3");
  EXPECT_EQ(tree("exp('a')"), "arg_kind@4+3");
  EXPECT_EQ(tree("cast(x, float32)"), "arg_kind@8+7");
  EXPECT_EQ(tree("cast('float32', x)"), "arg_kind@5+9");
  EXPECT_EQ(tree("cast(x, ['float32'])"), "arg_kind@8+11");
  EXPECT_EQ(tree("cast(x, 'f' + 1)"), "arg_kind@8+3");
  EXPECT_EQ(tree("cast(x, 'a\\n')"), "unexpected_char@10+1");  // no escapes
  EXPECT_EQ(tree("cast(x, 'abc"), "unterminated_string@8+4");
  EXPECT_EQ(tree("cast(x, \"ab')"), "unterminated_string@8+5");
  EXPECT_EQ(tree("cast(x, 'ab\nc')"), "unterminated_string@8+3");
}

// ---- every error code, with its span ----------------------------------------
TEST(ExprParse, EveryErrorCodeAndSpan) {
  const Row rows[] = {
      {"a # b", "unexpected_char@2+1"},
      {"a @", "unexpected_char@2+1"},
      {"`a`", "unexpected_char@0+1"},
      {"a \\ b", "unexpected_char@2+1"},
      {"a\vb", "unexpected_char@1+1"},
      {"a\fb", "unexpected_char@1+1"},
      {"a + )", "unexpected_token@4+1"},
      {"a + * b", "unexpected_token@4+1"},
      {")", "unexpected_token@0+1"},
      {"a)", "unexpected_token@1+1"},
      {"a ? b : c : d", "unexpected_token@10+1"},
      {"{a}", "unexpected_token@0+1"},
      {"a; b", "unexpected_token@1+1"},
      {"a += 1", "unexpected_token@2+2"},
      {"add(a, b,)", "unexpected_token@9+1"},
      {"add(,a)", "unexpected_token@4+1"},
      {"", "unexpected_end@0+0"},
      {" \t\r\n", "unexpected_end@4+0"},
      {"a +", "unexpected_end@3+0"},
      {"(a", "unexpected_end@2+0"},
      {"add(a, b", "unexpected_end@8+0"},
      {"-", "unexpected_end@1+0"},
      {"a ? b :", "unexpected_end@7+0"},
      {"foo(x)", "unknown_function@0+3"},
      {"x + y(1)", "unknown_function@4+1"},
      {"add(a)", "arg_count@0+6"},
      {"add(a, b, c)", "arg_count@0+12"},
      {"neg()", "arg_count@0+5"},
      {"where(a, b, c, d)", "arg_count@0+17"},
      {"sum()", "arg_count@0+5"},
      {"x + 'a'", "arg_kind@4+3"},
      {"-x ** 2", "unary_before_pow@0+2"},
      {"a + 1e", "bad_number@4+2"},
      {"'abc", "unterminated_string@0+4"},
      {"sum(x) + 1", "reduction_inside@0+6"},
      {"1 + sum(x)", "reduction_inside@4+6"},
      {"-sum(x)", "reduction_inside@1+6"},
      {"exp(max(x))", "reduction_inside@4+6"},
      {"sum(x) ? 1 : 0", "reduction_inside@0+6"},
      {"sum(mean(x, [1]), [0])", "reduction_inside@4+12"},
      {"sum(x + sum(y)) + prod(z)", "reduction_inside@0+15"},
  };
  for (const Row& row : rows) EXPECT_EQ(tree(row.text), row.want) << row.text;
  // The first error in the text wins.
  EXPECT_EQ(tree("a + # + 1e"), "unexpected_char@4+1");
  EXPECT_EQ(tree("foo(1e)"), "unknown_function@0+3");
  EXPECT_EQ(tree("add(1e)"), "bad_number@4+2");
  // Non-ASCII characters: unexpected_char at their offset (a surrogate pair is one).
  EXPECT_EQ(tree(parse16(u"a + \u00e9")), "unexpected_char@4+1");
  EXPECT_EQ(tree(parse16(u"x\u00a0+ y")), "unexpected_char@1+1");
  EXPECT_EQ(tree(parse16(u"x + \U0001F600")), "unexpected_char@4+2");
  EXPECT_EQ(tree(parse16(u"x + \xd800")), "unexpected_char@4+1");  // a lone surrogate
  EXPECT_EQ(tree(parse16(std::u16string(u"a\0b", 3))), "unexpected_char@1+1");
  // A failed parse leaves nothing behind.
  Result r = parse("a + b + #");
  EXPECT_EQ(r.p.root, -1);
  EXPECT_TRUE(r.p.nodes.empty());
  EXPECT_TRUE(r.p.name_pos.empty());
}

TEST(ExprParse, ReadsNothingPastN) {
  Parsed p;
  const std::u16string text = u"x+y";
  tc::expr::parse(text.data(), 2, p);
  EXPECT_EQ(p.code, SyntaxCode::unexpected_end);
  EXPECT_EQ(p.err_pos, 2);
  const std::u16string num = u"1e5";
  tc::expr::parse(num.data(), 2, p);
  EXPECT_EQ(p.code, SyntaxCode::bad_number);
  EXPECT_EQ(p.err_len, 2);
  const std::u16string str = u"'ab'";
  tc::expr::parse(str.data(), 3, p);
  EXPECT_EQ(p.code, SyntaxCode::unterminated_string);
  tc::expr::parse(nullptr, 0, p);
  EXPECT_EQ(p.code, SyntaxCode::unexpected_end);
  // Parsed is reused: a success after a failure is whole.
  tc::expr::parse(text.data(), 3, p);
  EXPECT_EQ(p.code, SyntaxCode::ok);
  EXPECT_EQ(p.nodes.size(), 3u);
}

// ---- limits ----------------------------------------------------------------
TEST(ExprParse, TooLong) {
  const std::u16string big(1 << 20, u'(');  // a 1 MB string: refused before it is read
  Parsed p;
  tc::expr::parse(big.data(), static_cast<int>(big.size()), p);
  EXPECT_EQ(p.code, SyntaxCode::too_long);
  EXPECT_EQ(p.err_pos, 0);
  EXPECT_EQ(p.err_len, 0);
  const std::u16string parens(100000, u'(');  // 100k '(': also over the length limit
  tc::expr::parse(parens.data(), static_cast<int>(parens.size()), p);
  EXPECT_EQ(p.code, SyntaxCode::too_long);
  std::string longest = "x";  // kMaxText units exactly: parsed
  while (static_cast<int>(longest.size()) + 2 <= tc::expr::kMaxText) longest += "+x";
  longest.resize(static_cast<std::size_t>(tc::expr::kMaxText), ' ');
  EXPECT_EQ(parse(longest).p.code, SyntaxCode::too_many_nodes);  // 32k+ nodes
  std::string longnum(static_cast<std::size_t>(tc::expr::kMaxText), '1');
  EXPECT_EQ(parse(longnum).p.code, SyntaxCode::ok);
  EXPECT_EQ(parse(longnum + "1").p.code, SyntaxCode::too_long);
}

TEST(ExprParse, TooDeep) {
  const int max = tc::expr::kMaxDepth;
  // The most '(' the length limit lets through: too deep, never a crash.
  const std::string parens(static_cast<std::size_t>(tc::expr::kMaxText), '(');
  EXPECT_EQ(tree(parens), "too_deep@" + std::to_string(max) + "+1");
  EXPECT_EQ(tree(std::string(static_cast<std::size_t>(max), '(') + "x" + std::string(static_cast<std::size_t>(max), ')')), "x");
  EXPECT_EQ(tree(std::string(static_cast<std::size_t>(max) + 1, '(') + "x" + std::string(static_cast<std::size_t>(max) + 1, ')')),
            "too_deep@" + std::to_string(max) + "+1");
  // Unary operators, right operands of **, calls, lists and ?: count too.
  std::string minus;
  for (int k = 0; k < max + 1; ++k) minus += "- ";
  EXPECT_EQ(tree(minus + "x"), "too_deep@" + std::to_string(2 * max) + "+1");
  std::string pow = "x";
  for (int k = 0; k < max + 1; ++k) pow += "**x";
  EXPECT_EQ(tree(pow), "too_deep@" + std::to_string(1 + 3 * max) + "+2");
  std::string calls;
  for (int k = 0; k < max + 1; ++k) calls += "exp(";
  EXPECT_EQ(tree(calls + "x"), "too_deep@" + std::to_string(3 + 4 * max) + "+1");
  std::string cond = "x";
  for (int k = 0; k < max + 1; ++k) cond += "?x:x";
  EXPECT_EQ(tree(cond).substr(0, 9), "too_deep@");
  std::string tilde(static_cast<std::size_t>(max) - 1, '~');
  EXPECT_EQ(tree("sum(x, [" + tilde + "1])").substr(0, 9), "too_deep@");
  // A long flat chain is not deep.
  std::string chain = "x";
  for (int k = 0; k < 2000; ++k) chain += k % 2 ? "+x" : "-x";
  EXPECT_EQ(parse(chain).p.code, SyntaxCode::ok);
}

TEST(ExprParse, TooManyNodes) {
  const int max = tc::expr::kMaxNodes;
  std::string ok = "x";  // 2k - 1 nodes for k names
  for (int k = 1; k < (max + 1) / 2; ++k) ok += "+x";
  Result r = parse(ok);
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  EXPECT_EQ(static_cast<int>(r.p.nodes.size()), max - 1);
  // The node past the limit is named: here the difference, spanning its operands.
  EXPECT_EQ(tree(ok + "-1"), "too_many_nodes@0+" + std::to_string(ok.size() + 2));
  EXPECT_EQ(tree(ok + "-1-1"), "too_many_nodes@0+" + std::to_string(ok.size() + 2));
  EXPECT_EQ(parse("-" + ok).p.nodes.size(), static_cast<std::size_t>(max));  // exactly the limit
  EXPECT_EQ(tree("-" + ok + "+1"), "too_many_nodes@" + std::to_string(ok.size() + 2) + "+1");  // a leaf: its token
  std::string many = "x";  // 5000 nodes' worth
  for (int k = 0; k < 2500; ++k) many += "*2";
  EXPECT_EQ(parse(many).p.code, SyntaxCode::too_many_nodes);
  std::string list = "sum(x, [0";  // list entries are nodes
  for (int k = 0; k < 5000; ++k) list += ",1";
  EXPECT_EQ(parse(list + "])").p.code, SyntaxCode::too_many_nodes);
}

TEST(ExprParse, TooManyInputs) {
  std::string text = "x0";
  for (int k = 1; k < tc::expr::kMaxInputs; ++k) text += "+x" + std::to_string(k);
  Result r = parse(text + "+x0+x63");  // 64 names, repeated: fine
  ASSERT_EQ(r.p.code, SyntaxCode::ok);
  EXPECT_EQ(static_cast<int>(r.p.name_pos.size()), tc::expr::kMaxInputs);
  const std::string more = text + " + x64";  // the 65th name
  EXPECT_EQ(tree(more), "too_many_inputs@" + std::to_string(more.size() - 3) + "+3");
}

}  // namespace
