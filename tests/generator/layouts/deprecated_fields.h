// [[deprecated]] fields (not in the corpus registry): the generated headers use every field (layout
// and type checks, visit_fields) and must compile under -Werror all the same (tests
// generator_deprecated_*); only the user's own uses warn.
#pragma once
#include <cstdint>

namespace corpus::legacy {
struct [[ringkernel::message]] Reading {
  [[deprecated("use celsius")]] std::int32_t fahrenheit;
  [[deprecated]] std::uint8_t flags[2];
  float celsius;
};
}  // namespace corpus::legacy
