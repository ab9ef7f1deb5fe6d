// Copyright RingKernel authors.
// Compile-time classification of field types (DESIGN.md §4) into their MessagePack shape, and the
// sizes and nesting depths that follow from it. Dispatch is on the C++ type the generated
// visit_fields passes (arrays stay arrays, enums stay enums, nested messages stay structs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/message.h"

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel::detail {

/// How one C++ field type appears on the wire.
enum class wire_shape : std::uint8_t {
  boolean,   // true / false
  integer,   // any integer type and char: smallest int/uint encoding
  float32,   // float
  float64,   // double
  str,       // char[N]: the characters up to the first NUL
  bin,       // unsigned char[N] (std::uint8_t[N]) and std::byte[N]
  array,     // any other T[N]: an array of N values
  message,   // nested [[ringkernel::message]]: array or map by its own format
  unsupported,
};

template <class F>
RINGKERNEL_HOST_DEVICE constexpr wire_shape shape_of() noexcept {
  if constexpr (std::is_same_v<F, bool>) {
    return wire_shape::boolean;
  } else if constexpr (std::is_same_v<F, std::byte> || std::is_integral_v<F> || std::is_enum_v<F>) {
    return wire_shape::integer;
  } else if constexpr (std::is_same_v<F, float>) {
    return wire_shape::float32;
  } else if constexpr (std::is_same_v<F, double>) {
    return wire_shape::float64;
  } else if constexpr (std::is_bounded_array_v<F>) {
    using element = std::remove_extent_t<F>;
    if constexpr (std::is_same_v<element, char>) return wire_shape::str;
    else if constexpr (std::is_same_v<element, unsigned char> || std::is_same_v<element, std::byte>) return wire_shape::bin;
    else return wire_shape::array;
  } else if constexpr (is_message_v<F>) {
    return wire_shape::message;
  } else {
    return wire_shape::unsupported;
  }
}

/// The integer type an integer-shaped field travels as (enums: underlying; std::byte: uint8).
/// Plain `char` travels as `signed char` wherever it is unsigned (AArch64, -funsigned-char), so a
/// char field has the same bytes and the same accepted range on every host and device.
template <class F, bool = std::is_enum_v<F>>
struct wire_integer_type {
  using type = F;
};
// The builtin behind std::underlying_type, applied here rather than in <type_traits>: clang++
// reports a [[deprecated]] enum where the builtin names it, and only here do the pragmas of
// RINGKERNEL_DEPRECATED_USES_PUSH cover it (config.h).
template <class F>
struct wire_integer_type<F, true> {
#if defined(__GNUC__) || defined(__clang__)
  using type = __underlying_type(F);
#else
  using type = std::underlying_type_t<F>;
#endif
};
template <class I>
struct plain_char_as_signed {
  using type = I;
};
template <>
struct plain_char_as_signed<char> {
  using type = signed char;
};
template <class F>
using wire_integer_t = typename plain_char_as_signed<typename wire_integer_type<F>::type>::type;

/// Length of a NUL-terminated string, usable in constant expressions (field names).
RINGKERNEL_HOST_DEVICE constexpr std::size_t constexpr_strlen(const char* s) noexcept {
  std::size_t n = 0;
  while (s[n] != '\0') ++n;
  return n;
}

/// The name of T's field i, for a loop over the fields (i < field_count). Past the last field
/// field(i) has no name (nullptr); this gives "" there, so that no caller's code has a null path:
/// where g++ (-O1) did not carry the loop's bound into field(i)'s switch, -Wnull-dereference
/// warned in users' builds about the strlen of that unreachable null name.
template <class T>
RINGKERNEL_HOST_DEVICE constexpr const char* field_name(std::size_t i) noexcept {
  const char* name = message_traits<T>::field(i).name;
  return name != nullptr ? name : "";
}

/// Length of the name of field I of message T.
template <class T, std::size_t I>
inline constexpr std::size_t field_name_length = constexpr_strlen(message_traits<T>::field(I).name);

template <class T>
RINGKERNEL_HOST_DEVICE constexpr std::size_t max_message_size() noexcept;
template <class T>
RINGKERNEL_HOST_DEVICE constexpr std::uint32_t message_depth() noexcept;

/// Largest canonical encoding of any value of F.
template <class F>
RINGKERNEL_HOST_DEVICE constexpr std::size_t max_value_size() noexcept {
  constexpr wire_shape shape = shape_of<F>();
  static_assert(shape != wire_shape::unsupported,
                "field type is not supported by the MessagePack codec (docs/wire-format.md, section 3)");
  if constexpr (shape == wire_shape::boolean) {
    return 1;
  } else if constexpr (shape == wire_shape::integer) {
    return 1 + sizeof(F);  // tag + the widest payload of the type
  } else if constexpr (shape == wire_shape::float32) {
    return 5;
  } else if constexpr (shape == wire_shape::float64) {
    return 9;
  } else if constexpr (shape == wire_shape::str) {
    return str_header_size(std::extent_v<F>) + std::extent_v<F>;
  } else if constexpr (shape == wire_shape::bin) {
    return bin_header_size(std::extent_v<F>) + std::extent_v<F>;
  } else if constexpr (shape == wire_shape::array) {
    return container_header_size(std::extent_v<F>) +
           std::extent_v<F> * max_value_size<std::remove_extent_t<F>>();
  } else {
    return max_message_size<F>();
  }
}

/// Array/map levels a value of F opens (scalars, str and bin: 0).
template <class F>
RINGKERNEL_HOST_DEVICE constexpr std::uint32_t value_depth() noexcept {
  constexpr wire_shape shape = shape_of<F>();
  if constexpr (shape == wire_shape::array) {
    return 1 + value_depth<std::remove_extent_t<F>>();
  } else if constexpr (shape == wire_shape::message) {
    return message_depth<F>();
  } else {
    return 0;
  }
}

template <class T>
struct message_size_accumulator {
  std::size_t* total;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE constexpr void operator()(field_index<I>, const F&) const noexcept {
    if constexpr (message_traits<T>::format == wire_format::map) {
      *total += str_header_size(field_name_length<T, I>) + field_name_length<T, I>;
    }
    *total += max_value_size<F>();
  }
};

RINGKERNEL_HOST_DEVICE constexpr std::uint32_t larger(std::uint32_t a, std::uint32_t b) noexcept { return a < b ? b : a; }

struct depth_accumulator {
  std::uint32_t* deepest;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE constexpr void operator()(field_index<I>, const F&) const noexcept {
    *deepest = larger(*deepest, value_depth<F>());
  }
};

template <class T>
RINGKERNEL_HOST_DEVICE constexpr std::size_t max_message_size() noexcept {
  using traits = message_traits<T>;
  std::size_t total = container_header_size(traits::field_count);
  const T probe{};  // visit_fields needs an object; only the member types matter
  traits::visit_fields(probe, message_size_accumulator<T>{&total});
  return total;
}

template <class T>
RINGKERNEL_HOST_DEVICE constexpr std::uint32_t message_depth() noexcept {
  std::uint32_t deepest = 0;
  const T probe{};
  message_traits<T>::visit_fields(probe, depth_accumulator{&deepest});
  return 1 + deepest;
}

}  // namespace ringkernel::detail
RINGKERNEL_DEPRECATED_USES_POP
