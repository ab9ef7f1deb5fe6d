// Includes of docs/messaging.md's HLC receive example (the block itself names them in prose).
#include <cstdint>
#include <cstdio>

#include "messages.rk.h"
#include "ringkernel/hlc.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/wall_clock.h"
