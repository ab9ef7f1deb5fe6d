// Copyright RingKernel authors.
// PeerMemory: peer access control, checked peer copies and path selection (the peer mappings are in
// peer_mappings.cpp).
#include "ringkernel/peer_memory.h"

#include <memory>
#include <mutex>
#include <string>

#include "device_pair.h"
#include "pointer_text.h"
#include "ranges_overlap.h"
#include "registry.h"
#include "ringkernel/error.h"
#include "staging.h"

namespace ringkernel {

const char* to_string(CopyPath p) noexcept {
  switch (p) {
    case CopyPath::same_device: return "same-device";
    case CopyPath::direct_peer: return "direct-peer";
    case CopyPath::host_staged: return "host-staged";
  }
  return "unknown";
}

namespace {

using detail::hex;
using detail::Registry;

using Pair = detail::DevicePair;

/// The path a copy between the pair takes now.
CopyPath path_for(const Pair& p) {
  if (p.src.id == p.dst.id) return CopyPath::same_device;
  auto& b = *p.src.backend;
  return b.peer_access_enabled(p.src.ordinal, p.dst.ordinal) ||
                 b.peer_access_enabled(p.dst.ordinal, p.src.ordinal)
             ? CopyPath::direct_peer
             : CopyPath::host_staged;
}

}  // namespace

PeerMemory::PeerMemory(PeerMemoryOptions options) : options_(options) {
  if (options_.staging_chunk_bytes == 0)
    throw Error(errc::invalid_argument, "PeerMemory::PeerMemory", no_device,
                "PeerMemoryOptions::staging_chunk_bytes must be > 0");
}

bool PeerMemory::can_access_peer(int src, int dst) const {
  constexpr const char* call = "PeerMemory::can_access_peer";
  // One lookup: two host devices are of one configuration, whatever another thread reconfigures.
  const auto [s, d] = Registry::instance().resolve_pair(src, dst, call);
  if (src == dst || s.backend != d.backend) return false;
  return s.backend->link(s.ordinal, d.ordinal).peer_access_supported;
}

void PeerMemory::enable_peer_access(int src, int dst) {
  constexpr const char* call = "PeerMemory::enable_peer_access";
  const auto p = detail::resolve_device_pair(src, dst, call);
  if (src == dst)
    throw Error(errc::invalid_argument, call, src,
                "source and destination are the same device; a device always accesses its own memory");
  p.src.backend->enable_peer_access(p.src.ordinal, p.dst.ordinal, src, dst);
}

bool PeerMemory::peer_access_enabled(int src, int dst) const {
  const auto p = detail::resolve_device_pair(src, dst, "PeerMemory::peer_access_enabled");
  return src != dst && p.src.backend->peer_access_enabled(p.src.ordinal, p.dst.ordinal);
}

CopyResult PeerMemory::copy_async_checked(void* dst, int dst_device, const void* src,
                                          int src_device, std::size_t bytes, Stream& stream,
                                          const char* call, StreamOrigin origin) {
  if (!stream.backend()) throw Error(errc::invalid_state, call, no_device, "the stream was moved from");
  const auto p = detail::resolve_device_pair(src_device, dst_device, call);
  if (stream.backend() != p.src.backend) {
    // The internal stream of a synchronous copy was made for the devices the id named a moment
    // before: only a configure_host_backend() running at the same time replaces them.
    if (origin == StreamOrigin::internal) detail::throw_overtaken(call, src_device, detail::nothing_copied);
    throw Error(errc::invalid_argument, call, stream.device(),
                "the stream belongs to another backend or an older host configuration");
  }
  if (stream.device() != src_device && stream.device() != dst_device)
    throw Error(errc::invalid_argument, call, stream.device(),
                "the stream is on device " + std::to_string(stream.device()) +
                    " but the copy is between devices " + std::to_string(src_device) + " and " +
                    std::to_string(dst_device) + "; use a stream of one of them");
  auto& backend = *p.src.backend;
  detail::check_device_memory(p.dst, dst, bytes, call, "destination", detail::DeviceMemoryUse::copy);
  detail::check_device_memory(p.src, src, bytes, call, "source", detail::DeviceMemoryUse::copy);

  if (src_device == dst_device) {
    if (detail::ranges_overlap(dst, src, bytes))
      throw Error(errc::overlapping_ranges, call, src_device,
                  "source " + hex(src) + " and destination " + hex(dst) + " ranges of " +
                      std::to_string(bytes) + " bytes overlap on one device");
    if (bytes != 0) backend.copy_async(stream.impl(), dst, src, bytes);
    return CopyResult{CopyPath::same_device, bytes, bytes != 0 ? 1u : 0u};
  }
  if (path_for(p) == CopyPath::direct_peer) {
    if (bytes != 0) backend.copy_peer_async(stream.impl(), dst, p.dst.ordinal, src, p.src.ordinal, bytes);
    return CopyResult{CopyPath::direct_peer, bytes, bytes != 0 ? 1u : 0u};
  }
  // staging() looks the ids up again: a configure_host_backend() since resolve_device_pair gives
  // a pipeline of the new configuration, which the stream and the memory of `p` are not of.
  const auto pipeline = staging(src_device, dst_device, call);
  if (pipeline->backend() != p.src.backend) detail::throw_overtaken(call, src_device, detail::nothing_copied);
  return pipeline->enqueue(stream, dst, src, bytes);
}

CopyResult PeerMemory::copy_peer(void* dst, int dst_device, const void* src, int src_device,
                                 std::size_t bytes) {
  constexpr const char* call = "PeerMemory::copy_peer";
  const auto stream = internal_stream(Registry::instance().resolve(src_device, call).id, call);
  const auto result =
      copy_async_checked(dst, dst_device, src, src_device, bytes, *stream, call, StreamOrigin::internal);
  stream->synchronize();
  return result;
}

CopyResult PeerMemory::copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                                       std::size_t bytes, Stream& stream) {
  return copy_async_checked(dst, dst_device, src, src_device, bytes, stream,
                            "PeerMemory::copy_peer_async");
}

