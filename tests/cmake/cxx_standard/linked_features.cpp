#include "linked_features_messages.rk.h"
static_assert(ringkernel::message_traits<LinkedFeaturesPing>::type_id != 0);
