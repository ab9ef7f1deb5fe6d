// Copyright RingKernel authors.
// The one source of strict_warnings_messages, the target whose build generates the headers that the
// strict_warnings.* tests compile (CMakeLists.txt here); itself built with the project's warnings.
#include "strict.registry.rk.h"
