// Relocatable device code (consumer_rdc): a .cu that includes the annotated header itself (through
// alpha.rk.h), so the host compiler sees [[ringkernel::message]]; it must build warning-free.
#include "alpha.rk.h"

__global__ void count_readings(const consumer::Reading* in, int n, int* sensors) {
  for (int i = 0; i < n; ++i) sensors[i] = static_cast<int>(in[i].sensor);
}
