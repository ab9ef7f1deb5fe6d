// Copyright RingKernel authors.
// Owner of a ring's memory: ordinary host memory, pinned host memory of a device's backend (CUDA:
// portable page-locked memory, which unified addressing maps into every device at the same
// address), or memory of one device. Aligned to 256 bytes. Move-only.
#pragma once

#include <cstddef>
#include <memory>

#include "ringkernel/buffers.h"
#include "ringkernel/queue/queue_types.h"

namespace ringkernel {

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
  /// Host threads may load and store this memory directly (false only for CUDA device memory).
  bool host_accessible() const noexcept { return host_accessible_; }
  /// Copies `bytes` of host memory to the start of the storage (the initial ring image).
  void upload(const void* host, std::size_t bytes);

 private:
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

}  // namespace ringkernel
