#pragma once
#include <cstdint>

#include "mylib/types.h"  // by the same include directory as messages.rk.h's include of this header

namespace mylib {
struct [[ringkernel::message(kernel = "Add", direction = input)]] AddRequest { Operand a, b; };
struct [[ringkernel::message(kernel = "Add", direction = output)]] AddResponse { std::int64_t sum; };

std::int64_t add(const AddRequest& request);
}  // namespace mylib
