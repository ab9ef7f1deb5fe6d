// Copyright RingKernel authors.
// ringkernel::PeerMemory (DESIGN.md §6; IGpuPeerToPeerMemory of the reference): peer access
// control, peer copies (direct when peer access is enabled between the pair, otherwise staged
// through double-buffered pinned host memory - the result says which), peer mappings, link
// capabilities and the topology matrix. Thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>

#include "ringkernel/buffers.h"
#include "ringkernel/event.h"
#include "ringkernel/stream.h"
#include "ringkernel/topology.h"

namespace ringkernel {

namespace detail {
class StagingPipeline;
}

/// The path a copy took.
enum class CopyPath {
  same_device,  // src and dst on one device: a device-local copy
  direct_peer,  // peer access enabled between the pair: one peer copy over the link
  host_staged,  // through pinned host buffers, double-buffered, chunk by chunk
};
const char* to_string(CopyPath p) noexcept;

struct CopyResult {
  CopyPath path = CopyPath::same_device;
  std::size_t bytes = 0;
  std::size_t chunks = 1;  // host_staged: number of staging chunks; 1 otherwise; 0 for a copy of 0 bytes
};

struct PeerMemoryOptions {
  /// Size of each of the two pinned staging buffers of a host-staged copy (> 0).
  std::size_t staging_chunk_bytes = std::size_t{4} << 20;
};

struct MeasureOptions {
  std::size_t bandwidth_bytes = std::size_t{64} << 20;
  int bandwidth_repetitions = 10;
  std::size_t latency_bytes = 4;
  int latency_repetitions = 100;
};

struct LinkMeasurement {
  int src = -1;
  int dst = -1;
  CopyPath path = CopyPath::same_device;
  double bandwidth_gbps = 0.0;
  double latency_us = 0.0;
};

class PeerMemory {
 public:
  explicit PeerMemory(PeerMemoryOptions options = {});
  ~PeerMemory();
  PeerMemory(const PeerMemory&) = delete;
  PeerMemory& operator=(const PeerMemory&) = delete;

  /// True if device `src` can be given direct access to device `dst`'s memory (false for src ==
  /// dst and for devices of different backends). Throws only for invalid ids.
  bool can_access_peer(int src, int dst) const;
  /// Let `src` access `dst`'s memory. Idempotent. Error(peer_access_unsupported) says why when the
  /// pair has no direct link.
  void enable_peer_access(int src, int dst);
  /// Idempotent; Error(invalid_state) while mappings of dst's memory for src are live: it counts
  /// them and names the first few (pointer, bytes, whether the memory is no longer allocated).
  void disable_peer_access(int src, int dst);
  bool peer_access_enabled(int src, int dst) const;

  /// Synchronous copy of `bytes` from `src` (memory of device `src_device`) to `dst` (memory of
  /// `dst_device`). Argument order as cudaMemcpyPeer. Ranges must lie inside allocations of those
  /// devices; on one device they must not overlap.
  CopyResult copy_peer(void* dst, int dst_device, const void* src, int src_device,
                       std::size_t bytes);
  /// Stream-ordered: the copy starts after the work enqueued on `stream` (which must belong to
  /// src_device or dst_device) and later work on `stream` waits for it.
  CopyResult copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                             std::size_t bytes, Stream& stream);
  /// As above and records `completion` (an event of stream's device) after the copy.
  CopyResult copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                             std::size_t bytes, Stream& stream, Event& completion);

  /// Buffer forms with offsets, bounds-checked against the buffers.
  CopyResult copy_peer(DeviceBuffer& dst, std::size_t dst_offset, const DeviceBuffer& src,
                       std::size_t src_offset, std::size_t bytes);
  CopyResult copy_peer_async(DeviceBuffer& dst, std::size_t dst_offset, const DeviceBuffer& src,
                             std::size_t src_offset, std::size_t bytes, Stream& stream);

  /// A pointer through which `remote_device` can access [local, local + bytes) of
  /// `local_device`'s memory. Requires peer access enabled from remote to local. The mapping
  /// lives until unmap_peer_memory (or this PeerMemory's destruction), also after the memory is
  /// freed (PeerMemory does not track buffers): unmap before freeing; until then
  /// disable_peer_access(remote, local) is refused, through this or any other PeerMemory (peer
  /// access belongs to the process, so every PeerMemory's mappings count).
  void* map_peer_memory(void* local, int local_device, int remote_device, std::size_t bytes);
  /// Ends a mapping made by map_peer_memory (also after its memory was freed); one call per
  /// map_peer_memory call. Error(invalid_state) if there is none.
  void unmap_peer_memory(void* mapped, int remote_device);
  std::size_t live_mappings() const;

  /// Capability of the pair; bandwidth/latency are measured if measure() ran for it over the path
  /// copies take now (peer access enabled in either direction: direct, else host-staged; each
  /// path keeps its own latest measurement), otherwise estimates (Figure::measured == false).
  /// Both ids are looked up together (topology(): every cell from one list of devices): the answer
  /// is one host configuration's, also while another thread calls configure_host_backend().
  PeerCapability capability(int src, int dst) const;
  TopologyMatrix topology() const;

  /// Measure copy bandwidth and latency from src to dst through this PeerMemory (the path the
  /// current peer-access state selects); later capability() calls report these figures while
  /// copies take that path. Replaces an earlier measurement of the pair on that path only.
  /// Error(invalid_state), nothing recorded, if peer access changes while it copies.
  LinkMeasurement measure(int src, int dst, const MeasureOptions& options = {});

 private:
  enum class StreamOrigin { user, internal };  // internal: the stream of a synchronous copy
  CopyResult copy_async_checked(void* dst, int dst_device, const void* src, int src_device,
                                std::size_t bytes, Stream& stream, const char* call,
                                StreamOrigin origin = StreamOrigin::user);
  // Staging pipelines and internal streams are made for the devices the ids name now: one made
  // for an id before configure_host_backend() renumbered the host devices is replaced (shared:
  // a copy still running on the old one keeps it alive). `call` names the user's call in the error
  // of one that cannot be made.
  std::shared_ptr<detail::StagingPipeline> staging(int src, int dst, const char* call);
  std::shared_ptr<Stream> internal_stream(int device, const char* call);

  struct Measured {
    LinkMeasurement figures;
    std::weak_ptr<detail::DeviceBackend> backend;  // ignored once the ids name other devices
  };

  PeerMemoryOptions options_;
  mutable std::mutex mutex_;
  std::map<std::pair<int, int>, std::shared_ptr<detail::StagingPipeline>> staging_;
  std::map<int, std::shared_ptr<Stream>> internal_streams_;
  std::map<std::tuple<int, int, CopyPath>, Measured> measured_;  // (src, dst, path) ->
};

}  // namespace ringkernel
