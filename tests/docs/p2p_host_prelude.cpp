// Includes of docs/messaging.md's P2P queue example on the host backend (the block itself names them in prose).
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "messages.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/p2p_message_queue.h"
