#include "newer_messages.rk.h"
static_assert(ringkernel::message_traits<NewerPing>::type_id != 0);
