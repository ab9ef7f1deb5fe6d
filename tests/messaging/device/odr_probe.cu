// Copyright RingKernel authors.
// The nvcc half of the ODR check (odr_probe.h).
#include "odr_probe.h"

template struct odr_check::odr_probes<odr_check::cuda_unit>;
