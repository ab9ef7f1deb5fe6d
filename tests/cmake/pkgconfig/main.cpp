// Built by check_pkgconfig.cmake with plain g++ and only `pkg-config --cflags --libs ringkernel` (plus
// the directory of the generated header): the runtime's headers need the C++ standard the .pc file
// gives, and backend_statuses() pulls every backend of the static library, the CUDA one included, so
// the link needs the .pc file's libraries too.
#include <cstdio>

#include "messages.rk.h"
#include "ringkernel/device.h"

int main() {
  const auto statuses = ringkernel::backend_statuses();
  if (statuses.empty() || ringkernel::message_traits<pcuser::ScaleRequest>::type_id == 0) {
    std::puts("pkgconfig user failed");
    return 1;
  }
  std::printf("pkgconfig ok: %zu backends\n", statuses.size());
  return 0;
}
