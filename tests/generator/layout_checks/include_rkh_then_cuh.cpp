// Compile check: .rk.h first (original headers), then .rk.cuh of the same headers: the .rk.cuh must
// not define the types again.
#include "arrays.rk.h"
#include "enums.rk.h"
#include "nesting.rk.h"
#include "options.rk.h"
#include "padding.rk.h"
#include "scalars.rk.h"
#include "uses_shared.rk.h"
#include "arrays.rk.cuh"
#include "enums.rk.cuh"
#include "nesting.rk.cuh"
#include "options.rk.cuh"
#include "padding.rk.cuh"
#include "scalars.rk.cuh"
#include "uses_shared.rk.cuh"
#define RINGKERNEL_REGISTRY_USE_CUH
#include "corpus.registry.rk.h"
