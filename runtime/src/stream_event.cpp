// Copyright RingKernel authors.
// Stream and Event: RAII owners over the backend's stream and event objects.
#include <cstdio>
#include <string>
#include <utility>

#include "pointer_text.h"
#include "ranges_overlap.h"
#include "registry.h"
#include "replaced_host_memory.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/stream.h"

namespace ringkernel {

namespace {

using detail::hex;

[[noreturn]] void moved_from(const char* call, const char* what = "the object") {
  throw Error(errc::invalid_state, call, no_device, std::string(what) + " was moved from");
}

/// The implementation of a stream / event, Error(invalid_state) naming `call` if it was moved from.
detail::StreamImpl& live(const Stream& s, const char* call) {
  if (!s.backend()) moved_from(call, "the stream");
  return s.impl();
}
detail::EventImpl& live(const Event& e, const char* call) {
  if (!e.backend()) moved_from(call, "the event");
  return e.impl();
}

}  // namespace

Stream::Stream(int device) {
  const auto ref = detail::Registry::instance().resolve(device, "Stream::Stream");
  device_ = ref.id;
  ordinal_ = ref.ordinal;
  backend_ = ref.backend;
  impl_ = backend_->create_stream(ref.ordinal, ref.id);
}

Stream::Stream(Stream&& other) noexcept
    : device_(std::exchange(other.device_, -1)),
      ordinal_(std::exchange(other.ordinal_, -1)),
      backend_(std::move(other.backend_)),
      impl_(std::move(other.impl_)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    device_ = std::exchange(other.device_, -1);
    ordinal_ = std::exchange(other.ordinal_, -1);
    impl_ = std::move(other.impl_);  // the old stream goes before its backend, as in ~Stream
    backend_ = std::move(other.backend_);
  }
  return *this;
}

Stream::~Stream() = default;

detail::StreamImpl& Stream::impl() const {
  if (!impl_) moved_from("Stream");
  return *impl_;
}

void* Stream::native_handle() const { return live(*this, "Stream::native_handle").native_handle(); }

void Stream::copy_async(void* dst, const void* src, std::size_t bytes) {
  constexpr const char* call = "Stream::copy_async";
  auto& stream = live(*this, call);
  // A null pointer is fine for 0 bytes (an empty DeviceBuffer's data()): nothing is copied.
  if (!dst && bytes != 0) throw Error(errc::invalid_argument, call, device_, "destination is null");
  if (!src && bytes != 0) throw Error(errc::invalid_argument, call, device_, "source is null");
  // A null pointer (0 bytes) is no one's memory: not asked about (CUDA would ask the driver).
  const int dst_owner = dst ? backend_->owner_of(dst) : -1;
  const int src_owner = src ? backend_->owner_of(src) : -1;
  // Device ids in messages: this backend's ordinals are offset from the stream's own device.
  const int base = device_ - ordinal_;
  if (dst_owner >= 0) backend_->check_device_range(dst_owner, dst, bytes, call, "destination", base + dst_owner);
  if (src_owner >= 0) backend_->check_device_range(src_owner, src, bytes, call, "source", base + src_owner);
  if (dst_owner >= 0 && src_owner >= 0 && dst_owner != src_owner)
    throw Error(errc::unsupported, call, device_,
                "source is on device " + std::to_string(base + src_owner) + " and destination on device " +
                    std::to_string(base + dst_owner) + "; copy between devices with PeerMemory::copy_peer_async");
  const auto check_owner = [&](const void* p, int owner, const char* what) {
    if (!p) return;  // 0 bytes: nothing to check
    if (owner >= 0) {
      if (owner != ordinal_)
        throw Error(errc::invalid_argument, call, device_,
                    std::string(what) + " " + hex(p) + " is memory of device " + std::to_string(base + owner) +
                        " but the stream is on device " + std::to_string(device_) +
                        "; use a stream of device " + std::to_string(base + owner));
      return;
    }
    // Not this backend's device memory: it must not be another backend's either (or memory of
    // a host configuration newer than this stream), which this stream would treat as host memory;
    // nor pinned memory of another backend or configuration, whose release would not wait for this
    // stream's copies (a copy still queued would touch freed memory).
    const auto elsewhere = detail::Registry::instance().foreign_memory(p, backend_.get());
    if (!elsewhere.empty() && detail::of_current_host_configuration(p, *backend_))
      throw Error(errc::invalid_argument, call, device_,
                  std::string(what) + " " + hex(p) + " is " + elsewhere +
                      " of the current host configuration, but this stream of device " + std::to_string(device_) +
                      " is of an earlier one (created before configure_host_backend()) and cannot use it; use a "
                      "stream of the current configuration");
    if (!elsewhere.empty())
      throw Error(errc::invalid_argument, call, device_,
                  std::string(what) + " " + hex(p) + " is " + elsewhere + ", which this stream of device " +
                      std::to_string(device_) + " cannot use (another backend or another host configuration" +
                      (elsewhere.starts_with("pinned") ? ": freeing it would not wait for this stream; use pinned "
                                                         "memory of this stream's backend or ordinary host memory)"
                                                       : ")"));
    // Host memory, whose range must not run into this backend's device memory (an overrun).
    backend_->check_host_range(p, bytes, call, what, base);
  };
  check_owner(dst, dst_owner, "destination");
  check_owner(src, src_owner, "source");
  if (detail::ranges_overlap(dst, src, bytes))
    throw Error(errc::overlapping_ranges, call, device_,
                "source and destination ranges of " + std::to_string(bytes) + " bytes overlap");
  if (bytes != 0) backend_->copy_async(stream, dst, src, bytes);
}

