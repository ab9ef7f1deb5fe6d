// Copyright RingKernel authors.
// DeviceBuffer and PinnedBuffer: RAII owners of backend allocations.
#include <string>
#include <utility>

#include "pointer_text.h"
#include "ranges_overlap.h"
#include "registry.h"
#include "replaced_host_memory.h"
#include "ringkernel/buffers.h"
#include "ringkernel/error.h"

namespace ringkernel {

DeviceBuffer::DeviceBuffer(int device, std::size_t bytes) {
  const auto ref = detail::Registry::instance().resolve(device, "DeviceBuffer::DeviceBuffer");
  device_ = ref.id;
  ordinal_ = ref.ordinal;
  backend_ = ref.backend;
  data_ = backend_->allocate(ordinal_, bytes, device_);
  size_ = bytes;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : device_(std::exchange(other.device_, -1)),
      ordinal_(std::exchange(other.ordinal_, -1)),
      backend_(std::move(other.backend_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    device_ = std::exchange(other.device_, -1);
    ordinal_ = std::exchange(other.ordinal_, -1);
    backend_ = std::move(other.backend_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

void DeviceBuffer::reset() noexcept {
  if (backend_ && data_) backend_->release(ordinal_, data_);
  data_ = nullptr;
  size_ = 0;
}

namespace {
void check_host_transfer(const char* call, int device, const void* host, std::size_t bytes,
                         std::size_t offset, std::size_t size) {
  if (device < 0 && bytes != 0)
    throw Error(errc::invalid_state, call, no_device,
                "the buffer owns no memory (default-constructed or moved from)");
  if (!host && bytes != 0) throw Error(errc::invalid_argument, call, device, "host pointer is null");
  if (offset > size || bytes > size - offset)
    throw Error(errc::out_of_range, call, device,
                "range [" + std::to_string(offset) + ", " + std::to_string(offset) + " + " +
                    std::to_string(bytes) + ") exceeds the buffer of " + std::to_string(size) + " bytes");
}
// The host side of a transfer: device memory of the backend (another buffer) must hold the whole
// range, and host memory must not run into device memory (an overrun either way). Device memory of
// another backend or host configuration is neither: the backend would take it for host memory
// (memcpy a CUDA pointer on the host backend) without knowing its range. `device_side` is the
// buffer's range the transfer copies to (upload) or from (download): the host side must not
// overlap it (memcpy and cudaMemcpy forbid it; memory of another buffer never does).
enum class Direction { upload, download };
void check_host_side(const detail::DeviceBackend& backend, const char* call, Direction direction, int device,
                     int ordinal, const void* host, const void* device_side, std::size_t bytes, std::size_t offset) {
  const int first = device - ordinal;  // the global id of the backend's ordinal 0
  const int owner = backend.owner_of(host);
  if (owner >= 0) {
    backend.check_device_range(owner, host, bytes, call, "host pointer", first + owner);
    if (detail::ranges_overlap(host, device_side, bytes)) {
      const auto range = [bytes](const std::string& what, const void* p) {
        return "(" + what + ") [" + detail::hex(p) + ", " + detail::hex(p) + " + " + std::to_string(bytes) + ")";
      };
      const std::string host_side = range("the host pointer", host);
      const std::string buffer_side = range("offset " + std::to_string(offset) + " of this buffer", device_side);
      const bool upload = direction == Direction::upload;
      throw Error(errc::overlapping_ranges, call, device,
                  "source " + (upload ? host_side : buffer_side) + " and destination " +
                      (upload ? buffer_side : host_side) + " overlap on device " + std::to_string(device));
    }
    return;
  }
  using Access = detail::Registry::Access;
  const auto elsewhere = detail::Registry::instance().foreign_memory(host, &backend, Access::synchronous);
  if (!elsewhere.empty() && detail::of_current_host_configuration(host, backend))
    throw Error(errc::invalid_argument, call, device,
                "host pointer " + detail::hex(host) + " is " + elsewhere +
                    " of the current host configuration, but this buffer of device " + std::to_string(device) +
                    " is of an earlier one (created before configure_host_backend()) and cannot use it");
  if (!elsewhere.empty())
    throw Error(errc::invalid_argument, call, device,
                "host pointer " + detail::hex(host) + " is " + elsewhere + ", which this buffer of device " +
                    std::to_string(device) + " cannot use (another backend or another host configuration)");
  backend.check_host_range(host, bytes, call, "host pointer", first);
}
}  // namespace

void DeviceBuffer::upload(const void* host, std::size_t bytes, std::size_t offset) {
  constexpr const char* call = "DeviceBuffer::upload";
  check_host_transfer(call, device_, host, bytes, offset, size_);
  if (bytes == 0) return;
  auto* dst = static_cast<std::byte*>(data_) + offset;
  check_host_side(*backend_, call, Direction::upload, device_, ordinal_, host, dst, bytes, offset);
  backend_->copy_sync(dst, host, bytes, device_);
}

void DeviceBuffer::download(void* host, std::size_t bytes, std::size_t offset) const {
  constexpr const char* call = "DeviceBuffer::download";
  check_host_transfer(call, device_, host, bytes, offset, size_);
  if (bytes == 0) return;
  const auto* src = static_cast<const std::byte*>(data_) + offset;
  check_host_side(*backend_, call, Direction::download, device_, ordinal_, host, src, bytes, offset);
  backend_->copy_sync(host, src, bytes, device_);
}

PinnedBuffer::PinnedBuffer(int device, std::size_t bytes) {
  const auto ref = detail::Registry::instance().resolve(device, "PinnedBuffer::PinnedBuffer");
  backend_ = ref.backend;
  data_ = backend_->allocate_pinned(bytes, ref.id);
  size_ = bytes;
  device_ = device;
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : device_(std::exchange(other.device_, -1)),
      backend_(std::move(other.backend_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    device_ = std::exchange(other.device_, -1);
    backend_ = std::move(other.backend_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

PinnedBuffer::~PinnedBuffer() { reset(); }

void PinnedBuffer::reset() noexcept {
  if (backend_ && data_) backend_->release_pinned(data_);
  data_ = nullptr;
  size_ = 0;
  device_ = -1;
}

}  // namespace ringkernel
