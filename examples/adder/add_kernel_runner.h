// Runs the Add ring kernel's loop (add_service.h) where a device's work runs: as a persistent
// kernel on a CUDA device, or on a thread of its own for a host-backend device. Host code; the
// includer provides the message types (messages.rk.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "add_service.h"
#include "ringkernel/buffers.h"
#include "ringkernel/device.h"

#if defined(ADDER_HAS_CUDA)
#include "adder_device.h"
#endif

namespace app {

class AddKernelRunner {
  static constexpr WorkerName gpu_worker{"cuda"};
  static constexpr WorkerName host_worker{"host thread"};

 public:
  /// Starts the loop on `device` over the two rings; it stops at a terminate message, or after
  /// `idle_us` without a request. Its answers are stamped at the device's wall clock less
  /// `wall_offset_us` (measure_wall_clock_offset(device.id).offset_us: 0 on a host device). Throws
  /// std::runtime_error if a CUDA kernel fails to launch.
  AddKernelRunner(const ringkernel::DeviceInfo& device, RequestRing requests, ResponseRing responses,
                  std::uint64_t idle_us, std::int64_t wall_offset_us)
      : report_memory_(device.id, sizeof(ServiceReport)),
        report_(new (report_memory_.data()) ServiceReport{0, 0, 0, ServiceEnd::running}) {
    if (device.backend == ringkernel::Backend::cuda) {
#if defined(ADDER_HAS_CUDA)
      const AdderRings rings{requests.control(), requests.capacity(), responses.control(), responses.capacity()};
      if (const char* error =
              adder_start_on_device(device.ordinal, rings, gpu_worker.text, idle_us, wall_offset_us, report_, &stream_)) {
        throw std::runtime_error(std::string("launching the Add ring kernel: ") + error);
      }
      return;
#else
      throw std::runtime_error("this build of the example has no CUDA code (ADDER_HAS_CUDA)");
#endif
    }
    thread_ = std::thread([this, requests, responses, idle_us, wall_offset_us] {
      ServiceClock own(wall_offset_us);  // host memory: the thread's own
      *report_ = serve_add_requests(requests, responses, host_worker, idle_us, own);
    });
  }

  /// The name the loop puts into its answers on `backend`.
  static const WorkerName& worker_on(ringkernel::Backend backend) {
    return backend == ringkernel::Backend::cuda ? gpu_worker : host_worker;
  }
  AddKernelRunner(const AddKernelRunner&) = delete;
  AddKernelRunner& operator=(const AddKernelRunner&) = delete;
  /// Waits for the loop: a kernel must not outlive the rings it works on.
  ~AddKernelRunner() {
    try {
      (void)wait();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "adder: %s\n", e.what());
    }
  }

  /// Waits until the loop has ended and returns what it reported. A CUDA error while waiting
  /// throws std::runtime_error.
  ServiceReport wait() {
    if (thread_.joinable()) thread_.join();
#if defined(ADDER_HAS_CUDA)
    if (stream_ != nullptr) {
      const char* error = adder_wait_on_device(stream_);
      stream_ = nullptr;
      if (error != nullptr) throw std::runtime_error(std::string("the Add ring kernel failed: ") + error);
    }
#endif
    return *report_;
  }

 private:
  ringkernel::PinnedBuffer report_memory_;  // written by the kernel (mapped pinned memory) or the thread
  ServiceReport* report_;
  std::thread thread_;
#if defined(ADDER_HAS_CUDA)
  void* stream_ = nullptr;
#endif
};

}  // namespace app
