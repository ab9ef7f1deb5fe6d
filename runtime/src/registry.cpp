// Copyright RingKernel authors.
#include "registry.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <utility>

#include "ringkernel/error.h"
#include "runtime_copies.h"

namespace ringkernel::detail {

#if !defined(RINGKERNEL_HAS_CUDA_BACKEND)
std::shared_ptr<DeviceBackend> make_cuda_backend() { return nullptr; }
#endif

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

Registry::Registry() : second_copy_error_(claim_runtime_copy()) {
  if (second_copy_error_) return;  // a refused copy touches no backend
  cuda_ = make_cuda_backend();
  try {
    host_config_ = HostBackendConfig::from_environment();
  } catch (const Error& e) {
    // Kept, not thrown: a throwing constructor would leave no registry, and configure_host()
    // (which needs one) could never replace the bad environment.
    environment_error_ = e;
    return;
  }
  host_ = make_host_backend(host_config_);
}

void Registry::throw_if_second_copy() const {
  if (second_copy_error_) throw *second_copy_error_;
}

void Registry::throw_if_unconfigured() const {
  throw_if_second_copy();
  if (environment_error_) throw *environment_error_;
}

namespace {

struct LookupHook {
  std::atomic<bool> armed{false};
  std::mutex mutex;
  std::function<void()> hook;
};
LookupHook& lookup_hook() {
  static LookupHook seam;
  return seam;
}

/// The seam's hook, once, outside the registry's lock (it may reconfigure).
void after_lookup() {
  auto& seam = lookup_hook();
  if (!seam.armed.load(std::memory_order_acquire)) return;
  std::function<void()> hook;
  {
    std::lock_guard lock(seam.mutex);
    hook = std::exchange(seam.hook, nullptr);
    seam.armed.store(false, std::memory_order_release);
  }
  if (hook) hook();
}

}  // namespace

void after_next_lookup_for_testing(std::function<void()> hook) {
  auto& seam = lookup_hook();
  std::lock_guard lock(seam.mutex);
  seam.armed.store(static_cast<bool>(hook), std::memory_order_release);
  seam.hook = std::move(hook);
}

DeviceRef Registry::resolve(int id, const char* call) const {
  DeviceRef ref;
  {
    std::shared_lock lock(mutex_);
    ref = resolve_locked(id, call);
  }
  after_lookup();
  return ref;
}

std::pair<DeviceRef, DeviceRef> Registry::resolve_pair(int first, int second, const char* call) const {
  std::pair<DeviceRef, DeviceRef> refs;
  {
    std::shared_lock lock(mutex_);
    refs.first = resolve_locked(first, call);
    refs.second = resolve_locked(second, call);
  }
  after_lookup();
  return refs;
}

DeviceRef Registry::resolve_locked(int id, const char* call) const {
  // CUDA devices are numbered first: a bad host configuration does not make their ids unknown.
  if (cuda_ && id >= 0 && id < cuda_->device_count()) return DeviceRef{cuda_, id, id};
  throw_if_unconfigured();
  int first = 0;
  for (const auto& backend : {cuda_, host_}) {
    if (!backend) continue;
    const int n = backend->device_count();
    if (id >= first && id < first + n) return DeviceRef{backend, id - first, id};
    first += n;
  }
  const std::string range =
      first == 0 ? "there are no devices" : "valid ids are 0.." + std::to_string(first - 1);
  throw Error(errc::invalid_device, call, id,
              "device id " + std::to_string(id) + " names no device (" + range + ")");
}

int Registry::device_count() const {
  std::shared_lock lock(mutex_);
  throw_if_unconfigured();
  int n = 0;
  for (const auto& backend : {cuda_, host_})
    if (backend) n += backend->device_count();
  return n;
}

std::vector<DeviceRef> Registry::all(std::optional<Backend> only) const {
  std::vector<DeviceRef> refs;
  {
    std::shared_lock lock(mutex_);
    throw_if_second_copy();
    if (only != Backend::cuda) throw_if_unconfigured();  // CUDA ids come first, whatever the host's
    int id = 0;
    for (const auto& backend : {cuda_, host_}) {
      if (!backend) continue;
      const bool wanted = !only || backend->kind() == *only;
      for (int ordinal = 0; ordinal < backend->device_count(); ++ordinal, ++id)
        if (wanted) refs.push_back(DeviceRef{backend, ordinal, id});
    }
  }
  after_lookup();
  return refs;
}

std::vector<std::shared_ptr<DeviceBackend>> Registry::backends() const {
  std::shared_lock lock(mutex_);
  throw_if_unconfigured();
  std::vector<std::shared_ptr<DeviceBackend>> list;
  for (const auto& backend : {cuda_, host_})
    if (backend) list.push_back(backend);
  return list;
}

std::vector<BackendStatus> Registry::statuses() const {
  std::shared_lock lock(mutex_);
  std::vector<BackendStatus> list;
  if (second_copy_error_) {
#if defined(RINGKERNEL_HAS_CUDA_BACKEND)
    list.push_back(BackendStatus{Backend::cuda, false, 0, second_copy_error_->what()});
#endif
    list.push_back(BackendStatus{Backend::host, false, 0, second_copy_error_->what()});
    return list;
  }
  if (cuda_) list.push_back(cuda_->status());
  if (environment_error_) {
    list.push_back(BackendStatus{Backend::host, false, 0,
                                 std::string(environment_error_->what()) +
                                     " (every call that needs a host device, or the devices of "
                                     "every backend, throws this until configure_host_backend() "
                                     "replaces the configuration)"});
  } else if (host_) {
    list.push_back(host_->status());
  }
  return list;
}

std::string Registry::foreign_memory(const void* p, const DeviceBackend* except, Access use) const {
  std::shared_lock lock(mutex_);
  // Only a host backend's streams copy host memory truly asynchronously: CUDA copies another
  // backend's pinned memory (ordinary memory to it) as pageable memory, staged before the call
  // returns, so its release cannot race them.
  const bool pinned_matters =
      use == Access::asynchronous && (except == nullptr || except->kind() == Backend::host);
  int first = 0;
  for (const auto& backend : {cuda_, host_}) {
    if (!backend) continue;
    const int n = backend->device_count();
    if (backend.get() != except) {
      const int ordinal = n > 0 ? backend->owner_of(p) : -1;
      if (ordinal >= 0) return "memory of device " + std::to_string(first + ordinal);
      if (pinned_matters && backend->owns_pinned(p)) {
        return std::string("pinned memory of the ") + to_string(backend->kind()) + " backend" +
               (backend == host_ ? " (the current host configuration)" : "");
      }
    }
    first += n;
  }
  for (const auto& weak : replaced_hosts_) {
    const auto backend = weak.lock();
    if (!backend || backend.get() == except) continue;
    if (backend->owner_of(p) >= 0) return "memory of a host device of an earlier host configuration";
    if (pinned_matters && backend->owns_pinned(p)) return "pinned memory of an earlier host configuration";
  }
  return {};
}

void Registry::configure_host(const HostBackendConfig& config) {
  throw_if_second_copy();  // never changes: no lock needed
  auto fresh = make_host_backend(config);  // validates; throws before anything changes
  std::unique_lock lock(mutex_);
  std::erase_if(replaced_hosts_, [](const auto& weak) { return weak.expired(); });
  if (host_) replaced_hosts_.push_back(host_);
  host_ = std::move(fresh);
  host_config_ = config;
  environment_error_.reset();
}

HostBackendConfig Registry::host_config() const {
  std::shared_lock lock(mutex_);
  throw_if_unconfigured();
  return host_config_;
}

}  // namespace ringkernel::detail

namespace ringkernel {

void configure_host_backend(const HostBackendConfig& config) {
  detail::Registry::instance().configure_host(config);
}

HostBackendConfig host_backend_config() { return detail::Registry::instance().host_config(); }

}  // namespace ringkernel
