// Copyright RingKernel authors.
// Compiled by the tests messaging.not_a_message.*: KernelMessage<T> of a struct that is no
// [[ringkernel::message]] (or whose generated traits are not included) must fail with the
// static_assert that names the fix, not with a bare constraint failure (RK_PLAIN_STRUCT: the
// factory, RK_PLAIN_STRUCT_OBJECT: an object). Without a macro it compiles cleanly: a message with
// (handwritten) traits works, and a function template taking a KernelMessage<T> still drops out
// of overload resolution for an argument that is none (deduction fails, nothing is instantiated).
#include <cstddef>
#include <cstdint>

#include "ringkernel/kernel_message.h"

struct Plain {  // no [[ringkernel::message]]
  std::int32_t value;
};

struct Annotated {
  std::int32_t value;
};

template <>
struct ringkernel::message_traits<Annotated> {
  static constexpr bool is_message = true;
  static constexpr std::uint32_t type_id = 0x1234;
  static constexpr bool causal = false;
  template <class M, class V>
  static constexpr void visit_fields(M& m, V&& visitor) {
    visitor(ringkernel::field_index<0>{}, m.value);
  }
};

template <class T>
constexpr int which(const ringkernel::KernelMessage<T>&) {
  return 1;
}
constexpr int which(...) { return 2; }

#if defined(RK_PLAIN_STRUCT)
const auto plain = ringkernel::KernelMessage<Plain>::create_data(1, 2, Plain{7});
#elif defined(RK_PLAIN_STRUCT_OBJECT)
ringkernel::KernelMessage<Plain> plain{};
#else
static_assert(ringkernel::KernelMessage<Annotated>::create_data(1, 2, Annotated{7}).header.type_id == 0x1234);
static_assert(which(ringkernel::KernelMessage<Annotated>{}) == 1);
static_assert(which(Plain{7}) == 2);
// Naming the type (without instantiating it) is no error either.
using named_only = ringkernel::KernelMessage<Plain>;
static_assert(sizeof(named_only*) == sizeof(void*));
#endif
