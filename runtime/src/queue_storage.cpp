// Copyright RingKernel authors.
// QueueStorage and the queue vocabulary's names.
#include "ringkernel/queue/queue_storage.h"

#include <cstring>
#include <new>
#include <string>

#include "ringkernel/device.h"
#include "ringkernel/error.h"

namespace ringkernel {

namespace {
constexpr std::align_val_t storage_alignment{256};
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

void QueueStorage::aligned_free::operator()(std::byte* p) const noexcept { ::operator delete(p, storage_alignment); }

QueueStorage::QueueStorage(QueueMemory memory, int device, std::size_t bytes)
    : memory_(memory), device_(device), size_(bytes) {
  switch (memory) {
    case QueueMemory::host: {
      auto* p = static_cast<std::byte*>(::operator new(bytes, storage_alignment, std::nothrow));
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
      host_accessible_ = ringkernel::device(device).backend == Backend::host;
      break;
  }
}

QueueStorage::~QueueStorage() = default;

void QueueStorage::upload(const void* host, std::size_t bytes) {
  if (bytes > size_) {
    throw Error(errc::out_of_range, "QueueStorage::upload", device_,
                std::to_string(bytes) + " bytes do not fit the queue's " + std::to_string(size_) + " bytes");
  }
  if (memory_ == QueueMemory::device) {
    device_memory_.upload(host, bytes);
  } else {
    std::memcpy(data_, host, bytes);
  }
}

}  // namespace ringkernel
