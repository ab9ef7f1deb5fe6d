// Copyright RingKernel authors.
// A plugin that uses the runtime, loaded with dlopen by copies_check.cpp. It links RingKernel::runtime
// itself: with the static library it has a copy of its own unless its calls bind to the program's.
#include <cstddef>
#include <cstring>
#include <string>

#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/host_backend.h"

namespace {
void copy_out(const std::string& text, char* out, std::size_t size) {
  if (size == 0) return;
  const std::size_t n = text.size() < size - 1 ? text.size() : size - 1;
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}
}  // namespace

extern "C" {

// Each returns -1 with the Error's code and what() if the call threw one.
__attribute__((visibility("default"))) int rk_plugin_host_devices(int* code, char* message, std::size_t size) {
  try {
    return static_cast<int>(ringkernel::devices(ringkernel::Backend::host).size());
  } catch (const ringkernel::Error& e) {
    *code = static_cast<int>(e.code());
    copy_out(e.what(), message, size);
    return -1;
  }
}

__attribute__((visibility("default"))) int rk_plugin_configure(int devices, int* code, char* message, std::size_t size) {
  try {
    ringkernel::HostBackendConfig config;
    config.device_count = devices;
    ringkernel::configure_host_backend(config);
    return 0;
  } catch (const ringkernel::Error& e) {
    *code = static_cast<int>(e.code());
    copy_out(e.what(), message, size);
    return -1;
  }
}

// The host backend's status: 1 if available, its note copied out.
__attribute__((visibility("default"))) int rk_plugin_host_status(char* note, std::size_t size) {
  for (const auto& status : ringkernel::backend_statuses()) {
    if (status.backend != ringkernel::Backend::host) continue;
    copy_out(status.note, note, size);
    return status.available ? 1 : 0;
  }
  return -1;
}

}  // extern "C"
