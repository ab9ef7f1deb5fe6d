// Copyright RingKernel authors.
// detail::to_size(v): an unsigned count or position (std::uint64_t) as std::size_t, for a value the
// caller knows fits (a ring's capacity, a count bounded by one). On LP64 targets the two are one
// type, where a static_cast is "useless" to g++'s -Wuseless-cast (users' -Werror builds include
// these headers); elsewhere (32-bit hosts, Apple's unsigned long long std::uint64_t) it converts.
#pragma once

#include <cstddef>
#include <type_traits>

#include "ringkernel/config.h"

namespace ringkernel::detail {

template <class U>
  requires std::is_unsigned_v<U>
RINGKERNEL_HOST_DEVICE constexpr std::size_t to_size(U v) noexcept {
  if constexpr (std::is_same_v<U, std::size_t>) {
    return v;
  } else {
    return static_cast<std::size_t>(v);
  }
}

}  // namespace ringkernel::detail
