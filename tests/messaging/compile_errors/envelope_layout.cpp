// Copyright RingKernel authors.
// Compiled by the tests messaging.envelope_layout.*: the KernelMessage<T> layout is checked where a
// message made elsewhere is taken, not only by the factories, each failure with one error of its own.
//   RK_PACKED: ringkernel/kernel_message.h under #pragma pack(push, 4) (after ringkernel/hlc.h, whose
//     own alignment check would catch it first): the header's alignment check, once, also though
//     the program encodes and decodes envelopes.
//   RK_NOT_TRIVIAL_{ENCODE,DECODE,SCRATCH}: a payload (traits written by hand) that is not trivially
//     copyable, so KernelMessage<T> is not either: encode_envelope, decode_envelope and
//     decode_envelope_into_scratch (the registry's dispatch_envelope) each refuse it.
//   RK_NOT_TRIVIAL_VISIT_RAW: the same through a generated registry's dispatch_kernel_message case
//     (detail::visit_raw; the test adds the messaging registry's directory to the include path).
// Without a macro it compiles cleanly.
#include <cstddef>
#include <cstdint>

#include "ringkernel/hlc.h"
#if defined(RK_PACKED)
#pragma pack(push, 4)
#endif
#include "ringkernel/envelope_codec.h"
#if defined(RK_PACKED)
#pragma pack(pop)
#endif
#if defined(RK_NOT_TRIVIAL_VISIT_RAW)
// (Compiled without the RingKernel targets' flags: [[ringkernel::message]] is an unknown attribute.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#include "messaging.registry.rk.h"
#pragma GCC diagnostic pop
#endif

struct Small {
  std::uint8_t a;
  std::uint32_t b;
};

struct NotTrivial {
  std::uint32_t value;
  NotTrivial() = default;
  NotTrivial(const NotTrivial& other) : value(other.value) {}
  NotTrivial& operator=(const NotTrivial&) = default;
};

template <>
struct ringkernel::message_traits<Small> {
  static constexpr bool is_message = true;
  static constexpr std::uint32_t type_id = 0x5a11u;
  static constexpr bool causal = false;
  static constexpr ringkernel::wire_format format = ringkernel::wire_format::array;
  static constexpr std::size_t field_count = 2;
  static constexpr ringkernel::field_descriptor field(std::size_t i) {
    using k = ringkernel::field_kind;
    const ringkernel::field_descriptor all[] = {{"a", k::uint8, k::uint8, 0u, 1u, 1u, 0u, {}, 0},
                                                {"b", k::uint32, k::uint32, 4u, 4u, 4u, 0u, {}, 0}};
    return i < field_count ? all[i] : ringkernel::field_descriptor{};
  }
  template <class M, class V>
  static constexpr void visit_fields(M& m, V&& visitor) {
    visitor(ringkernel::field_index<0>{}, m.a);
    visitor(ringkernel::field_index<1>{}, m.b);
  }
};

template <>
struct ringkernel::message_traits<NotTrivial> {
  static constexpr bool is_message = true;
  static constexpr std::uint32_t type_id = 0x7e57u;
  static constexpr bool causal = false;
  static constexpr ringkernel::wire_format format = ringkernel::wire_format::array;
  static constexpr std::size_t field_count = 1;
  static constexpr ringkernel::field_descriptor field(std::size_t i) {
    using k = ringkernel::field_kind;
    const ringkernel::field_descriptor all[] = {{"value", k::uint32, k::uint32, 0u, 4u, 4u, 0u, {}, 0}};
    return i < field_count ? all[i] : ringkernel::field_descriptor{};
  }
  template <class M, class V>
  static constexpr void visit_fields(M& m, V&& visitor) {
    visitor(ringkernel::field_index<0>{}, m.value);
  }
};

#if defined(RK_NOT_TRIVIAL_ENCODE)
std::size_t use() {
  const ringkernel::KernelMessage<NotTrivial> m{};
  std::uint8_t out[64];
  return ringkernel::encode_envelope(m, out, sizeof out).size;
}
#elif defined(RK_NOT_TRIVIAL_DECODE)
std::size_t use(const std::uint8_t* in, std::size_t size) {
  ringkernel::KernelMessage<NotTrivial> m{};
  return ringkernel::decode_envelope(in, size, m).size;
}
#elif defined(RK_NOT_TRIVIAL_SCRATCH)
std::size_t use(const std::uint8_t* in, std::size_t size) {
  ringkernel::KernelMessage<NotTrivial> m{};
  return ringkernel::detail::decode_envelope_into_scratch(in, size, m).size;
}
#elif defined(RK_NOT_TRIVIAL_VISIT_RAW)
std::size_t use(const void* raw, std::size_t size) {
  int calls = 0;
  auto visitor = [&calls](const auto&) { ++calls; };
  return ringkernel::registry::messaging::detail::visit_raw<NotTrivial>(raw, size, visitor).size +
         static_cast<std::size_t>(calls);
}
#else
// RK_PACKED, or nothing: a program that only encodes and decodes envelopes (no factory).
std::size_t use(const std::uint8_t* in, std::size_t size) {
  ringkernel::KernelMessage<Small> m{};
  const ringkernel::codec_result decoded = ringkernel::decode_envelope(in, size, m);
  std::uint8_t out[ringkernel::max_envelope_encoded_size<Small>];
  return decoded.size + ringkernel::encode_envelope(m, out, sizeof out).size;
}
#if !defined(RK_PACKED)
static_assert(ringkernel::kernel_message_layout_ok<Small> && alignof(ringkernel::KernelMessage<Small>) == 8);
#endif
#endif
