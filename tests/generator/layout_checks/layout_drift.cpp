// Compile check of layout_drift.rk.h (tests generator_layout_drift_*): with the macros ringkernel-gen
// saw it compiles; with one RK_DRIFT_* macro the layout check that names the changed property fails.
#include "layout_drift.rk.h"

static_assert(ringkernel::message_traits<corpus::drift::Record>::size == 32);
