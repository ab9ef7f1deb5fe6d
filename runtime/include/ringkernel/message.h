// Copyright RingKernel authors.
// The contract between generated code and the runtime: message_traits<T>, field descriptors and the
// enums that describe a message. Usable in host code and in CUDA device code (no standard library
// beyond <cstddef>/<cstdint>/<type_traits>, every function constexpr and host-device).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/status.h"

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel {

/// Which way a message travels relative to its kernel (DESIGN.md §3).
enum class direction : std::uint8_t { input = 0, output = 1, kernel_to_kernel = 2, bidirectional = 3 };

/// The enumerator's name, as the attribute spells it (`direction = kernel_to_kernel`); "unknown"
/// for a value outside the enum.
RINGKERNEL_HOST_DEVICE constexpr const char* to_string(direction d) noexcept {
  switch (d) {
    case direction::input: return "input";
    case direction::output: return "output";
    case direction::kernel_to_kernel: return "kernel_to_kernel";
    case direction::bidirectional: return "bidirectional";
  }
  return "unknown";
}

/// MessagePack shape of a message (DESIGN.md §5).
enum class wire_format : std::uint8_t { array = 0, map = 1 };

/// "array" or "map", as the attribute spells it (`format = map`); "unknown" for a value outside
/// the enum.
RINGKERNEL_HOST_DEVICE constexpr const char* to_string(wire_format f) noexcept {
  switch (f) {
    case wire_format::array: return "array";
    case wire_format::map: return "map";
  }
  return "unknown";
}

/// Kind of one field element (arrays are described by `field_descriptor::extents`).
enum class field_kind : std::uint8_t {
  boolean = 0,
  character = 1,  // plain `char` (an array of char is a string on the wire)
  int8 = 2,
  int16 = 3,
  int32 = 4,
  int64 = 5,
  uint8 = 6,
  uint16 = 7,
  uint32 = 8,
  uint64 = 9,
  float32 = 10,
  float64 = 11,
  enumeration = 12,  // `underlying` holds the integer kind
  message = 13,      // nested [[ringkernel::message]]; `message_type_id` names it
  byte = 14,         // std::byte (an array of std::byte is bin on the wire)
  char8 = 15,        // char8_t: an unsigned int like uint8, but an array of char8_t is an array of
                     // ints on the wire where an array of uint8 (unsigned char) is bin
};

/// Largest supported number of array dimensions of one field.
inline constexpr std::size_t max_array_rank = 8;

/// Layout and wire description of one field, as computed by ringkernel-gen for the target ABI.
struct field_descriptor {
  const char* name;
  field_kind kind;
  field_kind underlying;  // == kind unless kind == enumeration
  std::uint32_t offset;   // bytes from the start of the message
  std::uint32_t size;     // bytes of the whole field (all elements)
  std::uint32_t element_size;
  std::uint32_t rank;     // 0 for a scalar
  std::uint32_t extents[max_array_rank];
  std::uint32_t message_type_id;  // non-zero only for kind == message
};

/// Specialised by ringkernel-gen for every [[ringkernel::message]] type. The primary template marks
/// "not a message"; generated specialisations provide:
///   is_message, type_id, name, kernel, kernel_id, direction, priority, causal, format, size,
///   alignment, field_count, field(i) -> field_descriptor,
///   visit_fields(msg, visitor): calls visitor(field_index<I>, member) for every field in order.
template <class T>
struct message_traits {
  static constexpr bool is_message = false;
};

template <class T>
inline constexpr bool is_message_v = message_traits<std::remove_cv_t<T>>::is_message;

/// Tag passed to field visitors: the compile-time index of the visited field.
template <std::size_t I>
struct field_index : std::integral_constant<std::size_t, I> {};

/// FNV-1a 32-bit, the hash behind default type ids and kernel ids (DESIGN.md §3).
RINGKERNEL_HOST_DEVICE constexpr std::uint32_t fnv1a32(const char* text, std::size_t length) {
  std::uint32_t hash = 2166136261u;
  for (std::size_t i = 0; i < length; ++i) {
    hash ^= static_cast<std::uint8_t>(text[i]);
    hash *= 16777619u;
  }
  return hash;
}

template <std::size_t N>
RINGKERNEL_HOST_DEVICE constexpr std::uint32_t fnv1a32(const char (&text)[N]) {
  return fnv1a32(text, N - 1);
}

/// Type-erased description of a message, as stored in generated registries.
struct message_info {
  std::uint32_t type_id;
  const char* name;
  const char* kernel;
  std::uint32_t kernel_id;
  ringkernel::direction direction;
  std::uint8_t priority;
  bool causal;
  wire_format format;
  std::uint32_t size;
  std::uint32_t alignment;
  std::uint32_t field_count;
};

/// A list of message types, as a type only (nothing to construct, host and device alike): a
/// generated registry's `message_types` lists its messages in type id order,
/// message_list<A, B, ...>, for templates that take a registry's messages
/// (describe_dispatch_failure, ringkernel/decode_diagnostic.h).
template <class... T>
struct message_list {
  static constexpr std::size_t size = sizeof...(T);
};

namespace detail {
/// message_list<T...>: lets a generated registry write its list with a comma before each type
/// (message_list_after<void, A, B> is message_list<A, B>).
template <class Ignored, class... T>
using message_list_after = message_list<T...>;
}  // namespace detail

template <class T>
RINGKERNEL_HOST_DEVICE constexpr message_info info_of() {
  using traits = message_traits<T>;
  static_assert(traits::is_message, "T is not a [[ringkernel::message]] type");
  return message_info{traits::type_id,   traits::name,     traits::kernel,
                      traits::kernel_id, traits::direction, traits::priority,
                      traits::causal,    traits::format,    static_cast<std::uint32_t>(traits::size),
                      static_cast<std::uint32_t>(traits::alignment),
                      static_cast<std::uint32_t>(traits::field_count)};
}

}  // namespace ringkernel
RINGKERNEL_DEPRECATED_USES_POP
