// Includes of docs/runtime.md's walkthrough on the host backend (the block itself names them in prose).
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include "ringkernel/buffers.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/event.h"
#include "ringkernel/host_backend.h"
#include "ringkernel/peer_memory.h"
#include "ringkernel/stream.h"
