#include <cstdio>

#include "messages.rk.h"
#include "more.rk.h"
#include "mylib.registry.rk.h"

int main() {
  mylib::AddRequest request{2, 3};
  std::int64_t sum = 0;
  const bool found = ringkernel::registry::mylib::dispatch(
      ringkernel::message_traits<mylib::AddRequest>::type_id, &request,
      [&](const auto& message) {
        if constexpr (std::is_same_v<std::decay_t<decltype(message)>, mylib::AddRequest>) {
          sum = mylib::add(message);
        }
      });
  if (!found || sum != 5 || ringkernel::message_traits<mylib::LogLine>::type_id == 0) {
    std::puts("user failed");
    return 1;
  }
  std::puts("user ok");
  return 0;
}
