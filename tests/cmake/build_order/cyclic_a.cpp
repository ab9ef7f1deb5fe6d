#include "cyclic_msgs.rk.h"
int cyclic_b_value();
int cyclic_a_value() { return cyclic_b_value(); }
