// Copyright RingKernel authors.
// QueueStorage and the queue vocabulary's names.
#include "ringkernel/queue/queue_storage.h"

#include <atomic>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/stream.h"

#include "aligned_host_memory.h"
#include "queue_memory_seam.h"
#include "registry.h"

namespace ringkernel {

namespace {
std::atomic<bool> host_device_memory_as_gpu_memory{false};  // the test seam (queue_memory_seam.h)
}  // namespace

void detail::treat_host_device_memory_as_gpu_memory_for_testing(bool on) noexcept {
  host_device_memory_as_gpu_memory.store(on, std::memory_order_relaxed);
}

bool QueueStorage::host_accessible_memory(QueueMemory memory, int device) {
  constexpr const char* call = "QueueStorage::host_accessible_memory";
  switch (memory) {
    case QueueMemory::host: return true;  // no device's
    case QueueMemory::pinned:             // host memory of the device's backend
      (void)detail::Registry::instance().resolve(device, call);
      return true;
    case QueueMemory::device:
      return detail::Registry::instance().resolve(device, call).backend->kind() == Backend::host &&
             !host_device_memory_as_gpu_memory.load(std::memory_order_relaxed);
  }
  throw Error(errc::invalid_argument, call, device,
              "memory " + std::to_string(static_cast<int>(memory)) + " is no QueueMemory (host, pinned, device)");
}

const char* to_string(FullPolicy p) noexcept {
  switch (p) {
    case FullPolicy::block: return "block";
    case FullPolicy::reject: return "reject";
    case FullPolicy::drop_oldest: return "drop_oldest";
    case FullPolicy::drop_newest: return "drop_newest";
  }
  return "invalid";
}

const char* to_string(QueueMemory m) noexcept {
  switch (m) {
    case QueueMemory::host: return "host";
    case QueueMemory::pinned: return "pinned";
    case QueueMemory::device: return "device";
  }
  return "invalid";
}

const char* to_string(SendStatus s) noexcept {
  switch (s) {
    case SendStatus::ok: return "ok";
    case SendStatus::full: return "full";
    case SendStatus::dropped_newest: return "dropped (newest)";
    case SendStatus::timeout: return "timeout";
    case SendStatus::stopped: return "stopped";
    case SendStatus::closed: return "closed";
  }
  return "invalid";
}

const char* to_string(ReceiveStatus s) noexcept {
  switch (s) {
    case ReceiveStatus::ok: return "ok";
    case ReceiveStatus::empty: return "empty";
    case ReceiveStatus::timeout: return "timeout";
    case ReceiveStatus::stopped: return "stopped";
    case ReceiveStatus::closed: return "closed";
  }
  return "invalid";
}

void QueueStorage::aligned_free::operator()(std::byte* p) const noexcept { detail::free_aligned_host(p); }

QueueStorage::QueueStorage(QueueMemory memory, int device, std::size_t bytes)
    : memory_(memory), device_(device), size_(bytes) {
  switch (memory) {
    case QueueMemory::host: {
      auto* p = static_cast<std::byte*>(detail::allocate_aligned_host(bytes));
      if (p == nullptr) {
        throw Error(errc::out_of_memory, "QueueStorage", no_device,
                    "host allocation of " + std::to_string(bytes) + " bytes for a queue failed");
      }
      host_.reset(p);
      data_ = p;
      break;
    }
    case QueueMemory::pinned:
      pinned_ = PinnedBuffer(device, bytes);
      data_ = pinned_.data();
      break;
    case QueueMemory::device:
      device_memory_ = DeviceBuffer(device, bytes);
      data_ = device_memory_.data();
      host_accessible_ = host_accessible_memory(QueueMemory::device, device);
      break;
    default:
      throw Error(errc::invalid_argument, "QueueStorage", device,
                  "memory " + std::to_string(static_cast<int>(memory)) + " is no QueueMemory (host, pinned, device)");
  }
}

QueueStorage::~QueueStorage() = default;

QueueStorage detail::ring_storage(const char* call, QueueMemory memory, int device, std::uint64_t capacity,
                                  std::size_t bytes) {
  try {
    return QueueStorage(memory, device, bytes);
  } catch (const Error& e) {
    if (e.code() != errc::out_of_memory) throw;
    const char* const where = memory == QueueMemory::host     ? "host memory"
                              : memory == QueueMemory::pinned ? "pinned host memory"
                                                              : "device memory";
    throw Error(e.code(), call, e.device(),
                "the ring of " + std::to_string(capacity) + " slots (" + std::to_string(bytes) + " bytes) in " + where +
                    " (QueueMemory::" + to_string(memory) + "): " + e.call() + ": " + e.detail());
  }
}

// Device memory is copied on a stream of its own (or the caller's), which does not wait for other
// work: a plain cudaMemcpy waits for every kernel of the legacy default stream, so shutting down or
// counting a ring that a persistent kernel (launched there) is serving would wait for that kernel
// forever.
void QueueStorage::upload(const void* host, std::size_t bytes, std::size_t offset) {
  check_range("QueueStorage::upload", bytes, offset);
  if (bytes == 0) return;
  device_copy("QueueStorage::upload", static_cast<std::byte*>(data_) + offset, host, bytes, nullptr);
}

void QueueStorage::download(void* host, std::size_t bytes, std::size_t offset) const {
  check_range("QueueStorage::download", bytes, offset);
  if (bytes == 0) return;
  device_copy("QueueStorage::download", host, static_cast<const std::byte*>(data_) + offset, bytes, nullptr);
}

void QueueStorage::upload(const void* host, std::size_t bytes, std::size_t offset, Stream& stream) {
  check_range("QueueStorage::upload", bytes, offset);
  if (bytes == 0) return;
  device_copy("QueueStorage::upload", static_cast<std::byte*>(data_) + offset, host, bytes, &stream);
}

void QueueStorage::download(void* host, std::size_t bytes, std::size_t offset, Stream& stream) const {
  check_range("QueueStorage::download", bytes, offset);
  if (bytes == 0) return;
  device_copy("QueueStorage::download", host, static_cast<const std::byte*>(data_) + offset, bytes, &stream);
}

void QueueStorage::device_copy(const char* call, void* dst, const void* src, std::size_t bytes, Stream* stream) const {
  if (host_accessible_) {
    std::memcpy(dst, src, bytes);
    return;
  }
  if (stream == nullptr) {
    std::optional<Stream> own;
    try {
      own.emplace(device_);
    } catch (const Error& e) {  // named by the user's call, not by the stream it makes
      throw Error(e.code(), call, e.device(),
                  "starting the stream the copy runs on (" + e.call() + "): " + e.detail());
    }
    own->copy_async(dst, src, bytes);
    own->synchronize();
    return;
  }
  if (stream->device() != device_) {
    throw Error(errc::invalid_argument, call, stream->device(),
                "the stream is on device " + std::to_string(stream->device()) + " but the queue's memory on device " +
                    std::to_string(device_));
  }
  stream->copy_async(dst, src, bytes);
  stream->synchronize();
}

void QueueStorage::check_range(const char* call, std::size_t bytes, std::size_t offset) const {
  if (offset > size_ || bytes > size_ - offset) {
    throw Error(errc::out_of_range, call, device_,
                std::to_string(bytes) + " bytes at offset " + std::to_string(offset) + " do not fit the queue's " +
                    std::to_string(size_) + " bytes");
  }
}

}  // namespace ringkernel
