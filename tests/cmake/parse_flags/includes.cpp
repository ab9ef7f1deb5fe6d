#include "includes_messages.rk.h"
int includes_size() { return static_cast<int>(sizeof(Included)); }
