#include "strict_messages.rk.h"
static_assert(ringkernel::message_traits<Strict>::type_id != 0);
