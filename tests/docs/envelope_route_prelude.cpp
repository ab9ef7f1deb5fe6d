// Includes of docs/wire-format.md's routing example (the block itself names them in prose).
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "messages.rk.h"
#include "ringkernel/envelope_codec.h"
