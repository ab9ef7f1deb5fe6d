#include "release_gnu_messages.rk.h"
static_assert(ringkernel::message_traits<Sample>::type_id != 0);