CopyResult PeerMemory::copy_peer_async(void* dst, int dst_device, const void* src, int src_device,
                                       std::size_t bytes, Stream& stream, Event& completion) {
  constexpr const char* call = "PeerMemory::copy_peer_async";
  // Checked before the copy is enqueued: an event that cannot be recorded must not leave a copy
  // behind that nothing marks.
  if (!completion.backend())
    throw Error(errc::invalid_state, call, no_device, "the completion event was moved from");
  if (stream.backend() && completion.backend() != stream.backend())
    throw Error(errc::invalid_argument, call, completion.device(),
                "the completion event of device " + std::to_string(completion.device()) +
                    " and the stream belong to different backends or host configurations");
  if (stream.backend() && completion.device() != stream.device())
    throw Error(errc::invalid_argument, call, completion.device(),
                "the completion event is on device " + std::to_string(completion.device()) +
                    " but the stream on device " + std::to_string(stream.device()) +
                    "; it is recorded on the stream, so it must belong to the stream's device");
  const auto result = copy_async_checked(dst, dst_device, src, src_device, bytes, stream, call);
  completion.record(stream);
  return result;
}

namespace {
// A buffer that owns nothing is refused even for 0 bytes: a copy between devices names both (its
// result says the path between them), where an upload of 0 bytes needs nothing of the buffer.
void check_buffer_range(const char* call, const char* what, const DeviceBuffer& b,
                        std::size_t offset, std::size_t bytes) {
  if (b.device() < 0)
    throw Error(errc::invalid_state, call, no_device,
                std::string("the ") + what + " buffer owns no memory (default-constructed or moved from)");
  if (offset > b.size() || bytes > b.size() - offset)
    throw Error(errc::out_of_range, call, b.device(),
                std::string(what) + " range [" + std::to_string(offset) + ", " + std::to_string(offset) +
                    " + " + std::to_string(bytes) + ") exceeds the buffer of " +
                    std::to_string(b.size()) + " bytes");
}
}  // namespace

CopyResult PeerMemory::copy_peer(DeviceBuffer& dst, std::size_t dst_offset, const DeviceBuffer& src,
                                 std::size_t src_offset, std::size_t bytes) {
  constexpr const char* call = "PeerMemory::copy_peer";
  check_buffer_range(call, "destination", dst, dst_offset, bytes);
  check_buffer_range(call, "source", src, src_offset, bytes);
  if (bytes == 0 && (!dst.data() || !src.data()))  // empty buffers: nothing to copy or check
    return CopyResult{
        path_for(detail::resolve_device_pair(src.device(), dst.device(), call)), 0, 0};
  const auto stream = internal_stream(Registry::instance().resolve(src.device(), call).id, call);
  const auto result = copy_async_checked(dst.bytes() + dst_offset, dst.device(),
                                         src.bytes() + src_offset, src.device(), bytes, *stream, call,
                                         StreamOrigin::internal);
  stream->synchronize();
  return result;
}

CopyResult PeerMemory::copy_peer_async(DeviceBuffer& dst, std::size_t dst_offset,
                                       const DeviceBuffer& src, std::size_t src_offset,
                                       std::size_t bytes, Stream& stream) {
  constexpr const char* call = "PeerMemory::copy_peer_async";
  check_buffer_range(call, "destination", dst, dst_offset, bytes);
  check_buffer_range(call, "source", src, src_offset, bytes);
  if (bytes == 0 && (!dst.data() || !src.data()))
    return CopyResult{
        path_for(detail::resolve_device_pair(src.device(), dst.device(), call)), 0, 0};
  return copy_async_checked(dst.bytes() + dst_offset, dst.device(), src.bytes() + src_offset,
                            src.device(), bytes, stream, call);
}

std::shared_ptr<detail::StagingPipeline> PeerMemory::staging(int src, int dst, const char* call) {
  const auto backend = Registry::instance().resolve(src, call).backend;
  std::lock_guard lock(mutex_);
  auto& slot = staging_[{src, dst}];
  if (!slot || slot->backend() != backend) {
    try {
      slot = std::make_shared<detail::StagingPipeline>(src, dst, options_.staging_chunk_bytes);
    } catch (const Error& e) {  // named by the user's call, not by the buffer it allocates
      // Its members were made in two host configurations: the user's call was overtaken.
      if (e.code() == errc::invalid_state && e.call() == detail::StagingPipeline::call)
        detail::throw_overtaken(call, e.device(), detail::nothing_copied);
      throw Error(e.code(), call, e.device(), "setting up the host staging buffers and streams (" + e.call() + "): " + e.detail());
    }
  }
  return slot;
}

std::shared_ptr<Stream> PeerMemory::internal_stream(int device, const char* call) {
  const auto backend = Registry::instance().resolve(device, call).backend;
  std::lock_guard lock(mutex_);
  auto& slot = internal_streams_[device];
  if (!slot || slot->backend() != backend) {
    try {
      slot = std::make_shared<Stream>(device);
    } catch (const Error& e) {  // named by the user's call, not by the stream it makes
      throw Error(e.code(), call, e.device(),
                  "starting the stream a synchronous copy runs on (" + e.call() + "): " + e.detail());
    }
  }
  return slot;
}


}  // namespace ringkernel
