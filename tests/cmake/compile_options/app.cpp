#include "options_messages.rk.h"
static_assert(sizeof(Options) == 5 * sizeof(std::int32_t));
int app_size() { return static_cast<int>(sizeof(Options)); }
