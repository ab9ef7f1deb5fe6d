// Copyright RingKernel authors.
// Stream and Event: RAII owners over the backend's stream and event objects.
#include "registry.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/stream.h"

namespace ringkernel {

namespace {

[[noreturn]] void moved_from(const char* call) {
  throw Error(errc::invalid_state, call, no_device, "the object was moved from");
}

/// Overlap of [a, a + n) and [b, b + n) for non-empty ranges.
bool overlaps(const void* a, const void* b, std::size_t n) {
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return n != 0 && x < y + n && y < x + n;
}

}  // namespace

Stream::Stream(int device) {
  const auto ref = detail::Registry::instance().resolve(device, "Stream::Stream");
  device_ = ref.id;
  backend_ = ref.backend;
  impl_ = backend_->create_stream(ref.ordinal, ref.id);
}

Stream::~Stream() = default;

detail::StreamImpl& Stream::impl() const {
  if (!impl_) moved_from("Stream");
  return *impl_;
}

void Stream::copy_async(void* dst, const void* src, std::size_t bytes) {
  constexpr const char* call = "Stream::copy_async";
  auto& stream = impl();
  if (!dst) throw Error(errc::invalid_argument, call, device_, "destination is null");
  if (!src) throw Error(errc::invalid_argument, call, device_, "source is null");
  const int dst_owner = backend_->owner_of(dst);
  const int src_owner = backend_->owner_of(src);
  // Device ids in messages: this backend's ordinals are offset from the stream's own device.
  const auto ref = detail::Registry::instance().resolve(device_, call);
  const int base = device_ - ref.ordinal;
  if (dst_owner >= 0) backend_->check_device_range(dst_owner, dst, bytes, call, "destination", base + dst_owner);
  if (src_owner >= 0) backend_->check_device_range(src_owner, src, bytes, call, "source", base + src_owner);
  if (dst_owner >= 0 && src_owner >= 0 && dst_owner != src_owner)
    throw Error(errc::unsupported, call, device_,
                "source is on device " + std::to_string(base + src_owner) + " and destination on device " +
                    std::to_string(base + dst_owner) + "; copy between devices with PeerMemory::copy_peer_async");
  if (overlaps(dst, src, bytes))
    throw Error(errc::overlapping_ranges, call, device_,
                "source and destination ranges of " + std::to_string(bytes) + " bytes overlap");
  backend_->copy_async(stream, dst, src, bytes);
}

void Stream::wait(const Event& event) {
  auto& stream = impl();
  auto& target = event.impl();
  if (event.backend() != backend_)
    throw Error(errc::unsupported, "Stream::wait", device_,
                "event of device " + std::to_string(event.device()) +
                    " belongs to another backend (or an older host configuration)");
  backend_->wait(stream, target);
}

void Stream::synchronize() {
  auto& stream = impl();  // throws first for a moved-from stream
  backend_->synchronize(stream);
}

bool Stream::idle() const {
  auto& stream = impl();
  return backend_->idle(stream);
}

Event::Event(int device) {
  const auto ref = detail::Registry::instance().resolve(device, "Event::Event");
  device_ = ref.id;
  backend_ = ref.backend;
  impl_ = backend_->create_event(ref.ordinal, ref.id);
}

Event::~Event() = default;

detail::EventImpl& Event::impl() const {
  if (!impl_) moved_from("Event");
  return *impl_;
}

void Event::record(Stream& stream) {
  auto& event = impl();
  if (stream.device() != device_)
    throw Error(errc::invalid_argument, "Event::record", device_,
                "event of device " + std::to_string(device_) + " cannot be recorded on a stream of device " +
                    std::to_string(stream.device()) + "; record it on its own device and wait on the other");
  backend_->record(event, stream.impl());
}

void Event::synchronize() const {
  auto& event = impl();  // throws first for a moved-from event
  backend_->synchronize(event);
}

bool Event::completed() const {
  auto& event = impl();
  return backend_->completed(event);
}

}  // namespace ringkernel
