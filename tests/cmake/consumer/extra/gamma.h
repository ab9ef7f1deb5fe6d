#pragma once
#include <cstdint>

namespace consumer {

struct [[ringkernel::message(kernel = "Calibration", direction = input)]] Calibrate {
  std::uint32_t sensor;
  float offset;
};

}  // namespace consumer
