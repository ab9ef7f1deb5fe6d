#include "legacy_messages.rk.h"
static_assert(ringkernel::message_traits<LegacyPing>::type_id != 0);
