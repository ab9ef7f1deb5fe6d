// The runtime's public templates instantiated in a consumer's own translation unit, compiled with
// the consumer's flags, not the project's (-Wall -Wextra -Werror; one variant of the cmake tests
// builds it at -O3, where g++ has warnings that CI's -O2 builds of project code never show): the
// codec, the envelope, a queue's send/receive and its construction error.
#include <cstdint>
#include <cstdio>
#include <string>

#include "alpha.rk.h"
#include "ringkernel/codec.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/error.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/queue/message_queue.h"

int consumer_runtime_checks() {
  using Envelope = ringkernel::KernelMessage<consumer::Reading>;
  const consumer::Reading reading{9, consumer::Unit::kelvin, 1.5, {4, -3, 2, -1}};

  std::uint8_t bytes[ringkernel::max_envelope_encoded_size<consumer::Reading>];
  const Envelope sent = Envelope::create_data(1, 2, reading);
  const ringkernel::codec_result encoded = ringkernel::encode_envelope(sent, bytes, sizeof bytes);
  Envelope back{};
  const ringkernel::codec_result decoded = ringkernel::decode_envelope(bytes, encoded.size, back);
  if (encoded.status != ringkernel::codec_status::ok || decoded.status != ringkernel::codec_status::ok ||
      back.payload.sensor != 9 || back.payload.history[1] != -3) {
    std::fprintf(stderr, "envelope round trip failed\n");
    return 1;
  }

  ringkernel::SpscQueue<Envelope> spsc(ringkernel::QueueOptions{.capacity = 8});
  ringkernel::MpmcQueue<Envelope> mpmc(ringkernel::QueueOptions{.capacity = 8});
  Envelope got{};
  if (!spsc.try_send(sent).ok() || spsc.try_receive(got) != ringkernel::ReceiveStatus::ok ||
      !mpmc.try_send(got).ok() || mpmc.try_receive(got) != ringkernel::ReceiveStatus::ok ||
      got.payload.sensor != 9) {
    std::fprintf(stderr, "queue send/receive failed\n");
    return 1;
  }

  try {
    ringkernel::MpmcQueue<Envelope> bad(ringkernel::QueueOptions{.capacity = 3});
    std::fprintf(stderr, "a queue of capacity 3 was accepted\n");
    return 1;
  } catch (const ringkernel::Error& e) {
    if (std::string(e.what()).find("capacity 3 is not a power of two") == std::string::npos) {
      std::fprintf(stderr, "unexpected capacity error: %s\n", e.what());
      return 1;
    }
  }
  return 0;
}
