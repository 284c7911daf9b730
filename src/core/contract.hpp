// The C++ side of the contract (contract.def): enums and limits every layer
// shares. The bindings hand the same lists to JavaScript, so nothing here is
// copied by hand anywhere else.
#pragma once

#include <cstdint>

#include "shape.hpp"

namespace tc {

// Stable error codes (spec §8). The numeric values are part of the wasm ABI.
enum class Status : std::int32_t {
#define TC_STATUS(e, code) e,
#include "contract.def"
};

// Per output axis, per operand.
enum class Verdict : std::uint8_t {
#define TC_VERDICT(e, name) e,
#include "contract.def"
};

// Rules and actions a request names (bindings/wasm/wire.hpp).
enum class Rule : int {
#define TC_RULE(e, name, family) e,
#include "contract.def"
  count
};
enum class Action : int {
#define TC_ACTION(e, name) e,
#include "contract.def"
  count
};

// Most shapes one §1 call may have: each costs a Shape and an OperandPlan, and
// a failed allocation would abort the instance.
constexpr int kMaxOperands = 65536;
// The largest buffer a call may allocate: what wasm32 memory (4 GiB) can still
// hold beside the engine.
constexpr double kMaxBytes = 4294967296.0 - 67108864.0;
// Coordinates of one named dim.
constexpr i64 kMaxLabels = i64{1} << 26;
// Expressions (src/expr/parse.hpp): text, tree and names.
constexpr int kMaxExprText = 1 << 16;
constexpr int kMaxExprNodes = 4096;
constexpr int kMaxExprDepth = 256;
constexpr int kMaxExprInputs = 64;

const char* status_name(Status s);

}  // namespace tc
