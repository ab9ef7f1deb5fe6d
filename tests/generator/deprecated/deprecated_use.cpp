// Compile check under -Werror (tests generator_deprecated_messages_*): generated code and runtime
// templates instantiated for [[deprecated]] messages (legacy::OldPing, legacy::Inner) and a message
// with a deprecated enum field (legacy::Holder) do not warn. This file names the deprecated types
// only between USER_DEPRECATION_OFF and _ON, as a user would; RK_UNGUARDED_USE adds one use
// without them, which must still warn. RK_REGISTRY_USE_CUH includes .rk.cuh after .rk.h (the
// registry takes its types from there). Also compiled by nvcc as CUDA (a kernel dispatches).
#include <cstddef>
#include <cstdint>

#include "deprecated_messages.rk.h"
#ifdef RK_REGISTRY_USE_CUH
#define RINGKERNEL_REGISTRY_USE_CUH
#endif
#include "deprecated.registry.rk.h"
#include "ringkernel/codec.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/device_visitor.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/message_queue.h"

namespace reg = ringkernel::registry::deprecated;

struct counter {
  int* calls;
  template <class T>
  RINGKERNEL_HOST_DEVICE void operator()(const T&) const { ++*calls; }
};

// This file's own template names T (a local T, KernelMessage<T>): nvcc reports that for a
// deprecated T here, in the user's code, so it is guarded as the rest of the user's uses.
USER_DEPRECATION_OFF
template <class T>
RINGKERNEL_HOST_DEVICE int round_trip(const T& value) {
  ringkernel::MessageStamper stamper(1);
  auto message = ringkernel::KernelMessage<T>::create_data(1, 2, value);
  if constexpr (!ringkernel::KernelMessage<T>::causal) {
    if (!stamper.stamp_at(message, 5)) return -1;
  }
  std::uint8_t buffer[ringkernel::max_envelope_encoded_size<T>];
  const ringkernel::codec_result encoded = ringkernel::encode_envelope(message, buffer, sizeof buffer);
  ringkernel::KernelMessage<T> back{};
  const ringkernel::codec_result decoded = ringkernel::decode_envelope(buffer, encoded.size, back);
  int calls = 0;
  reg::dispatch_envelope(buffer, encoded.size, counter{&calls});
  const reg::kernel_message_slot slot = reg::make_kernel_message_slot(message);
  reg::dispatch_kernel_message(slot, counter{&calls});
  reg::dispatch(ringkernel::message_traits<T>::type_id, &value, counter{&calls});
  std::uint8_t plain[ringkernel::max_encoded_size<T>];
  T copy{};
  const ringkernel::codec_result p = ringkernel::encode(value, plain, sizeof plain);
  const bool same = ringkernel::decode(plain, p.size, copy).status == ringkernel::codec_status::ok;
  const bool ok = decoded.status == ringkernel::codec_status::ok && back == message && same;
  return ok && reg::contains_v<T> && reg::find(ringkernel::message_traits<T>::type_id) != nullptr ? calls : -1;
}
USER_DEPRECATION_ON

#if defined(__CUDACC__)
__global__ void route(const std::uint8_t* in, std::size_t size, int* out) {
  USER_DEPRECATION_OFF
  *out = round_trip(legacy::OldPing{}) + round_trip(legacy::Inner{});
  USER_DEPRECATION_ON
  reg::dispatch_envelope(in, size, ringkernel::on_device(counter{out}));
}
#endif

template <class Queue, class M>
int through_queue(Queue& queue, const M& message) {
  if (!queue.try_send(message).ok()) return 0;
  M got{};
  return queue.try_receive(got) == ringkernel::ReceiveStatus::ok ? 1 : 0;
}

int main() {
  int total = round_trip(legacy::Holder{}) + round_trip(legacy::PingV2{});
  std::uint8_t bytes[4] = {};
  USER_DEPRECATION_OFF
  total += round_trip(legacy::OldPing{3, {1, 2, 3}}) + round_trip(legacy::Inner{4});
  ringkernel::SpscQueue<ringkernel::KernelMessage<legacy::OldPing>> envelopes;
  total += through_queue(envelopes, ringkernel::KernelMessage<legacy::OldPing>::create_data(1, 2, legacy::OldPing{}));
  ringkernel::MpmcQueue<legacy::Inner> payloads;
  total += through_queue(payloads, legacy::Inner{5});
  total += static_cast<int>(ringkernel::describe_decode_failure<legacy::OldPing>(bytes, sizeof bytes).size());
  // nvcc hands its host compiler this line with reg::message_types spelled out as the list of the
  // registry's types, deprecated ones among them: under nvcc the user's line warns.
  total += static_cast<int>(ringkernel::describe_dispatch_failure<reg::message_types>(bytes, sizeof bytes).size());
  USER_DEPRECATION_ON
#ifdef RK_UNGUARDED_USE
  legacy::OldPing unguarded{};  // the user's own use: still a warning (an error under -Werror)
  total += unguarded.x;
#endif
  return total;
}
