// Registry checks (registry_checks.cmake): the messages whose type ids docs/generator.md gives as
// worked vectors ("Computing type ids outside C++"): one in a namespace, one in an inline namespace
// (part of the hashed name) and one nested in a message.
#pragma once
#include <cstdint>

namespace app {

struct [[ringkernel::message(kernel = "Add", direction = input)]] AddRequest { std::int32_t a, b; };

inline namespace v1 {
struct [[ringkernel::message]] Ping { std::uint64_t id; };
}  // namespace v1

struct [[ringkernel::message]] Outer {
  struct [[ringkernel::message]] Inner { std::uint16_t value; };
  Inner inner;
};

}  // namespace app
