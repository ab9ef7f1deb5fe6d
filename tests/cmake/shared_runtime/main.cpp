// Copyright RingKernel authors.
#include <cstdio>

#include "ringkernel/device.h"

int main() {
  std::printf("consumer: %zu host devices\n", ringkernel::devices(ringkernel::Backend::host).size());
  return 0;
}
