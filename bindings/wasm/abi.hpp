// Shared between the rule exports (abi.cpp) and the data exports
// (data_abi.cpp): a data call runs the plan the preceding rule call left.
#pragma once

#include "core/plan.hpp"
#include "rules/rules.hpp"

tc::Plan& abi_plan();
tc::NamedPlan& abi_named_plan();
tc::Error& abi_error();
