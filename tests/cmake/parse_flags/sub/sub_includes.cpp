#include "sub_messages.rk.h"
int sub_includes_size() { return static_cast<int>(sizeof(SubIncluded)); }
