#pragma once
#include <cstdint>
namespace order {
struct [[ringkernel::message]] Cyclic { std::int32_t n; };
}
