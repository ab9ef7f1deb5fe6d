// Copyright RingKernel authors.
// RAII owners of device memory and of pinned (page-locked) host memory. Move-only.
#pragma once

#include <cstddef>
#include <memory>

namespace ringkernel {

namespace detail {
class DeviceBackend;
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates `bytes` on device `device` (0 bytes gives an empty buffer with data() == nullptr).
  /// A default-constructed or moved-from buffer owns nothing: device() == -1, size() == 0.
  /// Destruction frees the memory. The host backend waits for the work already queued on the
  /// streams of every host device first. CUDA calls cudaFree with the buffer's device current,
  /// which its documentation says only "may perform implicit synchronization": synchronize the
  /// streams (and kernels) that use the buffer first, those of other devices above all (a direct
  /// peer copy queued on the other device's stream, a kernel writing through a peer mapping),
  /// which cudaFree does not wait for. Any free may block while a persistent kernel runs on the
  /// device (docs/runtime.md).
  DeviceBuffer(int device, std::size_t bytes);
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  void* data() noexcept { return data_; }
  const void* data() const noexcept { return data_; }
  std::byte* bytes() noexcept { return static_cast<std::byte*>(data_); }
  const std::byte* bytes() const noexcept { return static_cast<const std::byte*>(data_); }
  std::size_t size() const noexcept { return size_; }
  int device() const noexcept { return device_; }

  /// Synchronous copies between host memory and [offset, offset + bytes) of this buffer. They are
  /// not ordered with streams (CUDA: not with the legacy default stream either, so a persistent
  /// kernel there does not block them): synchronize the streams that use the buffer first.
  void upload(const void* host, std::size_t bytes, std::size_t offset = 0);
  void download(void* host, std::size_t bytes, std::size_t offset = 0) const;

 private:
  void reset() noexcept;
  int device_ = -1;
  int ordinal_ = -1;
  std::shared_ptr<detail::DeviceBackend> backend_;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  /// Page-locked host memory usable for asynchronous copies with every device of `device`'s
  /// backend (portable pinned memory on cuda, allocated with `device` current; ordinary host
  /// memory on the host backend). On the host backend, destruction waits for the work already
  /// queued on its streams first. On CUDA it calls cudaFreeHost, whose documentation promises no
  /// synchronization: synchronize every stream that copies to or from the buffer first.
  PinnedBuffer(int device, std::size_t bytes);
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer();

  void* data() noexcept { return data_; }
  const void* data() const noexcept { return data_; }
  std::byte* bytes() noexcept { return static_cast<std::byte*>(data_); }
  const std::byte* bytes() const noexcept { return static_cast<const std::byte*>(data_); }
  std::size_t size() const noexcept { return size_; }
  /// The device it was allocated for (-1 when it owns nothing: default-constructed or moved from).
  int device() const noexcept { return device_; }

 private:
  void reset() noexcept;
  int device_ = -1;
  std::shared_ptr<detail::DeviceBackend> backend_;
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ringkernel
