// Copyright RingKernel authors.
// Decoding a large message takes the stack its documented paths promise (docs/wire-format.md §1
// and §9): decode_envelope one message besides the caller's, the registry's dispatch_envelope one
// message in all. dispatch_envelope held two (its own and decode_envelope's), so a 1 MiB message
// overflowed a thread with 1.5 MiB of stack.
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "large.registry.rk.h"
#include "ringkernel/envelope_codec.h"

namespace {

using large_test::Bulk;
using ringkernel::codec_status;
using ringkernel::KernelMessage;

/// Runs `work` on a thread with `stack_bytes` of stack (a stack overflow crashes the test binary).
void run_with_stack(std::size_t stack_bytes, const std::function<void()>& work) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  pthread_t thread;
  auto* task = const_cast<std::function<void()>*>(&work);
  ASSERT_EQ(pthread_create(
                &thread, &attr,
                [](void* p) -> void* {
                  (*static_cast<std::function<void()>*>(p))();
                  return nullptr;
                },
                task),
            0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attr);
}

constexpr std::size_t message_bytes = sizeof(KernelMessage<Bulk>);
constexpr std::size_t stack_bytes = message_bytes + message_bytes / 2;  // room for one message

std::vector<std::uint8_t> encoded_bulk() {
  auto m = std::make_unique<KernelMessage<Bulk>>();
  m->header = KernelMessage<Bulk>::create_data(1, 2, Bulk{}).header;
  m->payload.id = 77;
  for (std::size_t i = 0; i < sizeof m->payload.data; ++i) m->payload.data[i] = static_cast<std::uint8_t>(i * 7);
  std::vector<std::uint8_t> out(ringkernel::max_envelope_encoded_size<Bulk>);
  const auto r = ringkernel::encode_envelope(*m, out.data(), out.size());
  EXPECT_EQ(r.status, codec_status::ok);
  out.resize(r.size);
  return out;
}

TEST(LargeMessages, DecodeEnvelopeTakesOneMessageOfStack) {
  static_assert(message_bytes > (1u << 20));
  const auto wire = encoded_bulk();
  auto m = std::make_unique<KernelMessage<Bulk>>();
  codec_status status = codec_status::invalid_input;
  run_with_stack(stack_bytes, [&] { status = ringkernel::decode_envelope(wire.data(), wire.size(), *m).status; });
  EXPECT_EQ(status, codec_status::ok);
  EXPECT_EQ(m->payload.id, 77u);
  EXPECT_EQ(m->payload.data[12345], static_cast<std::uint8_t>(12345 * 7));
}

TEST(LargeMessages, DispatchEnvelopeTakesOneMessageOfStack) {
  const auto wire = encoded_bulk();
  std::uint32_t id = 0;
  std::uint8_t sample = 0;
  codec_status status = codec_status::invalid_input;
  run_with_stack(stack_bytes, [&] {
    auto visitor = [&](const KernelMessage<Bulk>& m) {
      id = m.payload.id;
      sample = m.payload.data[54321];
    };
    status = ringkernel::registry::large::dispatch_envelope(wire.data(), wire.size(), visitor).status;
  });
  EXPECT_EQ(status, codec_status::ok);
  EXPECT_EQ(id, 77u);
  EXPECT_EQ(sample, static_cast<std::uint8_t>(54321 * 7));
}

}  // namespace
