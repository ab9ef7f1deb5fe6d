// Copyright RingKernel authors.
// PeerMemory::measure: copy bandwidth and latency of one device pair (p2pBandwidthLatencyTest
// style: many large copies for bandwidth, many tiny synchronised copies for latency).
#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "backend.h"
#include "device_pair.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

namespace ringkernel {

LinkMeasurement PeerMemory::measure(int src, int dst, const MeasureOptions& o) {
  constexpr const char* call = "PeerMemory::measure";
  if (o.bandwidth_bytes == 0 || o.latency_bytes == 0 || o.bandwidth_repetitions <= 0 ||
      o.latency_repetitions <= 0)
    throw Error(errc::invalid_argument, call, src,
                "MeasureOptions sizes and repetitions must all be > 0");
  // Both ids before anything is allocated: a bad one is named as such, not as memory the other
  // device lacked.
  (void)require_device(src, call, "source device");
  (void)require_device(dst, call, "destination device");
  // Devices of two backends have no path between them (errc::unsupported), found before anything
  // is allocated: the check after the allocation below would take it for a reconfiguration.
  (void)detail::resolve_device_pair(src, dst, call);
  using clock = std::chrono::steady_clock;
  const std::size_t bytes = std::max(o.bandwidth_bytes, o.latency_bytes);
  // Named by this call when they cannot be had, not by the constructors.
  const auto allocated = [&]<class T>(std::in_place_type_t<T>, int device, auto... size) {
    try {
      return T(device, size...);
    } catch (const Error& e) {
      throw Error(e.code(), call, e.device(), "allocating what the measurement copies (" + e.call() + "): " + e.detail());
    }
  };
  DeviceBuffer from = allocated(std::in_place_type<DeviceBuffer>, src, bytes);
  DeviceBuffer to = allocated(std::in_place_type<DeviceBuffer>, dst, bytes);
  Stream stream = allocated(std::in_place_type<Stream>, src);

  // Each was made for the id as it named a device at that moment: a configure_host_backend() in
  // between leaves objects of two configurations, and the copies' errors would be about memory
  // and a stream the user never saw.
  const auto& backend = *stream.backend();
  if (backend.owner_of(from.data()) < 0 || backend.owner_of(to.data()) < 0)
    detail::throw_overtaken(call, src, "nothing was measured");
  // The copies are checked as the user's copy_peer_async would be, their errors named by this call;
  // the stream is internal: one of an older configuration than the devices means this call was
  // overtaken by configure_host_backend().
  const auto checked_copy = [&](std::size_t n) {
    try {
      return copy_async_checked(to.data(), dst, from.data(), src, n, stream, call, StreamOrigin::internal).path;
    } catch (const Error& e) {
      if (detail::overtaken(e)) detail::throw_overtaken(call, src, "nothing was measured");  // not "copied"
      throw;
    }
  };

  LinkMeasurement m{src, dst, CopyPath::same_device, 0.0, 0.0};
  // Warm-up: creates staging resources and touches the pages once.
  m.path = checked_copy(bytes);
  stream.synchronize();

  // Every copy must take the warm-up's path: figures of two paths (peer access changed by another
  // thread meanwhile) would be filed under one.
  CopyPath other = m.path;
  const auto copy = [&](std::size_t n) {
    const CopyPath p = checked_copy(n);
    if (p != m.path) other = p;
  };
  auto t0 = clock::now();
  for (int i = 0; i < o.bandwidth_repetitions; ++i) copy(o.bandwidth_bytes);
  stream.synchronize();
  const double seconds = std::chrono::duration<double>(clock::now() - t0).count();
  m.bandwidth_gbps = static_cast<double>(o.bandwidth_bytes) * o.bandwidth_repetitions / seconds / 1e9;

  t0 = clock::now();
  for (int i = 0; i < o.latency_repetitions; ++i) {
    copy(o.latency_bytes);
    stream.synchronize();
  }
  m.latency_us =
      std::chrono::duration<double, std::micro>(clock::now() - t0).count() / o.latency_repetitions;
  if (other != m.path)
    throw Error(errc::invalid_state, call, src,
                "peer access between devices " + std::to_string(src) + " and " + std::to_string(dst) +
                    " changed while measuring (copies went " + to_string(m.path) + ", then " +
                    to_string(other) + "); nothing was recorded: measure again once it stays put");

  std::lock_guard lock(mutex_);
  measured_[{src, dst, m.path}] = Measured{m, stream.backend()};  // the other path keeps its own
  return m;
}

}  // namespace ringkernel
