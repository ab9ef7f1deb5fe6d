#pragma once
#include <cstdint>

namespace consumer {

struct [[ringkernel::message(kernel = "Telemetry", direction = output, causal)]] Summary {
  std::uint32_t sensor;
  float mean;
  std::uint64_t count;
};

}  // namespace consumer
