// The expression parser (parse.hpp): a lexer that reads one token at a time
// from an offset, and a precedence-climbing parser over JavaScript's binary
// operator levels. Every recursion passes through enter(), so the nesting is
// at most kMaxDepth (parentheses, calls, lists, unary operators, right-hand
// operands, ?: branches), whatever the text; errors stop the parse at once.
//
// What a successful parse leaves: the nodes in post-order (every argument
// before its call or list, the root last), each node but the root the argument
// of exactly one other, so a consumer can walk the tree by index without
// recursion (a left-associative chain `a+b+c+...` is as deep as it is long).
// Beyond parse.hpp's grammar: signs and parentheses around a number literal
// in an axis position (a reduction's second argument, a list entry) are folded
// into the number (`sum(x, -1)`, `sum(x, -(1))`, `[-+1, 0]`), and an empty list
// `[]` is a list of no axes, as the reduce functions' `axes: []`.
#include "parse.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "kernels/reduce.hpp"

namespace tc::expr {
namespace {

// ---- the function names: one table, generated from the .def files ---------
struct FnName {
  const char* name;
  Fn fn;
  std::uint8_t op;
  std::uint8_t min_args, max_args;
};

constexpr FnName kFunctions[] = {
#define TC_OP(e, js, result, domain) {js, Fn::binary, static_cast<std::uint8_t>(Op::e), 2, 2},
#include "kernels/ops.def"
#define TC_UNARY(e, js, result, domain) {js, Fn::unary, static_cast<std::uint8_t>(UnaryOp::e), 1, 1},
#include "kernels/unary.def"
    {"where", Fn::where, 0, 3, 3},
    {"cast", Fn::cast, 0, 2, 2},
#define TC_REDUCE_OP(e, kernel, merge) {#e, Fn::reduce, static_cast<std::uint8_t>(ReduceOp::e), 1, 2},
#include "kernels/reduce_ops.def"
};

// ---- tokens -----------------------------------------------------------------
enum class T : std::uint8_t {
  end, number, name, string, lparen, rparen, lbracket, rbracket, comma, question, colon,
  plus, minus, star, slash, percent, starstar, lt, le, gt, ge, eq, eqeq, ne, nene,
  andand, oror, amp, bar, caret, bang, tilde,
  other,  // a JavaScript punctuator this language does not have (=, ., ++, <<, ...)
  error,  // the lexer failed: Parser::code says why
};

struct Token {
  T t = T::end;
  std::int32_t pos = 0, len = 0;
  int end() const { return pos + len; }
};

// JavaScript's punctuators, longest first: a token is the first entry the
// text starts with. Those this language does not have are T::other (one
// token, so `a => b` or `a ** = b` fail on the right span).
struct Punct {
  char text[5];
  T t;
};
constexpr Punct kPunct[] = {
    {">>>=", T::other},
    {"**=", T::other}, {"<<=", T::other}, {">>>", T::other}, {">>=", T::other}, {"===", T::eqeq},
    {"!==", T::nene}, {"&&=", T::other}, {"||=", T::other}, {"?" "?=", T::other}, {"...", T::other},
    {"^=", T::other}, {"%=", T::other}, {"/=", T::other}, {"++", T::other}, {"+=", T::other}, {"--", T::other},
    {"-=", T::other}, {"**", T::starstar}, {"*=", T::other}, {"<<", T::other}, {"<=", T::le}, {">>", T::other},
    {">=", T::ge}, {"==", T::eq}, {"=>", T::other}, {"!=", T::ne}, {"&&", T::andand}, {"&=", T::other},
    {"||", T::oror}, {"|=", T::other}, {"??", T::other}, {"?.", T::other},
    {"(", T::lparen}, {")", T::rparen}, {"[", T::lbracket}, {"]", T::rbracket}, {",", T::comma},
    {":", T::colon}, {"~", T::tilde}, {"^", T::caret}, {"%", T::percent}, {"/", T::slash}, {"+", T::plus},
    {"-", T::minus}, {"*", T::star}, {"<", T::lt}, {">", T::gt}, {"=", T::other}, {"!", T::bang},
    {"&", T::amp}, {"|", T::bar}, {"?", T::question}, {".", T::other}, {"{", T::other}, {"}", T::other},
    {";", T::other},
};

// Binary operators: precedence (1 = loosest) and the Op they make; 0 = none.
// ** (level 10) is handled apart: right-associative, no unary left operand.
struct BinInfo {
  std::uint8_t prec;
  Op op;
};
BinInfo binary_info(T t) {
  switch (t) {
    case T::oror: return {1, Op::logical_or};
    case T::andand: return {2, Op::logical_and};
    case T::bar: return {3, Op::bitwise_or};
    case T::caret: return {4, Op::bitwise_xor};
    case T::amp: return {5, Op::bitwise_and};
    case T::eq: case T::eqeq: return {6, Op::equal};
    case T::ne: case T::nene: return {6, Op::not_equal};
    case T::lt: return {7, Op::less};
    case T::le: return {7, Op::less_equal};
    case T::gt: return {7, Op::greater};
    case T::ge: return {7, Op::greater_equal};
    case T::plus: return {8, Op::add};
    case T::minus: return {8, Op::sub};
    case T::star: return {9, Op::mul};
    case T::slash: return {9, Op::div};
    case T::percent: return {9, Op::rem};
    default: return {0, Op::add};
  }
}

bool is_digit(char16_t c) { return c >= '0' && c <= '9'; }
bool is_name_start(char16_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool is_name_part(char16_t c) { return is_name_start(c) || is_digit(c); }
int digit_value(char16_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

class Parser {
 public:
  Parser(const char16_t* s, int n, Parsed& out) : s_(s), n_(n), out_(out) {}

  void run() {
    if (!advance()) return;
    const int e = expression();
    if (e < 0) return;
    if (tok_.t != T::end) return fail_token(SyntaxCode::unexpected_token, tok_);
    if (!need_value(e, ext_pos_, ext_end_)) return;
    out_.root = e;
    // A reduction wraps the whole expression or stands nowhere: the first
    // reduction call other than the root, in source order, is refused.
    const Node* bad = nullptr;
    for (std::size_t i = 0; i < out_.nodes.size(); ++i) {
      const Node& nd = out_.nodes[i];
      if (nd.kind == Kind::call && nd.fn == Fn::reduce && static_cast<int>(i) != e && (bad == nullptr || nd.pos < bad->pos))
        bad = &nd;
    }
    if (bad != nullptr) fail(SyntaxCode::reduction_inside, bad->pos, bad->len);
  }

 private:
  const char16_t* s_;
  int n_;
  Parsed& out_;
  Token tok_;       // the current token
  int depth_ = 0;
  // Number literals: the decimal digits handed to strtod.
  static constexpr int kDigits = 780;  // > 767, the most a double's rounding can depend on

  bool failed() const { return out_.code != SyntaxCode::ok; }
  void fail(SyntaxCode c, int pos, int len) {
    if (failed()) return;
    out_.code = c;
    out_.err_pos = pos;
    out_.err_len = len;
  }
  void fail_token(SyntaxCode c, const Token& t) {
    if (t.t == T::end) c = SyntaxCode::unexpected_end;
    fail(c, t.pos, t.len);
  }

  // ---- lexer ----------------------------------------------------------------
  bool advance() {
    tok_ = lex(tok_.end());  // the first call: from 0
    return tok_.t != T::error;
  }

  // Not inlined into the grammar functions: its locals stay out of their frames.
  __attribute__((noinline)) Token lex(int i) {
    while (i < n_ && (s_[i] == ' ' || s_[i] == '\t' || s_[i] == '\r' || s_[i] == '\n')) ++i;
    Token t;
    t.pos = i;
    if (i >= n_) return t;  // T::end, len 0, pos n
    const char16_t c = s_[i];
    auto at = [&](int k) -> char16_t { return i + k < n_ ? s_[i + k] : 0; };
    auto punct = [&](T kind, int len) {
      t.t = kind;
      t.len = len;
      return t;
    };
    if (is_digit(c) || (c == '.' && is_digit(at(1)))) return lex_number(i);
    if (is_name_start(c)) {
      int j = i + 1;
      while (j < n_ && is_name_part(s_[j])) ++j;
      return punct(T::name, j - i);
    }
    if (c == '\'' || c == '"') return lex_string(i);
    // Punctuators: the longest one of kPunct that starts here.
    for (const Punct& p : kPunct) {
      int k = 0;
      while (p.text[k] != 0 && at(k) == static_cast<unsigned char>(p.text[k])) ++k;
      if (p.text[k] != 0) continue;
      if (p.text[0] == '?' && p.text[1] == '.' && is_digit(at(2))) continue;  // `a?.5:b` is `?` then `.5`
      return punct(p.t, k);
    }
    // No token starts here. A surrogate pair is one character (two units).
    int len = 1;
    if (c >= 0xD800 && c <= 0xDBFF && at(1) >= 0xDC00 && at(1) <= 0xDFFF) len = 2;
    fail(SyntaxCode::unexpected_char, i, len);
    t.t = T::error;
    return t;
  }

  Token lex_string(int i) {
    const char16_t q = s_[i];
    int j = i + 1;
    while (j < n_ && s_[j] != q) {
      if (s_[j] == '\n' || s_[j] == '\r') break;  // JS strings do not span lines
      if (s_[j] == '\\') {                         // no escapes in this language
        fail(SyntaxCode::unexpected_char, j, 1);
        return Token{T::error, j, 1};
      }
      ++j;
    }
    if (j >= n_ || s_[j] != q) {
      fail(SyntaxCode::unterminated_string, i, j - i);
      return Token{T::error, i, j - i};
    }
    return Token{T::string, i, j + 1 - i};
  }

  // A malformed literal: the span runs over the rest of the word it is in.
  Token bad_number(int i, int j) {
    while (j < n_ && (is_name_part(s_[j]))) ++j;
    fail(SyntaxCode::bad_number, i, j - i);
    return Token{T::error, i, j - i};
  }

  // Digits of `radix` with single `_` separators between digits, from j.
  // Returns the end, or -1 if a separator is misplaced. `any` = digits seen.
  int scan_digits(int j, int radix, bool& any) {
    any = false;
    while (j < n_) {
      const char16_t c = s_[j];
      if (c == '_') {
        if (!any || j + 1 >= n_ || digit_value(s_[j + 1]) >= radix) return -1;
        ++j;
        continue;
      }
      if (digit_value(c) >= radix) break;
      any = true;
      ++j;
    }
    return j;
  }

  Token lex_number(int i) {
    Token t{T::number, i, 0};
    num_value_ = 0;
    num_bigint_ = false;
    num_bits_ = 0;
    int j = i;
    int radix = 10;
    if (s_[i] == '0' && i + 1 < n_) {
      const char16_t p = s_[i + 1] | 0x20;
      radix = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
    }
    if (radix != 10) {
      bool any = false;
      j = scan_digits(i + 2, radix, any);
      if (j < 0 || !any) return bad_number(i, i + 2);
      const int digits_end = j;
      if (j < n_ && s_[j] == 'n') {
        num_bigint_ = true;
        ++j;
      }
      if (j < n_ && is_name_part(s_[j])) return bad_number(i, j);
      radix_value(i + 2, digits_end, radix);
      t.len = j - i;
      return t;
    }
    // Decimal: int part, fraction, exponent, BigInt suffix.
    bool any_int = false, any_frac = false;
    int int_end = scan_digits(i, 10, any_int);
    if (int_end < 0) return bad_number(i, i);
    // Strict mode: no legacy octal (012) or leading-zero decimal (08).
    if (any_int && s_[i] == '0' && int_end > i + 1) return bad_number(i, i);
    j = int_end;
    int frac_begin = j, frac_end = j;
    if (j < n_ && s_[j] == '.') {
      frac_begin = j + 1;
      if (frac_begin < n_ && s_[frac_begin] == '_') return bad_number(i, frac_begin);
      frac_end = scan_digits(frac_begin, 10, any_frac);
      if (frac_end < 0) return bad_number(i, frac_begin);
      j = frac_end;
    }
    long exp = 0;
    bool has_exp = false;
    if (j < n_ && (s_[j] | 0x20) == 'e') {
      has_exp = true;
      int k = j + 1;
      bool neg = false;
      if (k < n_ && (s_[k] == '+' || s_[k] == '-')) {
        neg = s_[k] == '-';
        ++k;
      }
      if (k < n_ && s_[k] == '_') return bad_number(i, k);
      bool any = false;
      const int e_end = scan_digits(k, 10, any);
      if (e_end < 0 || !any) return bad_number(i, e_end < 0 ? k : e_end);
      for (int m = k; m < e_end; ++m)
        if (s_[m] != '_' && exp < 100000000) exp = exp * 10 + (s_[m] - '0');
      if (neg) exp = -exp;
      j = e_end;
    }
    if (j < n_ && s_[j] == 'n') {
      // BigInt: an integer literal only (no fraction, dot or exponent).
      if (j != int_end || has_exp) return bad_number(i, j + 1);
      num_bigint_ = true;
      ++j;
      if (j < n_ && is_name_part(s_[j])) return bad_number(i, j);
      radix_value(i, int_end, 10);
      t.len = j - i;
      return t;
    }
    if (j < n_ && is_name_part(s_[j])) return bad_number(i, j);
#ifdef TC_HOST_NUMBERS
    (void)frac_begin, (void)exp;
    num_value_ = 0;  // the host gives decimal values (see decimal_value)
#else
    decimal_value(i, int_end, frac_begin, frac_end, exp);
#endif
    t.len = j - i;
    return t;
  }

  // An integer literal's digits [b, e) of `radix` (separators skipped): the
  // double JavaScript gives (round to nearest, ties to even), and for a
  // BigInt also its value modulo 2^64 as two's complement bits (what a
  // BigInt64Array or BigUint64Array stores of it: any length is a BigInt).
  void radix_value(int b, int e, int radix) {
    if (num_bigint_) {
      std::uint64_t v = 0;  // wraps: arithmetic modulo 2^64
      for (int k = b; k < e; ++k) {
        if (s_[k] == '_') continue;
        v = v * static_cast<std::uint64_t>(radix) + static_cast<std::uint64_t>(digit_value(s_[k]));
      }
      num_bits_ = static_cast<std::int64_t>(v);
#ifndef TC_HOST_NUMBERS
      if (radix == 10) {  // Number() of the whole integer, correctly rounded
        decimal_value(b, e, e, e, 0);
        return;
      }
#endif
    }
#ifdef TC_HOST_NUMBERS
    num_value_ = 0;  // the host gives every literal's value (see decimal_value)
    return;
#else
    const int w = radix == 16 ? 4 : radix == 8 ? 3 : 1;
    std::uint64_t mant = 0;  // the first 64 significant bits
    long shift = 0;          // bits dropped below them
    bool sticky = false;     // a dropped bit was 1
    for (int k = b; k < e; ++k) {
      if (s_[k] == '_') continue;
      const int d = digit_value(s_[k]);
      for (int bit = w - 1; bit >= 0; --bit) {
        const unsigned v = (d >> bit) & 1u;
        if (mant >> 63 == 0) {
          mant = mant << 1 | v;
        } else {
          ++shift;
          sticky |= v != 0;
        }
      }
    }
    if (mant == 0) {
      num_value_ = 0;
      return;
    }
    int bits = 64;
    while ((mant >> (bits - 1)) == 0) --bits;
    if (bits <= 53) {  // exact (shift is 0: the mantissa is not full)
      num_value_ = static_cast<double>(mant);
      return;
    }
    const int drop = bits - 53;
    std::uint64_t q = mant >> drop;
    const std::uint64_t rest = mant & ((std::uint64_t{1} << drop) - 1);
    const std::uint64_t half = std::uint64_t{1} << (drop - 1);
    if (rest > half || (rest == half && (sticky || (q & 1)))) ++q;
    if (shift > 100000) shift = 100000;  // far beyond 2^1024 anyway: Infinity
    num_value_ = std::ldexp(static_cast<double>(q), static_cast<int>(drop + shift));
    return;
#endif
  }

  // A decimal literal's value: its significant digits (at most kDigits, then
  // a sticky 1 if any digit beyond is not 0) as 0.DDD...e<exp>, by strtod,
  // which rounds correctly, as JavaScript does.
  // Not inlined: its digit buffer must not sit in the frames of the recursive
  // grammar functions.
  // With TC_HOST_NUMBERS (the wasm) there is none: the host gives decimal
  // values (expr-parse.js: JavaScript's Number() of the literal's text, read by
  // read_literals in expr_call.cpp), so no strtod in the wasm.
#ifndef TC_HOST_NUMBERS
  __attribute__((noinline)) void decimal_value(int int_b, int int_e, int frac_b, int frac_e, long exp) {
    char buf[kDigits + 32];
    int k = 0;
    buf[k++] = '0';
    buf[k++] = '.';
    long e10 = 0;
    bool started = false, sticky = false;
    int kept = 0;
    auto push = [&](char16_t c, bool int_part) {
      if (!started && c == '0') {
        if (!int_part) --e10;
        return;
      }
      started = true;
      if (int_part) ++e10;
      if (kept < kDigits) {
        buf[k++] = static_cast<char>(c);
        ++kept;
      } else if (c != '0') {
        sticky = true;
      }
    };
    for (int m = int_b; m < int_e; ++m)
      if (s_[m] != '_') push(s_[m], true);
    for (int m = frac_b; m < frac_e; ++m)
      if (s_[m] != '_') push(s_[m], false);
    if (!started) {
      num_value_ = 0;
      return;
    }
    if (sticky) buf[k++] = '1';
    long total = e10 + exp;
    if (total > 100000) total = 100000;  // far beyond any double: Infinity or 0
    if (total < -100000) total = -100000;
    buf[k++] = 'e';
    if (total < 0) {
      buf[k++] = '-';
      total = -total;
    }
    char rev[12];
    int r = 0;
    do {
      rev[r++] = static_cast<char>('0' + total % 10);
      total /= 10;
    } while (total > 0);
    while (r > 0) buf[k++] = rev[--r];
    buf[k] = 0;
    num_value_ = std::strtod(buf, nullptr);
  }
#endif

  double num_value_ = 0;
  bool num_bigint_ = false;
  std::int64_t num_bits_ = 0;

  // ---- nodes ----------------------------------------------------------------
  // Each grammar function returns its node (-1 once the parse failed) and
  // leaves the source it covered in ext_pos_/ext_end_ (parentheses and a unary
  // + included, which the node's span is not). Nothing on the recursive path
  // takes an address or returns a struct, so a level of nesting costs the
  // wasm shadow stack next to nothing.
  int ext_pos_ = 0, ext_end_ = 0;
  PodVector<std::int32_t> pending_;  // arguments of the calls being parsed

  int add_node(Kind kind, int pos, int end) {
    if (out_.nodes.size() >= static_cast<std::size_t>(kMaxNodes)) {
      fail(SyntaxCode::too_many_nodes, pos, end - pos);
      return -1;
    }
    Node nd;
    nd.kind = kind;
    nd.pos = pos;
    nd.len = end - pos;
    out_.nodes.push_back(nd);
    ext_pos_ = pos;
    ext_end_ = end;
    return static_cast<int>(out_.nodes.size()) - 1;
  }

  // A call node over the last `count` entries of pending_ (already checked).
  int call(Fn fn, std::uint8_t op, int count, int pos, int end) {
    const int id = add_node(Kind::call, pos, end);
    if (id < 0) return -1;
    Node& nd = out_.nodes[static_cast<std::size_t>(id)];
    nd.fn = fn;
    nd.op = op;
    nd.first = static_cast<std::int32_t>(out_.args.size());
    nd.count = count;
    take_pending(count);
    return id;
  }

  // Moves the last `count` pending arguments to the node's args.
  void take_pending(int count) {
    const std::size_t from = pending_.size() - static_cast<std::size_t>(count);
    for (std::size_t k = from; k < pending_.size(); ++k) out_.args.push_back(pending_[k]);
    pending_.resize(from);
  }

  Kind kind_of(int node) const { return out_.nodes[static_cast<std::size_t>(node)].kind; }
  // Operands of operators and functions must be values, not strings or lists.
  bool need_value(int node, int pos, int end) {
    const Kind k = kind_of(node);
    if (k != Kind::string && k != Kind::list) return true;
    fail(SyntaxCode::arg_kind, pos, end - pos);
    return false;
  }
  // need_value, then the node waits in pending_ for its call.
  bool operand(int node, int pos, int end) {
    if (!need_value(node, pos, end)) return false;
    pending_.push_back(node);
    return true;
  }

  bool enter(int pos, int len) {
    if (++depth_ <= kMaxDepth) return true;
    fail(SyntaxCode::too_deep, pos, len);
    return false;
  }
  void leave() { --depth_; }

  bool expect(T t) {
    if (tok_.t != t) {
      fail_token(SyntaxCode::unexpected_token, tok_);
      return false;
    }
    return advance();
  }

  // ---- grammar --------------------------------------------------------------
  // cond := binary(1) ( '?' cond ':' cond )?
  int expression() {
    const int c = binary(1);
    if (c < 0 || tok_.t != T::question) return c;
    const int pos = ext_pos_;
    if (!operand(c, pos, ext_end_) || !enter(tok_.pos, tok_.len) || !advance()) return -1;
    const int a = expression();
    if (a < 0 || !operand(a, ext_pos_, ext_end_) || !expect(T::colon)) return -1;
    const int b = expression();
    if (b < 0 || !operand(b, ext_pos_, ext_end_)) return -1;
    leave();
    return call(Fn::where, 0, 3, pos, ext_end_);
  }

  // Levels 1 (||) to 9 (* / %), left-associative: operators of level >= min.
  int binary(int min_prec) {
    int left = power();
    while (left >= 0) {
      const BinInfo bi = binary_info(tok_.t);
      if (bi.prec == 0 || bi.prec < min_prec) break;
      const int pos = ext_pos_;
      if (!operand(left, pos, ext_end_) || !enter(tok_.pos, tok_.len) || !advance()) return -1;
      const int right = binary(bi.prec + 1);
      if (right < 0 || !operand(right, ext_pos_, ext_end_)) return -1;
      leave();
      left = call(Fn::binary, static_cast<std::uint8_t>(bi.op), 2, pos, ext_end_);
    }
    return left;
  }

  // power := unary_expr (not followed by **) | postfix ( '**' power )?
  int power() {
    if (is_unary(tok_.t)) {
      const int u = unary();
      if (u >= 0 && tok_.t == T::starstar) {
        fail(SyntaxCode::unary_before_pow, ext_pos_, ext_end_ - ext_pos_);
        return -1;
      }
      return u;
    }
    const int base = postfix();
    if (base < 0 || tok_.t != T::starstar) return base;
    const int pos = ext_pos_;
    if (!operand(base, pos, ext_end_) || !enter(tok_.pos, tok_.len) || !advance()) return -1;
    const int exponent = power();
    if (exponent < 0 || !operand(exponent, ext_pos_, ext_end_)) return -1;
    leave();
    return call(Fn::binary, static_cast<std::uint8_t>(Op::pow), 2, pos, ext_end_);
  }

  static bool is_unary(T t) { return t == T::minus || t == T::plus || t == T::bang || t == T::tilde; }

  int unary() {
    if (!is_unary(tok_.t)) return postfix();
    const T op = tok_.t;
    const int pos = tok_.pos;
    if (!enter(pos, tok_.len) || !advance()) return -1;
    const int x = unary();
    if (x < 0 || !need_value(x, ext_pos_, ext_end_)) return -1;
    leave();
    if (op == T::plus) {  // no node: the operand, spanning the +
      ext_pos_ = pos;
      return x;
    }
    pending_.push_back(x);
    const UnaryOp u = op == T::minus ? UnaryOp::neg : op == T::bang ? UnaryOp::logical_not : UnaryOp::bitwise_not;
    return call(Fn::unary, static_cast<std::uint8_t>(u), 1, pos, ext_end_);
  }

  int postfix() {
    const int pos = tok_.pos, end = tok_.end();
    switch (tok_.t) {
      case T::number: {
        const int id = add_node(Kind::number, pos, end);
        if (id < 0) return -1;
        Node& nd = out_.nodes[static_cast<std::size_t>(id)];
        nd.value = num_value_;
        nd.is_bigint = num_bigint_;
        nd.bits = num_bits_;
        return advance() ? id : -1;
      }
      case T::string: {
        const int id = add_node(Kind::string, pos, end);
        return id >= 0 && advance() ? id : -1;
      }
      case T::name:
        if (!advance()) return -1;
        return tok_.t == T::lparen ? call_of(pos, end - pos) : input(pos, end - pos);
      case T::lparen: {
        if (!enter(pos, 1) || !advance()) return -1;
        const int e = expression();
        if (e < 0) return -1;
        const int close = tok_.end();
        if (!expect(T::rparen)) return -1;
        leave();
        ext_pos_ = pos;
        ext_end_ = close;
        return e;
      }
      case T::lbracket: return list();
      default: fail_token(SyntaxCode::unexpected_token, tok_); return -1;
    }
  }

  int input(int pos, int len) {
    int k = 0;
    const int count = static_cast<int>(out_.name_pos.size());
    for (; k < count; ++k) {
      const std::size_t j = static_cast<std::size_t>(k);
      if (out_.name_len[j] == len &&
          std::memcmp(s_ + out_.name_pos[j], s_ + pos, sizeof(char16_t) * static_cast<std::size_t>(len)) == 0)
        break;
    }
    if (k == count) {
      if (count >= kMaxInputs) {
        fail(SyntaxCode::too_many_inputs, pos, len);
        return -1;
      }
      out_.name_pos.push_back(pos);
      out_.name_len.push_back(len);
    }
    const int id = add_node(Kind::input, pos, pos + len);
    if (id >= 0) out_.nodes[static_cast<std::size_t>(id)].index = k;
    return id;
  }

  const FnName* lookup(int pos, int len) const {
    for (const FnName& f : kFunctions) {
      int k = 0;
      while (k < len && f.name[k] != 0 && f.name[k] == s_[pos + k]) ++k;
      if (k == len && f.name[k] == 0) return &f;
    }
    return nullptr;
  }

  // name '(' args ')', the current token being '('.
  int call_of(int pos, int len) {
    const FnName* f = lookup(pos, len);
    if (f == nullptr) {
      fail(SyntaxCode::unknown_function, pos, len);
      return -1;
    }
    const int count = items(f);
    if (count < 0) return -1;
    if (count < f->min_args || count > f->max_args) {
      fail(SyntaxCode::arg_count, pos, close_ - pos);
      return -1;
    }
    return call(f->fn, f->op, count, pos, close_);
  }

  // The arguments of a call of f, '(' args ')', or (f null) the entries of a
  // list, '[' entries ']', the current token being the opening one. Each
  // one's kind is checked as it comes (the first wrong one is named), the
  // count by the caller; they wait in pending_. Returns their count (-1 once
  // failed) and leaves the end of the closing token in close_.
  int items(const FnName* f) {
    const T closing = f != nullptr ? T::rparen : T::rbracket;
    if (!enter(tok_.pos, tok_.len) || !advance()) return -1;
    int count = 0;
    if (tok_.t != closing) {
      for (;;) {
        const bool axes = f == nullptr || (f->fn == Fn::reduce && count == 1);
        const int a = axes ? axis() : expression();
        if (a < 0) return -1;
        const Kind kind = kind_of(a);
        bool ok = kind != Kind::string && kind != Kind::list;  // an expression
        if (f == nullptr) {
          ok = kind == Kind::number || kind == Kind::string;  // a list entry
        } else {
          if (count == 1 && f->fn == Fn::cast) ok = kind == Kind::string;  // the dtype name
          if (axes) ok = !ok || kind == Kind::number;                       // a reduction's axes
        }
        if (!ok) {
          fail(axes ? SyntaxCode::bad_axis : SyntaxCode::arg_kind, ext_pos_, ext_end_ - ext_pos_);
          return -1;
        }
        pending_.push_back(a);
        ++count;
        if (tok_.t != T::comma) break;
        if (!advance()) return -1;
      }
    }
    const int close = tok_.end();
    if (!expect(closing)) return -1;
    leave();
    close_ = close;
    return count;
  }
  int close_ = 0;

  // An axis (a reduction's second argument, a list entry): an expression in
  // which a number literal under signs and parentheses (`-1`, `-(1)`, `-+1`,
  // `- -0x1`, `(2)`) is folded into one number node spanning them all, with
  // JavaScript's value (the host, which gives literal values, reads the span).
  int axis() {
    const int a = expression();
    if (a < 0) return -1;
    // Each `-` is a neg node made right after its operand (a unary + makes
    // none), so the chain is the last nodes, its arguments the last args.
    const std::size_t n = out_.nodes.size();
    std::size_t k = static_cast<std::size_t>(a), negs = 0;
    while (k + 1 == n - negs && k > 0) {
      const Node& nd = out_.nodes[k];
      if (nd.kind != Kind::call || nd.fn != Fn::unary || nd.op != static_cast<std::uint8_t>(UnaryOp::neg) ||
          nd.count != 1 || nd.first != static_cast<std::int32_t>(out_.args.size() - 1 - negs) ||
          out_.args[static_cast<std::size_t>(nd.first)] != static_cast<std::int32_t>(k - 1))
        break;
      --k;
      ++negs;
    }
    if (negs == 0 || out_.nodes[k].kind != Kind::number) return a;
    const Node& outer = out_.nodes[static_cast<std::size_t>(a)];
    Node& num = out_.nodes[k];
    if (negs % 2 == 1) {
      num.value = -num.value;
      num.bits = static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(num.bits));  // modulo 2^64
    }
    num.pos = outer.pos;
    num.len = outer.len;
    out_.nodes.resize(k + 1);
    out_.args.resize(out_.args.size() - negs);
    return static_cast<int>(k);
  }

  // '[' (entry (',' entry)*)? ']' with entries numbers or strings.
  int list() {
    const int pos = tok_.pos;
    const int count = items(nullptr);
    if (count < 0) return -1;
    const int close = close_;
    const int id = add_node(Kind::list, pos, close);
    if (id < 0) return -1;
    Node& nd = out_.nodes[static_cast<std::size_t>(id)];
    nd.first = static_cast<std::int32_t>(out_.args.size());
    nd.count = count;
    take_pending(count);
    return id;
  }
};

}  // namespace

void parse(const char16_t* text, int n, Parsed& out) {
  out.code = SyntaxCode::ok;
  out.err_pos = out.err_len = 0;
  out.nodes.clear();
  out.args.clear();
  out.root = -1;
  out.name_pos.clear();
  out.name_len.clear();
  if (n > kMaxText) {
    out.code = SyntaxCode::too_long;
    return;
  }
  if (n < 0 || text == nullptr) n = 0;
  Parser p(text, n, out);
  p.run();
  if (out.code != SyntaxCode::ok) {
    out.nodes.clear();
    out.args.clear();
    out.root = -1;
    out.name_pos.clear();
    out.name_len.clear();
  }
}

}  // namespace tc::expr
