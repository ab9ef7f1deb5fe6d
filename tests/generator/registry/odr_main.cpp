// Copyright RingKernel authors.
// Registry checks (registry_checks.cmake): two libraries in one program, each with a registry named
// "app" over its own messages (odr_lib.cpp). Each must find and dispatch its own messages and not
// the other's: the registries sit in inline namespaces keyed on their contents, so they share no
// symbol (before, one library's find() searched the other's table).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "ringkernel/message.h"

const char* odr_lookup_a(std::uint32_t type_id, bool& dispatched);
const char* odr_lookup_b(std::uint32_t type_id, bool& dispatched);

namespace {

int failures = 0;

void expect(const char* library, const char* (*lookup)(std::uint32_t, bool&), const char* name, bool known) {
  bool dispatched = false;
  const char* found = lookup(ringkernel::fnv1a32(name, std::strlen(name)), dispatched);
  const bool ok = known ? std::strcmp(found, name) == 0 && dispatched : std::strcmp(found, "(none)") == 0 && !dispatched;
  std::printf("library %s, %s: find %s, dispatch %s%s\n", library, name, found, dispatched ? "called" : "no call",
              ok ? "" : "  <- wrong");
  if (!ok) ++failures;
}

}  // namespace

int main() {
  for (const char* name : {"odr_a::First", "odr_a::Second", "odr_a::Third"}) {
    expect("A", odr_lookup_a, name, true);
    expect("B", odr_lookup_b, name, false);
  }
  expect("A", odr_lookup_a, "odr_b::Only", false);
  expect("B", odr_lookup_b, "odr_b::Only", true);
  std::printf("%s\n", failures == 0 ? "each library finds its own messages" : "FAILED");
  return failures == 0 ? 0 : 1;
}
