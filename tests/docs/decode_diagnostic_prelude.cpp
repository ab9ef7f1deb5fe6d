// Includes of docs/wire-format.md's describe_decode_failure example (§6, "Which field").
#include <cstdint>
#include <cstdio>

#include "messages.rk.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/envelope_codec.h"
