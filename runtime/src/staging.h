// Copyright RingKernel authors.
// Host-staged peer copies: two pinned staging buffers, a device-to-host stream on the source and a
// host-to-device stream on the destination, pipelined with events so that chunk i+1 leaves the
// source while chunk i enters the destination.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>

#include "backend.h"
#include "ringkernel/buffers.h"
#include "ringkernel/event.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/stream.h"

namespace ringkernel::detail {

class StagingPipeline {
 public:
  /// What its own errors name (PeerMemory names the user's call instead).
  static constexpr const char* call = "PeerMemory host staging";
  StagingPipeline(int src_device, int dst_device, std::size_t chunk_bytes);
  /// Waits for the chunks still queued on its streams, which read and write the staging buffers,
  /// before its members go (events, streams, then the buffers): destroying a stream returns at
  /// once with its work still queued (cudaStreamDestroy's documentation), and freeing pinned memory
  /// promises no synchronization (cudaFreeHost's), so a copy nobody synchronised would otherwise
  /// DMA into freed memory. Blocks while a copy waits behind work on the caller's stream (a
  /// persistent kernel queued before it: until the kernel ends). Errors are dropped.
  ~StagingPipeline();
  StagingPipeline(const StagingPipeline&) = delete;
  StagingPipeline& operator=(const StagingPipeline&) = delete;

  /// Stream-ordered after `caller`'s earlier work; `caller`'s later work waits for the copy.
  /// `caller` must be a stream of the source or the destination device. Thread-safe.
  CopyResult enqueue(Stream& caller, void* dst, const void* src, std::size_t bytes);
  /// The backend of the devices it was made for.
  const std::shared_ptr<DeviceBackend>& backend() const noexcept { return backend_; }

 private:
  const int src_device_;
  const std::size_t chunk_bytes_;
  std::shared_ptr<DeviceBackend> backend_;
  std::mutex mutex_;  // one copy at a time enqueues its chunks (buffers and events are shared)
  std::array<PinnedBuffer, 2> staging_;
  Stream to_host_;    // on the source device
  Stream from_host_;  // on the destination device
  Event start_on_src_;
  Event start_on_dst_;
  std::array<Event, 2> staged_;     // chunk in staging buffer b is complete (source device)
  std::array<Event, 2> delivered_;  // staging buffer b is free again (destination device)
};

}  // namespace ringkernel::detail
