// What main.cpp calls in adder_kernel.cu (built only when CUDA is). Only plain types cross between
// the two: main.cpp sees the messages through messages.rk.h, the kernel through messages.rk.cuh.
#pragma once

#include <cstdint>

/// The memory and capacity of the two rings (RequestRing, ResponseRing of add_service.h).
struct AdderRings {
  void* requests;
  std::uint64_t requests_capacity;
  void* responses;
  std::uint64_t responses_capacity;
};

/// Launches the Add ring kernel on CUDA device `ordinal`; its answers name `worker` and are stamped
/// at the device's wall clock less `wall_offset_us` (ServiceClock), and it writes its ServiceReport
/// to `report` (pinned memory) when it ends. Returns nullptr and the kernel's stream in `stream`, or
/// the CUDA error string.
const char* adder_start_on_device(int ordinal, const AdderRings& rings, const char (&worker)[16], std::uint64_t idle_us,
                                  std::int64_t wall_offset_us, void* report, void** stream);
/// Waits for the kernel to end (a terminate message, or its idle limit); nullptr or the CUDA error.
const char* adder_wait_on_device(void* stream);
