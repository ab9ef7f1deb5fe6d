// Registry checks (registry_checks.cmake): library B's messages, in its own registry "app".
#pragma once
#include <cstdint>

namespace odr_b {
struct [[ringkernel::message]] Only { std::uint32_t value; };
}  // namespace odr_b
