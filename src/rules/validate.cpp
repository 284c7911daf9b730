#include "rules.hpp"

namespace tc {

Status validate_shape(const Shape& s, int operand, bool allow_keep, Error& err) {
  if (s.rank == kUnknownRank) return Status::Ok;
  if (s.rank < 0 || s.rank > kMaxRank) {
    err = Error{};
    err.code = Status::InvalidShape;
    err.operand_a = operand;
    err.detail = s.rank;
    return err.code;
  }
  for (int i = 0; i < s.rank; ++i) {
    const Dim d = s.dims[i];
    const bool ok = d.is_keep() ? allow_keep : d.is_valid();
    if (!ok) {
      err = Error{};
      err.code = Status::InvalidShape;
      err.operand_a = operand;
      err.detail = i;
      err.dim_a = d;
      return err.code;
    }
  }
  return Status::Ok;
}

}  // namespace tc
