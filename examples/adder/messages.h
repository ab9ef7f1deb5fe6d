// The example's messages: plain structs, annotated. Nothing here knows about CUDA or MessagePack.
#pragma once

#include <cstdint>

namespace app {

enum class Op : std::uint8_t { add = 0, subtract = 1 };

struct [[ringkernel::message(kernel = "Add", direction = input, priority = 200)]] AddRequest {
  std::uint64_t request_id;
  std::int32_t a;
  std::int32_t b;
  Op op;
};

struct [[ringkernel::message(id = 0x4001, kernel = "Add", direction = output, causal)]] AddResponse {
  std::uint64_t request_id;
  std::int64_t result;
  char worker[16];
};

}  // namespace app
