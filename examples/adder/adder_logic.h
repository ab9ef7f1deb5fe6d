// The kernel's logic, shared by the host path and the CUDA kernel. The includer provides the message
// types: messages.rk.h on the host, messages.rk.cuh in .cu files.
#pragma once

#include "ringkernel/config.h"

namespace app {

RINGKERNEL_HOST_DEVICE inline AddResponse handle(const AddRequest& request, const char (&worker)[16]) {
  AddResponse response{};
  response.request_id = request.request_id;
  const auto a = static_cast<std::int64_t>(request.a);
  const auto b = static_cast<std::int64_t>(request.b);
  response.result = request.op == Op::add ? a + b : a - b;
  for (int i = 0; i < 16; ++i) response.worker[i] = worker[i];
  return response;
}

}  // namespace app
