#include "linked_msgs.rk.h"
static_assert(sizeof(order::Limited) == 4 * sizeof(std::int32_t));
int main() { return 0; }
