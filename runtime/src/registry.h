// Copyright RingKernel authors.
// The process-wide device registry: which backends exist and which global id names which
// (backend, ordinal). Lazily initialised from the environment; the host backend can be replaced.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "backend.h"
#include "ringkernel/error.h"
#include "ringkernel/host_backend.h"

namespace ringkernel::detail {

struct DeviceRef {
  std::shared_ptr<DeviceBackend> backend;
  int ordinal = -1;
  int id = -1;
};

class Registry {
 public:
  static Registry& instance();

  /// Error(errc::invalid_device) naming `call` and the valid range if `id` names no device.
  /// A CUDA device's id resolves also while a bad RINGKERNEL_HOST_* environment is pending (CUDA
  /// devices come first, so their ids do not depend on the host configuration); any other id throws
  /// the configuration error then.
  DeviceRef resolve(int id, const char* call) const;
  /// Both ids in one snapshot of the configuration (resolve's errors, `first`'s before `second`'s):
  /// a configure_host_backend() of another thread comes before or after, never between the two, so
  /// a pair of host devices is always of one configuration.
  std::pair<DeviceRef, DeviceRef> resolve_pair(int first, int second, const char* call) const;
  int device_count() const;
  /// Every device, or only `only`'s devices (with their global ids). Only a call for the CUDA
  /// backend's devices alone does not throw a pending configuration error: it needs no host device.
  std::vector<DeviceRef> all(std::optional<Backend> only = std::nullopt) const;
  std::vector<std::shared_ptr<DeviceBackend>> backends() const;
  /// Each backend's status; never throws for a bad RINGKERNEL_HOST_* environment, which the host
  /// backend's status then reports (a diagnosis must not fail on what it is to diagnose), nor in a
  /// refused second copy of the runtime (every backend unavailable, the error as its note).
  std::vector<BackendStatus> statuses() const;

  /// If `p` is device memory or pinned memory of a backend other than `except` - a current one, or
  /// a host backend that configure_host() replaced while objects of it live on - what it is
  /// ("memory of device 3", "memory of a host device of an earlier host configuration", "pinned
  /// memory of the cuda backend", ...); empty otherwise. For checks of memory that `except` takes
  /// for host memory: device memory it cannot reach, and (where `except` is a host backend, whose
  /// streams copy host memory asynchronously) pinned memory whose release would not wait for its
  /// streams. `use`: Access::synchronous for a copy done before the call returns
  /// (DeviceBuffer::upload/download), which no release can race: pinned memory is not named then.
  enum class Access { asynchronous, synchronous };
  std::string foreign_memory(const void* p, const DeviceBackend* except, Access use = Access::asynchronous) const;

  void configure_host(const HostBackendConfig& config);
  HostBackendConfig host_config() const;

 private:
  Registry();
  /// Throws the error of a process with several copies of the runtime in use if this copy is not
  /// the first (runtime_copies.h); set once, in the constructor, for the registry's whole life.
  void throw_if_second_copy() const;
  /// Throws that error, or the environment's configuration error while one is pending (mutex_ held).
  void throw_if_unconfigured() const;
  DeviceRef resolve_locked(int id, const char* call) const;  // mutex_ held
  mutable std::shared_mutex mutex_;
  const std::optional<Error> second_copy_error_;  // then no backend is made
  std::shared_ptr<DeviceBackend> cuda_;  // null when not compiled in
  std::shared_ptr<DeviceBackend> host_;
  HostBackendConfig host_config_;
  std::optional<Error> environment_error_;  // bad RINGKERNEL_HOST_*, until configure_host()
  std::vector<std::weak_ptr<DeviceBackend>> replaced_hosts_;  // earlier host backends
};

/// Test seam (private to the runtime and its tests): `hook` runs once, on the thread that looks up,
/// right after the next lookup of device ids (Registry::resolve, resolve_pair or all) has its
/// answer, before the caller uses it: a configure_host_backend() there overtakes the call that made
/// the lookup at a known point. An empty hook disarms it.
void after_next_lookup_for_testing(std::function<void()> hook);

/// Error(errc::configuration) naming `source` if the config is inconsistent.
void validate_host_config(const HostBackendConfig& config, const char* source);

/// Factories of the backends (cuda_backend.cpp exists only with RINGKERNEL_HAS_CUDA).
std::shared_ptr<DeviceBackend> make_cuda_backend();
std::shared_ptr<DeviceBackend> make_host_backend(const HostBackendConfig& config);

}  // namespace ringkernel::detail
