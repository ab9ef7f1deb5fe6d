// Copyright RingKernel authors.
// Registry checks (registry_checks.cmake): built twice, as library A and as library B
// (RK_ODR_LIB a or b), each with its own registry named "app" over other messages, at -O0 (where
// the compiler does not fold the tables into the callers). Both link into registry_odr_test.
#include <cstdint>

#include "app.registry.rk.h"

#define RK_ODR_CAT2(a, b) a##b
#define RK_ODR_CAT(a, b) RK_ODR_CAT2(a, b)

// One visitor type in both libraries: before the registries had keyed namespaces, dispatch<OdrCounter>
// had one symbol in both.
struct OdrCounter {
  int* calls;
  template <class T>
  void operator()(const T&) const { ++*calls; }
};

/// What this library's registry "app" says of `type_id`: its name, or "(none)"; `dispatched` is
/// set to whether dispatch called the visitor once.
const char* RK_ODR_CAT(odr_lookup_, RK_ODR_LIB)(std::uint32_t type_id, bool& dispatched) {
  int calls = 0;
  const std::uint64_t payload[1] = {0};
  dispatched = ringkernel::registry::app::dispatch(type_id, payload, OdrCounter{&calls}) && calls == 1;
  const ringkernel::message_info* info = ringkernel::registry::app::find(type_id);
  return info == nullptr ? "(none)" : info->name;
}
