// Copyright RingKernel authors.
// Compiled by the tests messaging.wide_message_equality.*: KernelMessage<T>'s == and != of a
// message with 1024 fields (four types in turn) are constant expressions with clang++-19's default
// constexpr limit and g++ with -fconstexpr-ops-limit=1048576. (Fields found by index through a visit
// of the other message per field, n * n calls, hit clang's 1048576 steps from about 600 fields on and
// need over 2^24 g++ ops at 1024 fields; g++'s default of 2^25 lets them through.) The traits are written
// by hand in the shape ringkernel-gen gives them (visit_fields: visitor(field_index<I>{}, member) for
// every field in declaration order); the fields come from macros.
#include <cstddef>
#include <cstdint>

#include "ringkernel/kernel_message.h"

#define RK_Q(p)      \
  std::uint32_t p##a; \
  std::int16_t p##b;  \
  double p##c;        \
  std::uint8_t p##d;
#define RK_Q4(p) RK_Q(p##0) RK_Q(p##1) RK_Q(p##2) RK_Q(p##3)
#define RK_Q16(p) RK_Q4(p##0) RK_Q4(p##1) RK_Q4(p##2) RK_Q4(p##3)
#define RK_Q64(p) RK_Q16(p##0) RK_Q16(p##1) RK_Q16(p##2) RK_Q16(p##3)
#define RK_Q256(p) RK_Q64(p##0) RK_Q64(p##1) RK_Q64(p##2) RK_Q64(p##3)

// Visits the four fields of quad i (fields 4i .. 4i+3).
#define RK_V(p, i)                                                \
  visitor(ringkernel::field_index<(i) * 4 + 0>{}, message.p##a); \
  visitor(ringkernel::field_index<(i) * 4 + 1>{}, message.p##b); \
  visitor(ringkernel::field_index<(i) * 4 + 2>{}, message.p##c); \
  visitor(ringkernel::field_index<(i) * 4 + 3>{}, message.p##d);
#define RK_V4(p, i) RK_V(p##0, (i) * 4 + 0) RK_V(p##1, (i) * 4 + 1) RK_V(p##2, (i) * 4 + 2) RK_V(p##3, (i) * 4 + 3)
#define RK_V16(p, i) RK_V4(p##0, (i) * 4 + 0) RK_V4(p##1, (i) * 4 + 1) RK_V4(p##2, (i) * 4 + 2) RK_V4(p##3, (i) * 4 + 3)
#define RK_V64(p, i) \
  RK_V16(p##0, (i) * 4 + 0) RK_V16(p##1, (i) * 4 + 1) RK_V16(p##2, (i) * 4 + 2) RK_V16(p##3, (i) * 4 + 3)
#define RK_V256(p, i) \
  RK_V64(p##0, (i) * 4 + 0) RK_V64(p##1, (i) * 4 + 1) RK_V64(p##2, (i) * 4 + 2) RK_V64(p##3, (i) * 4 + 3)

struct Wide {
  RK_Q256(f)
};

template <>
struct ringkernel::message_traits<Wide> {
  static constexpr bool is_message = true;
  static constexpr std::uint32_t type_id = 0x71de0001u;
  static constexpr bool causal = false;
  static constexpr ringkernel::wire_format format = ringkernel::wire_format::array;
  static constexpr std::size_t field_count = 1024;
  template <class M, class V>
  static constexpr void visit_fields(M& message, V&& visitor) {
    RK_V256(f, 0)
  }
};

using WideMessage = ringkernel::KernelMessage<Wide>;

// All fields 0 but one: f0000a (the first), f3333d (the last) or f1230c (a double in the middle).
constexpr Wide wide(int which, double value) {
  Wide w{};
  if (which == 0) w.f0000a = static_cast<std::uint32_t>(value);
  if (which == 1) w.f3333d = static_cast<std::uint8_t>(value);
  if (which == 2) w.f1230c = value;
  return w;
}
constexpr WideMessage message(int which, double value) { return WideMessage::create_data(1, 2, wide(which, value)); }

static_assert(sizeof(Wide) == 256 * 24, "1024 fields in 256 quads of 24 bytes");
static_assert(message(2, 1.5) == message(2, 1.5));
static_assert(message(2, 0.0) == message(2, -0.0));
static_assert(message(0, 7) != message(0, 8));
static_assert(message(1, 7) != message(1, 8));
static_assert(message(2, 1.5) != message(2, 2.5));
static_assert(!(message(1, 7) == message(2, 7)));
