// The expression parser: JavaScript's expression syntax and precedence over
// operand names, numbers and the library's own function names. Hand-written,
// no recursion deeper than kMaxDepth, no allocation beyond the node list, every
// error a position: the text is read as UTF-16 code units (what a JS string
// holds), so an offset is a JS string index.
//
//   expr    := cond
//   cond    := or ( '?' cond ':' cond )?                  right-assoc
//   or      := and ( '||' and )*        and := bor ( '&&' bor )*
//   bor     := bxor ( '|' bxor )*       bxor := band ( '^' band )*
//   band    := eq ( '&' eq )*           eq := rel ( ('=='|'!='|'==='|'!==') rel )*
//   rel     := add ( ('<'|'<='|'>'|'>=') add )*
//   add     := mul ( ('+'|'-') mul )*   mul := pow ( ('*'|'/'|'%') pow )*
//   pow     := unary | postfix '**' pow  (right-assoc; a unary operand on the left is
//              a SyntaxError, as in JS: `-x ** 2`; `(-x) ** 2` and `2 ** -x` are fine)
//   unary   := ('-'|'+'|'!'|'~') unary | postfix
//   postfix := number | name | name '(' args ')' | '(' expr ')'
//   args    := arg (',' arg)*   arg := expr | string | '[' (number|string) (',' ...)* ']'
// Names: [A-Za-z_$][A-Za-z0-9_$]*; numbers: JS numeric literals (decimal with
// fraction and exponent, 0x 0o 0b, `_` separators, a BigInt suffix n); strings:
// '...' or "..." without escapes (dtype names, dim names).
#pragma once

#include <cstdint>
#include "core/pod_vector.hpp"

#include "core/contract.hpp"
#include "program.hpp"

namespace tc::expr {

// The limits are the contract's (contract.hpp; JS reads them as C.limits).
constexpr int kMaxText = kMaxExprText;     // UTF-16 units
constexpr int kMaxNodes = kMaxExprNodes;
constexpr int kMaxDepth = kMaxExprDepth;   // nesting of parentheses, calls and operators
constexpr int kMaxInputs = kMaxExprInputs; // distinct operand names

// What a call or an operator names. Operators map to the library's ops:
// + add, - sub, * mul, / div, % rem, ** pow, < less, <= lessEqual, > greater,
// >= greaterEqual, == === equal, != !== notEqual, && logicalAnd, || logicalOr,
// & bitwiseAnd, | bitwiseOr, ^ bitwiseXor, unary - neg, ! logicalNot,
// ~ bitwiseNot, c ? a : b where; unary + is no node at all (its operand).
enum class Fn : std::uint8_t {
  binary,   // op = Op (ops.def), 2 args
  unary,    // op = UnaryOp (unary.def), 1 arg
  where,    // 3 args
  cast,     // 2 args: an expression and a string (the dtype name)
  reduce,   // op = ReduceOp (reduce_ops.def order: sum prod min max mean), 1 or 2 args:
            // an expression and an axis list ('[' ... ']', a number or a string)
};

enum class Kind : std::uint8_t {
  input,   // an operand name: `index` = its input number (order of first appearance)
  number,  // a numeric literal: `value` (a BigInt's too: Number() of it) and, when `is_bigint`,
           // `bits`: the BigInt modulo 2^64 (what BigInt64Array / BigUint64Array store of it)
  string,  // a string literal: its text is [pos + 1, pos + len - 1) of the source
  list,    // an axis list: args are its entries (number or string nodes), `count` of them
  call,    // fn/op, args
};

struct Node {
  Kind kind;
  Fn fn = Fn::binary;
  std::uint8_t op = 0;
  bool is_bigint = false;
  std::int32_t pos = 0, len = 0;   // source span of the whole node (UTF-16 units)
  std::int32_t index = -1;         // input: its number
  std::int32_t first = -1;         // call / list: index into Parsed::args of the first arg
  std::int32_t count = 0;          // call / list: number of args
  double value = 0;
  std::int64_t bits = 0;
};

enum class SyntaxCode : std::uint8_t {
  ok,
  unexpected_char,     // a character no token starts with
  unexpected_token,    // a token where it cannot stand (the span is the token)
  unexpected_end,      // the text ended inside an expression
  unknown_function,    // name(...) where name is no function of the library
  arg_count,           // a function called with the wrong number of arguments
  arg_kind,            // a string or list where an expression must be, or the reverse
  unary_before_pow,    // -x ** 2
  bad_number,          // a malformed numeric literal (1e, 0x, 1__0, 08n, ...)
  unterminated_string,
  reduction_inside,    // a reduction that does not wrap the whole expression
  too_long,            // more than kMaxText units (pos 0)
  too_many_nodes,
  too_deep,
  too_many_inputs,
  bad_axis,            // a reduction's axis that is no number literal (signed), dim name or list of them
};

struct Parsed {
  SyntaxCode code = SyntaxCode::ok;
  std::int32_t err_pos = 0, err_len = 0;  // the offending span (UTF-16 units)
  PodVector<Node> nodes;
  PodVector<std::int32_t> args;          // call / list arguments (node indices)
  std::int32_t root = -1;
  // Input k's name is source[name_pos[k], name_pos[k] + name_len[k]).
  PodVector<std::int32_t> name_pos, name_len;
};

// Parse `n` UTF-16 units. Never throws; on error `code` and the span say why.
void parse(const char16_t* text, int n, Parsed& out);

}  // namespace tc::expr
