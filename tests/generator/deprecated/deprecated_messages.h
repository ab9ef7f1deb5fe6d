// [[deprecated]] message types, a deprecated message as a field and a deprecated enum as a field, in
// a registry (tests generator_deprecated_messages_*, deprecated_checks.cmake): the code ringkernel-gen
// generates for them and the runtime templates instantiated for them compile under -Werror; only
// the user's own uses warn. Where this header itself names them it says so, as a user would.
#pragma once
#include <cstdint>

#include "user_deprecation.h"

namespace legacy {
enum class [[deprecated("use Mode2")]] Mode : std::uint8_t { off = 0, on = 1 };

struct [[deprecated("use Inner2"), ringkernel::message]] Inner {
  std::int16_t v;
};

// Map format and causal: the map decoder and the envelope's clock stamp instantiated for it too.
struct [[deprecated("use PingV2"), ringkernel::message(format = map, causal)]] OldPing {
  std::int32_t x;
  std::uint8_t tag[3];
};

struct [[ringkernel::message]] Holder {
  std::int32_t x;
  USER_DEPRECATION_OFF
  Mode mode;
  Inner inner;
  USER_DEPRECATION_ON
};

struct [[ringkernel::message]] PingV2 {
  std::int32_t x;
  std::int32_t y;
};
}  // namespace legacy
