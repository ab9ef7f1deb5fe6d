#include "messages.rk.h"

namespace mylib {
std::int64_t add(const AddRequest& request) { return std::int64_t{request.a} + request.b; }
}  // namespace mylib
