// The README's main job. Generated code (messages.rk.h, adder.registry.rk.h) gives the message
// traits, the layout proof, the MessagePack codec and dispatch by type id; the runtime gives devices
// and buffers. Requests go to a device, the Add kernel answers them there (CUDA) or on a host-backend
// virtual device, and the answers come back and leave as MessagePack.
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "adder.registry.rk.h"
#include "messages.rk.h"
#include "adder_logic.h"
#include "ringkernel/buffers.h"
#include "ringkernel/codec.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"

#if defined(ADDER_HAS_CUDA)
const char* adder_run_on_device(int ordinal, const void* requests, void* responses, int count);
#endif

namespace {

using ringkernel::message_traits;

void print_message_facts() {
  namespace reg = ringkernel::registry::adder;
  for (const auto& info : reg::messages) {
    std::printf("  %-16s id 0x%08x  kernel %-4s (0x%08x)  %2u bytes, align %u, %u fields\n", info.name,
                info.type_id, info.kernel, info.kernel_id, info.size, info.alignment, info.field_count);
  }
}

// The host-backend path: the device's bytes come back to the host and the same logic runs there.
void run_on_host(const ringkernel::DeviceBuffer& in, ringkernel::DeviceBuffer& out, int count) {
  std::vector<app::AddRequest> requests(static_cast<std::size_t>(count));
  std::vector<app::AddResponse> responses(requests.size());
  in.download(requests.data(), in.size());
  constexpr char worker[16] = "host";
  for (std::size_t i = 0; i < requests.size(); ++i) {
    ringkernel::registry::adder::dispatch(message_traits<app::AddRequest>::type_id, &requests[i],
                                          [&](const auto& msg) {
                                            if constexpr (std::is_same_v<std::decay_t<decltype(msg)>, app::AddRequest>) {
                                              responses[i] = app::handle(msg, worker);
                                            }
                                          });
  }
  out.upload(responses.data(), out.size());
}

int run(bool force_host) {
  std::vector<ringkernel::DeviceInfo> candidates;
  if (!force_host) candidates = ringkernel::devices(ringkernel::Backend::cuda);
  if (candidates.empty()) candidates = ringkernel::devices(ringkernel::Backend::host);
  if (candidates.empty()) {
    std::fprintf(stderr, "adder: no device at all (set RINGKERNEL_HOST_DEVICES >= 1)\n");
    return 1;
  }
  const ringkernel::DeviceInfo& device = candidates.front();
  std::printf("RingKernel adder example\ngenerated messages:\n");
  print_message_facts();
  std::printf("device %d: %s (%s backend)\n", device.id, device.name.c_str(), ringkernel::to_string(device.backend));

  constexpr int count = 4096;
  std::vector<app::AddRequest> requests(count);
  for (int i = 0; i < count; ++i) {
    requests[static_cast<std::size_t>(i)] = app::AddRequest{static_cast<std::uint64_t>(i), i * 3, -i,
                                                            i % 2 == 0 ? app::Op::add : app::Op::subtract};
  }
  ringkernel::DeviceBuffer in(device.id, sizeof(app::AddRequest) * count);
  ringkernel::DeviceBuffer out(device.id, sizeof(app::AddResponse) * count);
  in.upload(requests.data(), in.size());

  if (device.backend == ringkernel::Backend::cuda) {
#if defined(ADDER_HAS_CUDA)
    if (const char* error = adder_run_on_device(device.ordinal, in.data(), out.data(), count)) {
      std::fprintf(stderr, "adder: kernel failed: %s\n", error);
      return 1;
    }
#endif
  } else {
    run_on_host(in, out, count);
  }

  std::vector<app::AddResponse> responses(count);
  out.download(responses.data(), out.size());
  int wrong = 0;
  for (int i = 0; i < count; ++i) {
    const auto& r = responses[static_cast<std::size_t>(i)];
    const std::int64_t expected = i % 2 == 0 ? 2LL * i : 4LL * i;
    if (r.request_id != static_cast<std::uint64_t>(i) || r.result != expected) ++wrong;
  }
  std::printf("%d requests answered by the Add kernel on \"%s\", %d wrong\n", count, responses[0].worker, wrong);

  // The answers leave as MessagePack that any client reads.
  std::uint8_t wire[ringkernel::max_encoded_size<app::AddResponse>];
  const auto encoded = ringkernel::encode(responses[7], wire, sizeof wire);
  if (encoded.status != ringkernel::codec_status::ok) {
    std::fprintf(stderr, "adder: encode failed: %s\n", ringkernel::to_string(encoded.status));
    return 1;
  }
  std::printf("responses[7] as MessagePack (%zu bytes):", encoded.size);
  for (std::size_t i = 0; i < encoded.size; ++i) std::printf(" %02x", wire[i]);
  app::AddResponse decoded{};
  const auto back = ringkernel::decode(wire, encoded.size, decoded);
  const bool same = back.status == ringkernel::codec_status::ok &&
                    std::memcmp(&decoded, &responses[7], sizeof decoded) == 0;
  std::printf("\ndecoded back: %s\n", same ? "identical" : "DIFFERENT");
  return wrong == 0 && same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  bool force_host = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--host") {
      force_host = true;
    } else {
      std::fprintf(stderr, "usage: adder [--host]\n  --host  run on a host-backend device even if a GPU exists\n");
      return 2;
    }
  }
  try {
    return run(force_host);
  } catch (const ringkernel::Error& e) {
    std::fprintf(stderr, "adder: %s\n", e.what());
    return 1;
  }
}
