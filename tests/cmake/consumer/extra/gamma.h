#pragma once
#include <cstdint>

#include "label.h"

namespace consumer {

struct [[ringkernel::message(kernel = "Calibration", direction = input)]] Calibrate {
  std::uint32_t sensor;
  float offset;
  std::uint8_t label[kLabelSize];  // the layout depends on a CXX-only definition
};

}  // namespace consumer
