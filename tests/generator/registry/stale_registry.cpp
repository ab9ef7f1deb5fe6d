// Copyright RingKernel authors.
// Registry checks (registry_checks.cmake): includes the registry made from stale.h; compiles with the
// .rk.h generated from the same header, stops at the registry's staleness check with another one.
#include "stale.registry.rk.h"

int main() {
  int calls = 0;
  const stale::Pong pong{7};
  ringkernel::registry::stale::dispatch(ringkernel::message_traits<stale::Pong>::type_id, &pong,
                                        [&](const auto&) { ++calls; });
  return calls == 1 ? 0 : 1;
}
