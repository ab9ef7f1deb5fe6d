// The README's main job. Generated code (messages.rk.h, adder.registry.rk.h) gives the message
// traits, the layout proof, the MessagePack codec and the type table; the runtime gives devices,
// queues, envelopes and clocks. The Add ring kernel runs on a GPU (a persistent kernel) or, on a
// host-backend device, on a thread; the host sends it stamped request envelopes through one ring in
// pinned memory and receives answers stamped by the kernel's hybrid logical clock (which the host's
// clock merges) through another, then ends it with a terminate message. An answer leaves as
// MessagePack and comes back through the registry.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "adder.registry.rk.h"
#include "messages.rk.h"
#include "add_kernel_runner.h"
#include "add_service.h"
#include "ringkernel/device.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/error.h"
#include "ringkernel/hlc.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/message_queue.h"
#include "ringkernel/wall_clock_offset.h"

namespace {

using ringkernel::message_traits;

constexpr int request_count = 4096;
constexpr std::uint64_t kernel_idle_us = 10'000'000;  // the kernel ends 10 s after the last request
constexpr auto host_wait = std::chrono::seconds(10);   // the host's limit per send and receive
constexpr int exit_skipped = 77;                       // --gpu without a CUDA device (CTest: skipped)

enum class Where { any, host, gpu };

#if defined(ADDER_HAS_CUDA)
constexpr bool has_cuda_code = true;  // adder_kernel.cu is compiled in
#else
constexpr bool has_cuda_code = false;  // no CUDA code: CUDA devices are not used (AddKernelRunner)
#endif

void print_message_facts() {
  namespace reg = ringkernel::registry::adder;
  for (const auto& info : reg::messages) {
    std::printf("  %-16s id 0x%08x  kernel %-4s (0x%08x)  %2u bytes, align %u, %u fields\n", info.name,
                info.type_id, info.kernel, info.kernel_id, info.size, info.alignment, info.field_count);
  }
}

app::AddRequest request_number(int i) {
  return app::AddRequest{static_cast<std::uint64_t>(i), i * 3, -i, i % 2 == 0 ? app::Op::add : app::Op::subtract};
}
std::int64_t expected_result(int i) { return i % 2 == 0 ? 2LL * i : 4LL * i; }

/// What the host's receiving thread saw.
struct Received {
  std::vector<app::ResponseEnvelope> answers = std::vector<app::ResponseEnvelope>(request_count);
  int count = 0, wrong = 0, out_of_order = 0, skew_rejected = 0;
  std::string error;
};

// Receives every answer; checks it, that it answers the next request (one ring each way, one
// thread at each end: first in, first out), its sequence number (the kernel stamps them 0, 1, 2,
// ...) and that its HLC stamp follows the previous one; merges each stamp into the host's clock.
void receive_answers(ringkernel::SpscQueue<app::ResponseEnvelope>& responses, Received& out) {
  ringkernel::HybridLogicalClock host_clock;
  ringkernel::hlc_timestamp previous{};
  for (; out.count < request_count; ++out.count) {
    app::ResponseEnvelope r{};
    if (const ringkernel::ReceiveStatus s = responses.receive(r, host_wait); s != ringkernel::ReceiveStatus::ok) {
      out.error = std::string("receiving answer ") + std::to_string(out.count) + ": " + ringkernel::to_string(s);
      return;
    }
    const std::uint64_t id = r.payload.request_id;
    if (id >= request_count || r.payload.result != expected_result(static_cast<int>(id))) {
      ++out.wrong;
    } else {
      out.answers[id] = r;
    }
    const auto n = static_cast<std::uint64_t>(out.count);
    if (id != n || r.header.sequence != n || !(previous < r.header.hlc)) ++out.out_of_order;
    previous = r.header.hlc;
    const ringkernel::hlc_status merged = host_clock.update(r.header.hlc).status;
    if (merged == ringkernel::hlc_status::skew_rejected) ++out.skew_rejected;
    if (merged == ringkernel::hlc_status::exhausted || merged == ringkernel::hlc_status::wall_out_of_range) {
      // the host clock gives no stamps (a wall clock past 2112): no causal order to check any more
      out.error = std::string("merging answer ") + std::to_string(out.count) + "'s stamp: " + ringkernel::to_string(merged);
      return;
    }
  }
}

// Stamps and sends every request, then the terminate message. Empty, or why it stopped.
std::string send_requests(ringkernel::SpscQueue<app::RequestEnvelope>& requests) {
  ringkernel::MessageStamper stamper(app::client_id);  // AddRequest is not causal: no clock needed
  for (int i = 0; i <= request_count; ++i) {
    app::RequestEnvelope m = i < request_count
                                 ? app::RequestEnvelope::create_data(app::client_id, app::add_kernel_id, request_number(i))
                                 : app::RequestEnvelope::create_terminate(app::client_id, app::add_kernel_id);
    if (!stamper.stamp(m)) return "stamping refused";
    if (const ringkernel::SendResult r = requests.send(m, host_wait); !r.ok()) {
      return std::string("sending request ") + std::to_string(i) + ": " + ringkernel::to_string(r.status);
    }
  }
  return {};
}

// The answer to request 7 as a MessagePack envelope, printed, and decoded back by the registry's
// dispatch_envelope into its typed handler. True if it came back equal.
bool show_wire_form(const app::ResponseEnvelope& answer) {
  std::uint8_t wire[ringkernel::max_envelope_encoded_size<app::AddResponse>];
  const ringkernel::codec_result encoded = ringkernel::encode_envelope(answer, wire, sizeof wire);
  if (encoded.status != ringkernel::codec_status::ok) {
    std::fprintf(stderr, "adder: encode_envelope: %s\n", ringkernel::to_string(encoded.status));
    return false;
  }
  std::printf("answer 7 as a MessagePack envelope (%zu bytes):", encoded.size);
  for (std::size_t i = 0; i < encoded.size; ++i) std::printf(" %02x", wire[i]);
  std::printf("\n  (an array of 8: type id, sender, receiver, message type, sequence, timestamp in us, HLC stamp, "
              "payload [request_id, result, worker]; docs/wire-format.md, section 9)");
  bool same = false;
  const ringkernel::codec_result back =
      ringkernel::registry::adder::dispatch_envelope(wire, encoded.size, [&](const auto& envelope) {
        if constexpr (std::is_same_v<std::decay_t<decltype(envelope)>, app::ResponseEnvelope>) same = envelope == answer;
      });
  same = same && back.status == ringkernel::codec_status::ok;
  std::printf("\ndecoded back through the registry's dispatch_envelope: %s\n", same ? "identical" : "DIFFERENT");
  return same;
}

// Why no GPU is used: the cuda backend's reason as backend_statuses() says it (the driver's error,
// or a runtime built without the backend), or that this build of the example has no CUDA code.
std::string why_no_gpu() {
  for (const ringkernel::BackendStatus& s : ringkernel::backend_statuses()) {
    if (s.backend != ringkernel::Backend::cuda) continue;
    if (!has_cuda_code && s.device_count > 0) {
      return "this build of the example has no CUDA code (adder_kernel.cu is compiled only where the project "
             "enables the CUDA language), so the " + std::to_string(s.device_count) + " CUDA device(s) go unused";
    }
    return "the cuda backend says: " + (s.note.empty() ? std::string("no reason given") : s.note);
  }
  return "the cuda backend is not compiled in";
}

// The last line of every run: "adder: OK, all checks passed" or "adder: FAILED: <what failed>".
int verdict(const std::vector<std::string>& failed) {
  if (failed.empty()) {
    std::printf("adder: OK, all checks passed\n");
    return 0;
  }
  std::string list;
  for (const std::string& f : failed) list += (list.empty() ? "" : "; ") + f;
  std::printf("adder: FAILED: %s\n", list.c_str());
  return 1;
}

int run(Where where) {
  std::vector<ringkernel::DeviceInfo> candidates;
  if (where != Where::host && has_cuda_code) candidates = ringkernel::devices(ringkernel::Backend::cuda);
  if (candidates.empty() && where == Where::gpu) {
    std::printf("adder --gpu: skipped (exit code %d), no GPU usable by this build; %s\n", exit_skipped,
                why_no_gpu().c_str());
    return exit_skipped;
  }
  if (candidates.empty()) candidates = ringkernel::devices(ringkernel::Backend::host);
  if (candidates.empty()) return verdict({"no device at all (set RINGKERNEL_HOST_DEVICES >= 1)"});
  const ringkernel::DeviceInfo& device = candidates.front();
  std::printf("RingKernel adder example\ngenerated messages:\n");
  print_message_facts();
  std::printf("device %d: %s (%s backend)\n", device.id, device.name.c_str(), ringkernel::to_string(device.backend));
  if (where == Where::any && device.backend != ringkernel::Backend::cuda) {
    std::printf("  no GPU used; %s\n", why_no_gpu().c_str());
  } else if (where == Where::host) {
    std::printf("  host backend chosen by --host\n");
  }
  // The kernel stamps its answers on the host's time: its wall clock (a GPU's %globaltimer) less
  // the offset measured here, before the kernel starts (docs/messaging.md §2). 0 on a host device.
  const ringkernel::WallClockOffset offset = ringkernel::measure_wall_clock_offset(device.id);
  if (device.backend == ringkernel::Backend::cuda) {
    std::printf("  its wall clock: %+lld us from the host's (+/- %llu us); the kernel stamps with it subtracted\n",
                static_cast<long long>(offset.offset_us), static_cast<unsigned long long>(offset.uncertainty_us));
  }

  // Two single-producer, single-consumer rings in pinned memory (mapped into the GPU): the host
  // sends requests, the kernel answers.
  using ringkernel::QueueUsers;
  ringkernel::SpscQueue<app::RequestEnvelope> requests(ringkernel::QueueOptions{
      .capacity = 1024, .memory = ringkernel::QueueMemory::pinned, .device = device.id,
      .producers = QueueUsers::host, .consumers = QueueUsers::kernels});
  ringkernel::SpscQueue<app::ResponseEnvelope> responses(ringkernel::QueueOptions{
      .capacity = 1024, .memory = ringkernel::QueueMemory::pinned, .device = device.id,
      .producers = QueueUsers::kernels, .consumers = QueueUsers::host});

  const auto start = std::chrono::steady_clock::now();
  app::AddKernelRunner kernel(device, requests.ring(), responses.ring(), kernel_idle_us, offset.offset_us);
  Received received;
  std::jthread receiver([&] { receive_answers(responses, received); });
  const std::string send_error = send_requests(requests);
  receiver.join();
  if (!send_error.empty()) std::fprintf(stderr, "adder: %s\n", send_error.c_str());
  if (!received.error.empty()) std::fprintf(stderr, "adder: %s\n", received.error.c_str());
  const app::ServiceReport report = kernel.wait();  // throws if the kernel failed (a CUDA error)
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;

  const char* worker = received.answers[0].payload.worker;
  const bool right_worker = std::strncmp(worker, app::AddKernelRunner::worker_on(device.backend).text, 16) == 0;
  std::printf("%d of %d requests answered by the Add ring kernel on \"%.16s\" in %.1f ms, %d wrong\n", received.count,
              request_count, worker, took.count(), received.wrong);
  std::printf("answers in request order, stamped in order (sequence numbers and HLC stamps): %s; the host's clock "
              "merged their stamps, %d rejected as too far ahead\n",
              received.out_of_order == 0 ? "yes" : "NO", received.skew_rejected);
  if (received.skew_rejected != 0) {  // the device's clock, not the example: reported, not a failure
    std::printf("  (the device's corrected wall clock leads the host's by more than 1 s: see docs/messaging.md, section 2)\n");
  }
  std::printf("the ring kernel stopped: %s; it served %u requests, ignored %u envelopes, saw %u sequence gaps\n",
              app::to_string(report.end), report.served, report.ignored, report.sequence_gaps);

  std::vector<std::string> failed;
  if (!send_error.empty()) failed.push_back(send_error);
  if (!received.error.empty()) failed.push_back(received.error);
  if (received.count != request_count) {
    failed.push_back(std::to_string(request_count - received.count) + " requests not answered");
  }
  if (received.wrong != 0) failed.push_back(std::to_string(received.wrong) + " wrong answers");
  if (received.out_of_order != 0) failed.push_back(std::to_string(received.out_of_order) + " answers out of order");
  if (!right_worker) failed.push_back("answered by another worker than the device's");
  if (report.end != app::ServiceEnd::terminated) failed.push_back(std::string("kernel ended: ") + app::to_string(report.end));
  if (report.served != static_cast<std::uint32_t>(request_count) || report.ignored != 0 || report.sequence_gaps != 0) {
    failed.push_back("the kernel's report differs from what was sent");
  }
  if (received.answers[7].payload.request_id != 7 || !show_wire_form(received.answers[7])) {
    failed.push_back("answer 7 did not come back from MessagePack intact");
  }
  return verdict(failed);
}

void print_usage(std::FILE* to) {
  std::fprintf(to,
               "usage: adder [--host | --gpu]\n"
               "  (none)  run on a GPU if there is one, else on a host-backend device, saying why\n"
               "  --host  run on a host-backend device even if a GPU exists\n"
               "  --gpu   run on a GPU; without one, say so and exit with %d (skipped)\n"
               "  -h, --help  print this and exit\n"
               "The last line is the verdict: \"adder: OK, all checks passed\" (exit 0) or \"adder: FAILED: ...\" "
               "(1); exit 2: a bad argument.\n",
               exit_skipped);
}

// A bad command line: says what is wrong, then the usage, on stderr. Exit status 2.
int usage_error(const std::string& what) {
  std::fprintf(stderr, "adder: %s\n", what.c_str());
  print_usage(stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // Line-buffered even into a pipe, so that stdout's lines and stderr's (unbuffered) keep the order
  // in which the program writes them.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  Where where = Where::any;
  std::string_view chosen;  // the argument that chose `where`
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      print_usage(stdout);
      return 0;
    }
    if (arg != "--host" && arg != "--gpu") return usage_error("unknown argument '" + std::string(arg) + "'");
    const Where w = arg == "--host" ? Where::host : Where::gpu;
    if (where != Where::any && where != w) {
      return usage_error(std::string(chosen) + " and " + std::string(arg) + " exclude each other");
    }
    where = w;
    chosen = arg;
  }
  try {
    return run(where);
  } catch (const std::exception& e) {  // ringkernel::Error (a queue, a device) or a failed launch
    return verdict({e.what()});
  }
}
