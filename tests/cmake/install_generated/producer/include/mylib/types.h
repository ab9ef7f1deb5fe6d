#pragma once
#include <cstdint>

namespace mylib {
using Operand = std::int32_t;
}
