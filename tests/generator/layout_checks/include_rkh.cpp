// Compile check: every corpus .rk.h (original headers + traits + layout asserts) and the registry.
#include "corpus.registry.rk.h"
#include "arrays.rk.h"
#include "enums.rk.h"
#include "nesting.rk.h"
#include "options.rk.h"
#include "padding.rk.h"
#include "scalars.rk.h"
#include "uses_shared.rk.h"
