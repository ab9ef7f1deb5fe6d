// Includes of docs/messaging.md's host queue example (the block itself names them in prose).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>

#include "messages.rk.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message_stamper.h"
#include "ringkernel/queue/message_queue.h"
