// Copyright RingKernel authors.
// resolve_device_pair and check_device_memory (device_pair.h).
#include "device_pair.h"

#include <string>

#include "backend.h"
#include "pointer_text.h"
#include "ringkernel/error.h"

namespace ringkernel::detail {

DevicePair resolve_device_pair(int src, int dst, const char* call) {
  DevicePair p{Registry::instance().resolve(src, call), Registry::instance().resolve(dst, call)};
  if (p.src.backend != p.dst.backend) {
    // Two host devices of two configurations: configure_host_backend() ran between the two lookups.
    const bool hosts = p.src.backend->kind() == p.dst.backend->kind();
    throw Error(errc::unsupported, call, src,
                "devices " + std::to_string(src) + " (" + to_string(p.src.backend->kind()) + ") and " +
                    std::to_string(dst) + " (" + to_string(p.dst.backend->kind()) + ") belong to different " +
                    (hosts ? "host configurations (configure_host_backend() replaced it during this call)"
                           : "backends; there is no path between them"));
  }
  return p;
}

void check_device_memory(const DeviceRef& d, const void* p, std::size_t bytes, const char* call, const char* what) {
  try {
    d.backend->check_device_range(d.ordinal, p, bytes, call, what, d.id);
  } catch (const Error& e) {
    const auto elsewhere = e.code() == errc::invalid_argument && p ? Registry::instance().foreign_memory(p, d.backend.get()) : "";
    if (elsewhere.empty()) throw;
    throw Error(errc::invalid_argument, call, d.id,
                std::string(what) + " " + hex(p) + " is " + elsewhere + ", not memory of device " + std::to_string(d.id) +
                    (d.backend->kind() == Backend::host ? " of the current host configuration" : ""));
  }
}

}  // namespace ringkernel::detail
