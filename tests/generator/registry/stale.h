// Registry checks (registry_checks.cmake): a registry made from this header as it stands, compiled
// with a .rk.h generated with RK_STALE_ID (Ping's type id changed) or RK_STALE_KERNEL (its kernel
// changed), must stop at the registry's static_assert: it is stale.
#pragma once
#include <cstdint>

namespace stale {

#if defined(RK_STALE_ID)
struct [[ringkernel::message(id = 0x30)]] Ping { std::uint32_t sequence; };
#elif defined(RK_STALE_KERNEL)
struct [[ringkernel::message(kernel = "Moved")]] Ping { std::uint32_t sequence; };
#else
struct [[ringkernel::message]] Ping { std::uint32_t sequence; };
#endif
struct [[ringkernel::message]] Pong { std::uint32_t sequence; };

}  // namespace stale
