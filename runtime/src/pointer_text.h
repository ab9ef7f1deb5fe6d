// Copyright RingKernel authors.
// An address as error messages print it ("0x7f..."), shared by the backends and the copy paths.
#pragma once

#include <cstdio>
#include <string>

namespace ringkernel::detail {

inline std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace ringkernel::detail
