// Includes of docs/wire-format.md's envelope example (the block itself names them in prose).
#include <cstdint>
#include <cstdio>

#include "messages.rk.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/message_stamper.h"
