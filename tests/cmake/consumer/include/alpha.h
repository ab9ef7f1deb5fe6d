#pragma once
#include <cstdint>

#include "common/units.h"

#ifndef CONSUMER_TELEMETRY_ID
#error "the generator must see the target's compile definitions"
#endif

namespace consumer {

struct [[ringkernel::message(kernel = "Telemetry", direction = input)]] Reading {
  std::uint32_t sensor;
  Unit unit;
  double value;
  std::int16_t history[4];
};

}  // namespace consumer
