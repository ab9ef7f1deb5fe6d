// Copyright RingKernel authors.
// resolve_device_pair and check_device_memory (device_pair.h).
#include "device_pair.h"

#include <string>
#include <string_view>
#include <utility>

#include "backend.h"
#include "pointer_text.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

namespace {
constexpr std::string_view overtaken_text = "configure_host_backend() replaced the host configuration during this call; ";
}  // namespace

void throw_overtaken(const char* call, int device, const char* outcome) {
  throw Error(errc::invalid_state, call, device, std::string(overtaken_text) + outcome);
}

bool overtaken(const Error& e) { return e.code() == errc::invalid_state && e.detail().starts_with(overtaken_text); }

DevicePair resolve_device_pair(int src, int dst, const char* call) {
  // One lookup (one snapshot of the registry): two host devices are of one configuration, so two
  // backends are CUDA and host. (Looked up one by one, another thread's configure_host_backend()
  // in between left two host devices of two configurations: the call was overtaken.)
  auto [s, d] = Registry::instance().resolve_pair(src, dst, call);
  DevicePair p{std::move(s), std::move(d)};
  if (p.src.backend != p.dst.backend) {
    throw Error(errc::unsupported, call, src,
                "devices " + std::to_string(src) + " (" + to_string(p.src.backend->kind()) + ") and " +
                    std::to_string(dst) + " (" + to_string(p.dst.backend->kind()) +
                    ") belong to different backends; there is no path between them");
  }
  return p;
}

void check_device_memory(const DeviceRef& d, const void* p, std::size_t bytes, const char* call, const char* what,
                         DeviceMemoryUse use) {
  if (!p && bytes == 0) return;  // an empty DeviceBuffer's data(): nothing to copy or map
  try {
    d.backend->check_device_range(d.ordinal, p, bytes, call, what, d.id);
  } catch (const Error& e) {
    if (e.code() != errc::invalid_argument || !p || d.backend->owner_of(p) >= 0) throw;
    const auto elsewhere = Registry::instance().foreign_memory(p, d.backend.get());
    // Host memory given for device memory: say so, and what copies it (PeerMemory's copies only).
    const bool copy = use == DeviceMemoryUse::copy;
    const std::string fix = copy ? "; copy between host and device memory with Stream::copy_async" : "";
    if (elsewhere.empty() && d.backend->owns_pinned(p))
      throw Error(errc::invalid_argument, call, d.id,
                  std::string(what) + " " + hex(p) + " is pinned host memory, not memory of device " +
                      std::to_string(d.id) + fix);
    if (elsewhere.empty())
      throw Error(errc::invalid_argument, call, d.id,
                  std::string(what) + " " + hex(p) + " is not memory of device " + std::to_string(d.id) +
                      (copy ? " (host memory, or memory RingKernel does not know)" + fix : ""));
    throw Error(errc::invalid_argument, call, d.id,
                std::string(what) + " " + hex(p) + " is " + elsewhere + ", not memory of device " + std::to_string(d.id) +
                    (d.backend->kind() == Backend::host ? " of the current host configuration" : ""));
  }
}

}  // namespace ringkernel::detail
