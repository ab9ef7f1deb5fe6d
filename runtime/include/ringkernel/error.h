// Copyright RingKernel authors.
// ringkernel::Error: the one exception type of the host runtime (DESIGN.md §6). It carries an error
// code, the failing call, the device it concerned (or no_device) and a human-readable detail;
// what() says all of it, e.g.
//   "ringkernel: PeerMemory::copy_peer (device 1): out of range: destination range ... exceeds ..."
#pragma once

#include <stdexcept>
#include <string>

namespace ringkernel {

enum class errc {
  invalid_device,           // a device id that names no device
  invalid_argument,         // a null pointer, zero where it is not allowed, a bad option value
  out_of_range,             // a byte range outside the allocation it must lie in
  overlapping_ranges,       // source and destination overlap where that is not allowed
  unsupported,              // the operation cannot be done on these devices (says why)
  peer_access_unsupported,  // peer access requested for a pair whose topology has no direct link
  invalid_state,            // e.g. unmapping what was never mapped, disabling a pair with live mappings
  out_of_memory,            // an allocation failed
  backend_failure,          // the backend (CUDA) reported an error; the detail names it
  configuration,            // a bad RINGKERNEL_* environment variable or HostBackendConfig
};

/// Short English name of an error code ("invalid device", ...).
const char* to_string(errc code) noexcept;

/// Device id used in an Error that concerns no single device.
inline constexpr int no_device = -1;

class Error : public std::runtime_error {
 public:
  Error(errc code, std::string call, int device, std::string detail);
  Error(const Error&) = default;
  Error(Error&&) = default;
  Error& operator=(const Error&) = default;
  Error& operator=(Error&&) = default;
  ~Error() override;  // defined in error.cpp: the class's vtable has one home (clang's -Wweak-vtables)

  errc code() const noexcept { return code_; }
  /// The API call that failed, e.g. "PeerMemory::copy_peer" or "cudaMemcpyPeerAsync".
  const std::string& call() const noexcept { return call_; }
  /// The device the failure concerns, or ringkernel::no_device.
  int device() const noexcept { return device_; }
  /// The explanation without the prefix (what() = prefix + detail).
  const std::string& detail() const noexcept { return detail_; }

 private:
  errc code_;
  std::string call_;
  int device_;
  std::string detail_;
};

}  // namespace ringkernel
