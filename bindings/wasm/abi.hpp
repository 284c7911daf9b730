// Shared between the rule exports (abi.cpp) and the data exports
// (data_abi.cpp): a data call runs the plan the preceding rule call left.
#pragma once

#include "core/plan.hpp"
#include "rules/rules.hpp"

tc::Plan& abi_plan();
tc::NamedPlan& abi_named_plan();
tc::Error& abi_error();

// For data exports that plan and run in one call: abi_read_shapes decodes `n`
// shapes from the first `in_len` doubles of the request (false: malformed;
// a decoded shape may still be invalid, which the rule then reports).
bool abi_read_shapes(int in_len, tc::Shape* shapes, int n);
// The request (doubles JS wrote) and the response buffer, with their capacities.
const double* abi_request();
int abi_request_capacity();
double* abi_response(int* capacity);
