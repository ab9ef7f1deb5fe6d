// Includes of docs/wire-format.md's registry routing example (the registry is named adder in
// tests/docs/CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "adder.registry.rk.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/envelope_codec.h"
