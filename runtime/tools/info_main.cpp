// Copyright RingKernel authors.
// ringkernel-info: devices, capabilities, each CUDA device's wall-clock offset from the host and the
// P2P matrix of this machine; with --bandwidth, measured copy bandwidth and latency between every
// pair (like CUDA's p2pBandwidthLatencyTest), once with peer access disabled and once with it
// enabled where the topology allows.
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "memory_text.h"
#include "ringkernel/config.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/wall_clock_offset.h"

namespace {

constexpr const char* usage =
    "usage: ringkernel-info [--bandwidth] [--bytes N] [--repetitions N]\n"
    "  --bandwidth       measure copy bandwidth and latency between every device pair\n"
    "  --bytes N         bytes per bandwidth copy, with optional K, M or G suffix as in\n"
    "                    RINGKERNEL_HOST_MEMORY (default 64M, at most 1 PiB)\n"
    "  --repetitions N   bandwidth copies per pair (default 10)\n"
    "Host devices: RINGKERNEL_HOST_DEVICES, RINGKERNEL_HOST_TOPOLOGY, RINGKERNEL_HOST_MEMORY,\n"
    "  RINGKERNEL_HOST_NATIVE_ATOMICS\n";

std::string memory(std::size_t bytes) { return ringkernel::detail::memory_text(bytes); }

/// How far the device's clock (%globaltimer, which stamps its messages) is from the host's: beyond a
/// clock's max_skew_us, host clocks reject the device's stamps. A failure is reported, not fatal.
void print_wall_clock_offset(int id) {
  try {
    const auto o = ringkernel::measure_wall_clock_offset(id);
    std::printf("      wall clock    %+lld us from the host's (+/- %llu us)\n", static_cast<long long>(o.offset_us),
                static_cast<unsigned long long>(o.uncertainty_us));
  } catch (const ringkernel::Error& e) {
    std::printf("      wall clock    not measured: %s\n", e.what());
  }
}

void print_devices() {
  std::printf("Backends:\n");
  for (const auto& s : ringkernel::backend_statuses())
    std::printf("  %-5s %-13s %d device%s  %s\n", ringkernel::to_string(s.backend),
                s.available ? "available" : "not available", s.device_count,
                s.device_count == 1 ? " " : "s", s.note.c_str());
  const auto devices = ringkernel::devices();
  std::printf("\nDevices: %zu\n", devices.size());
  for (const auto& d : devices) {
    std::printf("  [%d] %s (%s ordinal %d)\n", d.id, d.name.c_str(), ringkernel::to_string(d.backend),
                d.ordinal);
    // 0 free on a GPU: unknown (device.h), e.g. one in exclusive-process mode that another process uses.
    const bool unknown = d.backend == ringkernel::Backend::cuda && d.free_memory == 0;
    const std::string free_text = unknown ? "free unknown" : memory(d.free_memory) + " free";
    std::printf("      memory        %s total, %s\n", memory(d.total_memory).c_str(), free_text.c_str());
    std::printf("      compute units %d", d.compute_units);
    if (d.backend == ringkernel::Backend::cuda)
      std::printf(", compute capability %d.%d, PCI %s", d.compute_capability_major,
                  d.compute_capability_minor, d.pci_bus_id.c_str());
    std::printf("\n      capabilities  %s\n", ringkernel::to_string(d.capabilities).c_str());
    if (d.backend == ringkernel::Backend::cuda) print_wall_clock_offset(d.id);
  }
}

void print_pairs(const ringkernel::PeerMemory& peers, const std::vector<ringkernel::DeviceInfo>& devices) {
  std::printf("\nPairs (rank: lower is faster; figures marked est. are nominal estimates):\n");
  std::printf("  %-4s %-4s %-13s %-9s %-8s %-5s %-18s %s\n", "src", "dst", "access", "supported",
              "atomics", "rank", "bandwidth GB/s", "latency us");
  for (const auto& a : devices)
    for (const auto& b : devices) {
      if (a.id == b.id) continue;
      const auto c = peers.capability(a.id, b.id);
      std::printf("  %-4d %-4d %-13s %-9s %-8s %-5d %8.2f %-9s %8.2f %s\n", a.id, b.id,
                  ringkernel::to_string(c.access), c.peer_access_supported ? "yes" : "no",
                  c.native_atomics ? "yes" : "no", c.performance_rank, c.bandwidth_gbps.value,
                  c.bandwidth_gbps.measured ? "measured" : "est.", c.latency_us.value,
                  c.latency_us.measured ? "measured" : "est.");
    }
}

void print_measured(ringkernel::PeerMemory& peers, const std::vector<ringkernel::DeviceInfo>& devices,
                    const ringkernel::MeasureOptions& options, const char* title) {
  std::vector<ringkernel::LinkMeasurement> results;
  for (const auto& a : devices)
    for (const auto& b : devices) {
      if (a.backend != b.backend) {
        results.push_back({a.id, b.id, ringkernel::CopyPath::same_device, 0.0, 0.0});
        continue;
      }
      results.push_back(peers.measure(a.id, b.id, options));
    }
  const auto table = [&](const char* what, auto value) {
    std::printf("\n%s, %s\n   D\\D", title, what);
    for (const auto& d : devices) std::printf(" %9d", d.id);
    std::printf("\n");
    std::size_t i = 0;
    for (const auto& a : devices) {
      std::printf("%6d ", a.id);
      for (std::size_t j = 0; j < devices.size(); ++j, ++i) {
        const auto& r = results[i];
        if (devices[j].backend != a.backend)
          std::printf(" %9s", "--");
        else
          std::printf(" %8.2f%c", value(r), r.path == ringkernel::CopyPath::host_staged ? 's' : ' ');
      }
      std::printf("\n");
    }
  };
  table("unidirectional bandwidth (GB/s; s = host-staged)", [](const auto& r) { return r.bandwidth_gbps; });
  table("latency (us; s = host-staged)", [](const auto& r) { return r.latency_us; });
}

bool parse_count(const char* text, std::size_t max, std::size_t& out) {
  const auto* end = text + std::strlen(text);
  const auto [p, ec] = std::from_chars(text, end, out);
  return ec == std::errc{} && p == end && out > 0 && out <= max;
}

// A report (or the usage text) that did not reach its file (disk full, closed pipe) is a failure,
// not exit status 0: false, after saying so on stderr.
bool flushed_output() {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
  std::fprintf(stderr, "ringkernel-info: cannot write the output: %s\n", std::strerror(errno));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  bool bandwidth = false;
  const char* measure_option = nullptr;  // --bytes or --repetitions, which need --bandwidth
  ringkernel::MeasureOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--bandwidth") {
      bandwidth = true;
    } else if (arg == "--bytes" || arg == "--repetitions") {
      if (i + 1 == argc) {
        std::fprintf(stderr, "ringkernel-info: %s needs a value\n%s", argv[i], usage);
        return 2;
      }
      const char* text = argv[++i];
      if (arg == "--bytes") {
        // The syntax of RINGKERNEL_HOST_MEMORY ("64M"), by its parser.
        const auto bytes = ringkernel::detail::parse_memory_text(text);
        if (!bytes) {
          std::fprintf(stderr, "ringkernel-info: --bytes needs %s, got \"%s\"\n%s",
                       ringkernel::detail::memory_text_syntax, text, usage);
          return 2;
        }
        options.bandwidth_bytes = *bytes;
      } else {
        const auto max = static_cast<std::size_t>(std::numeric_limits<int>::max());
        std::size_t value = 0;
        if (!parse_count(text, max, value)) {
          std::fprintf(stderr, "ringkernel-info: --repetitions needs a positive integer up to %zu, got \"%s\"\n%s",
                       max, text, usage);
          return 2;
        }
        options.bandwidth_repetitions = static_cast<int>(value);
      }
      measure_option = argv[i - 1];
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      return flushed_output() ? 0 : 1;
    } else {
      std::fprintf(stderr, "ringkernel-info: unknown argument \"%s\"\n%s", argv[i], usage);
      return 2;
    }
  }
  if (measure_option && !bandwidth) {
    std::fprintf(stderr, "ringkernel-info: %s only applies to --bandwidth, which is not given\n%s",
                 measure_option, usage);
    return 2;
  }
  try {
    std::printf("RingKernel %d.%d.%d runtime\n\n", RINGKERNEL_VERSION_MAJOR, RINGKERNEL_VERSION_MINOR,
                RINGKERNEL_VERSION_PATCH);
    print_devices();
    const auto devices = ringkernel::devices();
    ringkernel::PeerMemory peers;
    std::printf("\n%s", peers.topology().to_string().c_str());
    print_pairs(peers, devices);
    if (bandwidth) {
      std::printf("\nMeasured: bandwidth with copies of %zu bytes (%s), %d per pair; latency with copies of %zu "
                  "bytes, %d per pair\n",
                  options.bandwidth_bytes, memory(options.bandwidth_bytes).c_str(), options.bandwidth_repetitions,
                  options.latency_bytes, options.latency_repetitions);
      print_measured(peers, devices, options, "Peer access disabled");
      for (const auto& a : devices)
        for (const auto& b : devices)
          if (peers.can_access_peer(a.id, b.id)) peers.enable_peer_access(a.id, b.id);
      print_measured(peers, devices, options, "Peer access enabled where supported");
      std::printf("\n%s", peers.topology().to_string().c_str());
      print_pairs(peers, devices);
    }
  } catch (const ringkernel::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {  // std::bad_alloc, say: a runtime error all the same (exit 1)
    std::fprintf(stderr, "ringkernel-info: %s\n", e.what());
    return 1;
  }
  return flushed_output() ? 0 : 1;
}
