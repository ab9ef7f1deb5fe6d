// Copyright RingKernel authors.
// Owner of a ring's memory: ordinary host memory, pinned host memory of a device's backend (CUDA:
// portable page-locked memory, which unified addressing maps into every device at the same
// address), or memory of one device. Aligned to 256 bytes. Move-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ringkernel/buffers.h"
#include "ringkernel/error.h"
#include "ringkernel/queue/queue_types.h"
#include "ringkernel/queue/ring_control.h"

namespace ringkernel {

class Stream;

class QueueStorage {
 public:
  /// `device`: the device whose backend provides pinned memory, or that owns device memory
  /// (ignored for QueueMemory::host). Errors: invalid device, out of memory.
  QueueStorage(QueueMemory memory, int device, std::size_t bytes);
  QueueStorage(QueueStorage&&) noexcept = default;
  QueueStorage& operator=(QueueStorage&&) noexcept = default;
  ~QueueStorage();

  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  QueueMemory memory() const noexcept { return memory_; }
  int device() const noexcept { return device_; }
  /// Host threads may load and store this memory directly (false only for CUDA device memory, or,
  /// in the runtime's own tests, host-backend device memory under a test switch).
  bool host_accessible() const noexcept { return host_accessible_; }
  /// What host_accessible() of storage of `memory` on `device` would be, without allocating it.
  /// Errors, named QueueStorage::host_accessible_memory: invalid_device if `device` names none
  /// (pinned and device memory; QueueMemory::host ignores it), invalid_argument if `memory` is no
  /// QueueMemory.
  static bool host_accessible_memory(QueueMemory memory, int device);
  /// Copies `bytes` of host memory to the storage at `offset` (the initial ring image, or one
  /// control word of a ring in device memory). Error(out_of_range) if it does not fit. Copies to
  /// CUDA device memory use a stream of their own, made for the call: they do not wait for
  /// running kernels. A stream that cannot start is an Error of this call (its detail names the
  /// stream's call, e.g. cudaStreamCreateWithFlags).
  void upload(const void* host, std::size_t bytes, std::size_t offset = 0);
  /// Copies `bytes` at `offset` of the storage to host memory (e.g. a device ring's indices).
  void download(void* host, std::size_t bytes, std::size_t offset = 0) const;
  /// As above, copying CUDA device memory on `stream` (of device(); a non-blocking one, so that the
  /// copy waits for no running kernel) and waiting for it: a caller that copies often keeps one
  /// stream instead of one made per call. Host-accessible memory is copied directly.
  void upload(const void* host, std::size_t bytes, std::size_t offset, Stream& stream);
  void download(void* host, std::size_t bytes, std::size_t offset, Stream& stream) const;

 private:
  void check_range(const char* call, std::size_t bytes, std::size_t offset) const;
  void device_copy(const char* call, void* dst, const void* src, std::size_t bytes, Stream* stream) const;
  struct aligned_free {
    void operator()(std::byte* p) const noexcept;
  };
  QueueMemory memory_ = QueueMemory::host;
  int device_ = -1;
  std::size_t size_ = 0;
  bool host_accessible_ = true;
  void* data_ = nullptr;
  std::unique_ptr<std::byte, aligned_free> host_;
  PinnedBuffer pinned_;
  DeviceBuffer device_memory_;
};

namespace detail {
/// The storage of a queue's ring of `capacity` slots, `bytes` long (the ring type's bytes_for), for
/// the constructor `call` of a queue (BasicMessageQueue, P2PMessageQueue). An allocation that fails
/// is Error(out_of_memory) named `call`, on the device the allocation's error names (none for host
/// memory), whose detail says which ring in which memory, then the allocation's own call and
/// reason: "the ring of 1048576 slots (67109760 bytes) in device memory (QueueMemory::device):
/// DeviceBuffer::DeviceBuffer: cannot allocate ...". Other errors pass unchanged.
QueueStorage ring_storage(const char* call, QueueMemory memory, int device, std::uint64_t capacity, std::size_t bytes);
}  // namespace detail

/// Writes an empty `Ring` (spsc_ring or mpmc_ring) of `capacity` slots into `storage` and returns
/// its view: in place when host threads can reach the memory, else as a host image uploaded once
/// (CUDA device memory: QueueStorage::upload, on `*stream` if not null, else on a stream made for
/// the call). Before writing anything it refuses, named "initialize_ring": a capacity that is not
/// Ring::valid_capacity (Error(invalid_argument), Ring::initialize's wording), and storage smaller
/// than Ring::bytes_for(capacity) (Error(out_of_range), naming both sizes).
template <class Ring>
Ring initialize_ring(QueueStorage& storage, std::uint64_t capacity, std::uint64_t start = 0,
                     Stream* stream = nullptr) {
  if (!Ring::valid_capacity(capacity))
    detail::check_ring_capacity("initialize_ring", capacity, Ring::multi_consumer, Ring::max_capacity);
  if (storage.size() < Ring::bytes_for(capacity)) {
    throw Error(errc::out_of_range, "initialize_ring", storage.memory() == QueueMemory::host ? no_device : storage.device(),
                "a ring of " + std::to_string(capacity) + " slots needs " + std::to_string(Ring::bytes_for(capacity)) +
                    " bytes (Ring::bytes_for), the storage holds " + std::to_string(storage.size()));
  }
  if (storage.host_accessible()) return Ring::initialize(storage.data(), capacity, start);
  // Aligned as the ring's control block (alignas 128), which Ring::initialize constructs in it.
  struct alignas(detail::queue_line_bytes) image_line {
    std::byte bytes[detail::queue_line_bytes];
  };
  const std::size_t bytes = Ring::bytes_for(capacity);
  std::vector<image_line> image((bytes + detail::queue_line_bytes - 1) / detail::queue_line_bytes);
  Ring::initialize(image.data(), capacity, start);
  if (stream != nullptr) {
    storage.upload(image.data(), bytes, 0, *stream);
  } else {
    storage.upload(image.data(), bytes);
  }
  return Ring(storage.data(), capacity);
}

}  // namespace ringkernel
