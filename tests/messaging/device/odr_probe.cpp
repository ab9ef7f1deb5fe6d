// Copyright RingKernel authors.
// The host-compiler half of the ODR check (odr_probe.h), with the program's main.
#include "odr_probe.h"

template struct odr_check::odr_probes<odr_check::host_unit>;
extern template struct odr_check::odr_probes<odr_check::cuda_unit>;  // defined by odr_probe.cu

int main() {
  return odr_check::odr_probes<odr_check::cuda_unit>::all() == odr_check::odr_probes<odr_check::host_unit>::all() ? 1 : 0;
}