void Stream::wait(const Event& event) {
  auto& stream = live(*this, "Stream::wait");
  auto& target = live(event, "Stream::wait");
  if (event.backend() != backend_)
    throw Error(errc::invalid_argument, "Stream::wait", device_,
                "event of device " + std::to_string(event.device()) +
                    " belongs to another backend (or an older host configuration)");
  backend_->wait(stream, target);
}

void Stream::synchronize() {
  auto& stream = live(*this, "Stream::synchronize");
  backend_->synchronize(stream);
}

bool Stream::idle() const {
  auto& stream = live(*this, "Stream::idle");
  return backend_->idle(stream);
}

Event::Event(int device) {
  const auto ref = detail::Registry::instance().resolve(device, "Event::Event");
  device_ = ref.id;
  backend_ = ref.backend;
  impl_ = backend_->create_event(ref.ordinal, ref.id);
}

Event::Event(Event&& other) noexcept
    : device_(std::exchange(other.device_, -1)),
      backend_(std::move(other.backend_)),
      impl_(std::move(other.impl_)) {}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    device_ = std::exchange(other.device_, -1);
    impl_ = std::move(other.impl_);  // the old event goes before its backend, as in ~Event
    backend_ = std::move(other.backend_);
  }
  return *this;
}

Event::~Event() = default;

detail::EventImpl& Event::impl() const {
  if (!impl_) moved_from("Event");
  return *impl_;
}

void* Event::native_handle() const { return live(*this, "Event::native_handle").native_handle(); }

void Event::record(Stream& stream) {
  constexpr const char* call = "Event::record";
  auto& event = live(*this, call);
  auto& target = live(stream, call);
  if (stream.backend() != backend_)
    throw Error(errc::invalid_argument, call, device_,
                "event of device " + std::to_string(device_) + " and the stream of device " +
                    std::to_string(stream.device()) +
                    " belong to different backends (or host configurations: one of them was "
                    "created before configure_host_backend())");
  if (stream.device() != device_)
    throw Error(errc::invalid_argument, "Event::record", device_,
                "event of device " + std::to_string(device_) + " cannot be recorded on a stream of device " +
                    std::to_string(stream.device()) + "; record it on its own device and wait on the other");
  backend_->record(event, target);
}

void Event::synchronize() const {
  auto& event = live(*this, "Event::synchronize");
  backend_->synchronize(event);
}

bool Event::completed() const {
  auto& event = live(*this, "Event::completed");
  return backend_->completed(event);
}

}  // namespace ringkernel
