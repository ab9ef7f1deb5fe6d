// Copyright RingKernel authors.
// strict_warnings.libc++_without_stop_token: with libc++ before 20 and no -fexperimental-library, a
// queue header must stop the compile with RingKernel's error that names the flag
// (ringkernel/detail/stop_token.h), which the test looks for in the compiler's output.
#include "ringkernel/queue/message_queue.h"
