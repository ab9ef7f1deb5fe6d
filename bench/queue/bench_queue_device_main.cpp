// Copyright RingKernel authors.
// main of bench_queue_device: records the platform the rows run on in the report's context (the
// JSON "context" object and the console header), then runs the rows. The rows themselves:
// bench_queue_device.cu (RingKernel) and raw_ping_pong.cu (their raw-CUDA peers).
// Context keys: cuda_device_name ("none" when there is no CUDA device; then cuda_why_none says
// why), cuda_device_ordinal, cuda_sm_count, cuda_compute_capability, cuda_host_native_atomics, cuda_pci_bus_id,
// cuda_driver_version, cuda_runtime_version, cuda_module_loading, host_cpu (the host's side of
// a round trip; Google Benchmark records only its core count and clock) and host_cpu_affinity (the
// CPUs this process may run on, e.g. "5" where gpu-kit pins a round-trip row to one core), and in a
// small run (RK_BENCH_SMALL, row_support.h) rk_bench_small. A query that fails is
// recorded as "unknown (<error name>)" instead of stopping the program.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <string>

#include <sched.h>

#include "row_support.h"

namespace {

std::string failed(cudaError_t e) {
  (void)cudaGetLastError();  // a failed query must not fail the first row's launch check
  return std::string("unknown (") + cudaGetErrorName(e) + ")";
}

// "13.0" from CUDA's 1000 * major + 10 * minor; "none" for the driver version 0 (no driver).
std::string cuda_version(int v) {
  if (v == 0) return "none";
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string attribute(cudaDeviceAttr a, int ordinal) {
  int v = 0;
  const cudaError_t e = cudaDeviceGetAttribute(&v, a, ordinal);
  return e == cudaSuccess ? std::to_string(v) : failed(e);
}

// /proc/cpuinfo's first "model name" (x86 Linux); "unknown" elsewhere.
std::string host_cpu() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
  return "unknown";
}

// The CPUs this process may run on, as a list of ranges ("0-3,8"); "unknown" when the call fails.
std::string cpu_affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "unknown";
  std::string list;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
    list += (list.empty() ? "" : ",") + std::to_string(c) + (last > c ? "-" + std::to_string(last) : "");
    c = last;
  }
  return list;
}

void add_platform_context() {
  if (bench_queue_device::small_run()) {
    benchmark::AddCustomContext("rk_bench_small", "RK_BENCH_SMALL: rows shrunk for compute-sanitizer, not measurements");
  }
  benchmark::AddCustomContext("host_cpu", host_cpu());
  benchmark::AddCustomContext("host_cpu_affinity", cpu_affinity());
  int driver = 0, runtime = 0;
  cudaError_t e = cudaDriverGetVersion(&driver);
  benchmark::AddCustomContext("cuda_driver_version", e == cudaSuccess ? cuda_version(driver) : failed(e));
  e = cudaRuntimeGetVersion(&runtime);
  benchmark::AddCustomContext("cuda_runtime_version", e == cudaSuccess ? cuda_version(runtime) : failed(e));
  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  benchmark::AddCustomContext("cuda_module_loading", loading != nullptr ? loading : "unset (LAZY)");

  std::optional<ringkernel::DeviceInfo> device;
  std::string why_none = "the CUDA backend lists no device";
  try {
    device = bench_queue_device::first_cuda_device();
    for (const auto& status : ringkernel::backend_statuses()) {
      if (status.backend == ringkernel::Backend::cuda && !status.note.empty()) why_none = status.note;
    }
  } catch (const std::exception& ex) {
    why_none = ex.what();
  }
  if (!device) {
    benchmark::AddCustomContext("cuda_device_name", "none");
    benchmark::AddCustomContext("cuda_why_none", why_none);
    return;
  }
  const int ordinal = device->ordinal;
  cudaDeviceProp properties{};
  e = cudaGetDeviceProperties(&properties, ordinal);
  benchmark::AddCustomContext("cuda_device_name", e == cudaSuccess ? std::string(properties.name) : failed(e));
  benchmark::AddCustomContext("cuda_device_ordinal", std::to_string(ordinal));
  benchmark::AddCustomContext("cuda_sm_count", attribute(cudaDevAttrMultiProcessorCount, ordinal));
  benchmark::AddCustomContext("cuda_compute_capability", attribute(cudaDevAttrComputeCapabilityMajor, ordinal) + "." +
                                                             attribute(cudaDevAttrComputeCapabilityMinor, ordinal));
  benchmark::AddCustomContext("cuda_host_native_atomics", attribute(cudaDevAttrHostNativeAtomicSupported, ordinal));
  char bus_id[32] = {};
  e = cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal);
  benchmark::AddCustomContext("cuda_pci_bus_id", e == cudaSuccess ? std::string(bus_id) : failed(e));
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  add_platform_context();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (bench_queue_device::device_wedged()) {
    // A kernel outlived every deadline (row_support.h): end without the CUDA runtime's teardown,
    // which could wait for it; the driver ends the kernel with the process. The report is written.
    std::fputs("bench_queue_device: a kernel did not end; exiting without CUDA teardown\n", stderr);
    std::fflush(nullptr);
    std::_Exit(2);
  }
  return 0;
}
