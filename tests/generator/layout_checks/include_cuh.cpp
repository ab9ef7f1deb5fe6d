// Compile check: every corpus .rk.cuh alone (standalone definitions, no original header) and the
// registry taking its types from them.
#define RINGKERNEL_REGISTRY_USE_CUH
#include "corpus.registry.rk.h"
#include "arrays.rk.cuh"
#include "enums.rk.cuh"
#include "nesting.rk.cuh"
#include "options.rk.cuh"
#include "padding.rk.cuh"
#include "scalars.rk.cuh"
#include "uses_shared.rk.cuh"
