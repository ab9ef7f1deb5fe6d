#include "version_gen.h"
int verlib_version() { return VERSION_N; }
