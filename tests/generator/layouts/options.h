// Layout corpus: every attribute option (ids, kernels, directions, priority, causal, format).
#pragma once
#include <cstdint>

namespace corpus::options {

struct [[ringkernel::message(kernel = "Add", direction = input, priority = 200)]] AddRequest { std::int32_t a, b; };
struct [[ringkernel::message(id = 0x4001, kernel = "Add", direction = output, causal)]] AddResponse { std::int64_t sum; };
struct [[ringkernel::message(direction = kernel_to_kernel, format = map)]] HandoffMessage { std::uint32_t stage; float load; };
struct [[ringkernel::message(direction = bidirectional, priority = 0)]] Heartbeat { std::uint64_t tick; };
class [[ringkernel::message(format = map, causal)]] Audit { public: std::uint32_t user; char action[12]; };

}  // namespace corpus::options
