// Registry checks (registry_checks.cmake): library A's messages, in its registry "app".
#pragma once
#include <cstdint>

namespace odr_a {
struct [[ringkernel::message]] First { std::uint32_t value; };
struct [[ringkernel::message]] Second { std::uint64_t value; };
struct [[ringkernel::message]] Third { std::uint16_t value; };
}  // namespace odr_a
