#include "own_msgs.rk.h"
static_assert(ringkernel::message_traits<order::Sized>::type_id == 0x4242);
int main() { return 0; }
