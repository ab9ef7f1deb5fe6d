#include "limits_gen.h"
int genlib_limit() { return LIMIT_N; }
