#include <cstdio>

#include "alpha.rk.h"
#include "beta.rk.h"
#include "consumer.registry.rk.h"

namespace reg = ringkernel::registry::consumer;

int main() {
  using ringkernel::message_traits;
  static_assert(message_traits<consumer::Reading>::is_message);
  static_assert(message_traits<consumer::Summary>::causal);
  static_assert(message_traits<consumer::Reading>::kernel_id == message_traits<consumer::Summary>::kernel_id);

  const consumer::Reading reading{7, consumer::Unit::kelvin, 273.15, {1, 2, 3, 4}};
  int seen = 0;
  const bool found = reg::dispatch(message_traits<consumer::Reading>::type_id, &reading,
                                   [&](const auto& msg) {
                                     if constexpr (std::is_same_v<std::decay_t<decltype(msg)>, consumer::Reading>) {
                                       seen = static_cast<int>(msg.sensor);
                                     }
                                   });
  if (!found || seen != 7) {
    std::fprintf(stderr, "dispatch failed: found=%d seen=%d\n", found, seen);
    return 1;
  }
  if (reg::find(message_traits<consumer::Summary>::type_id) == nullptr) {
    std::fprintf(stderr, "registry lookup failed\n");
    return 1;
  }
#if defined(CONSUMER_HAS_CUDA)
  extern int consumer_device_checks();
  if (consumer_device_checks() != 0) return 1;
#endif
  std::puts("consumer ok");
  return 0;
}
