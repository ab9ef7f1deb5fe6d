#include "features_messages.rk.h"
static_assert(ringkernel::message_traits<FeaturesPing>::type_id != 0);
