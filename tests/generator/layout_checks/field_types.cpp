// Compile check of field_types.rk.h (tests generator_field_type_*): with the macros ringkernel-gen saw
// it compiles; with one RK_OTHER_* macro the type check of the changed field fails.
#include "field_types.rk.h"

static_assert(ringkernel::message_traits<corpus::configured::Sample>::field_count == 9);
