#include <cstdio>
#include <type_traits>

#ifdef WITHOUT_REGISTRY
// No registry: the headers of the five calls, each on the target's include path.
#include "first.rk.h"
#include "last.rk.h"
#include "reg.rk.h"
#include "sibling.rk.h"
#include "top.rk.h"

int main() {
  constexpr std::uint32_t ids[] = {
      ringkernel::message_traits<regtest::First>::type_id, ringkernel::message_traits<regtest::Registered>::type_id,
      ringkernel::message_traits<regtest::Last>::type_id, ringkernel::message_traits<regtest::Top>::type_id,
      ringkernel::message_traits<regtest::Sibling>::type_id};
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = i + 1; j < 5; ++j) {
      if (ids[i] == ids[j]) return 1;
    }
  }
  std::puts("registry ok");  // the line check_registry.cmake looks for in both modes
  return 0;
}
#else
#include "app_messages.registry.rk.h"

namespace reg = ringkernel::registry::app_messages;

// Dispatches a message of type T with value `value` through the registry; true if the visitor got it
// as a T with that value.
template <typename T>
bool reaches(std::uint32_t value) {
  const T msg{value};
  std::uint32_t seen = 0;
  const bool found = reg::dispatch(ringkernel::message_traits<T>::type_id, &msg, [&](const auto& got) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(got)>, T>) {
      seen = got.value;
    }
  });
  return found && seen == value;
}

int main() {
  static_assert(reg::message_count == 5, "the registry has the messages of all five calls");
  if (!reaches<regtest::First>(1) || !reaches<regtest::Registered>(2) || !reaches<regtest::Last>(3) ||
      !reaches<regtest::Top>(4) || !reaches<regtest::Sibling>(5)) {
    std::fprintf(stderr, "dispatch did not reach a message of one of the calls\n");
    return 1;
  }
  std::puts("registry ok");
  return 0;
}
#endif
