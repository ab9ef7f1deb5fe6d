#include "genex_msgs.rk.h"
static_assert(sizeof(order::Versioned) == 3 * sizeof(std::int32_t));
int main() { return 0; }
