// Copyright RingKernel authors.
// The map keys of a message's fields (format = map) as compile-time constants: the canonical
// encoding of a field's name (str header, then the name, as msgpack_writer writes it), and a test
// of input bytes against it with a few word loads and one compare. The map decoder matches keys in
// declaration order this way; the constants are scalar template variables, so device code reads
// them as immediates (nvcc forbids taking the address of a constexpr array in device code).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/message.h"

namespace ringkernel::detail {

/// Bytes of field I's encoded key.
template <class T, std::size_t I>
inline constexpr std::size_t field_key_size = str_header_size(field_name_length<T, I>) + field_name_length<T, I>;

/// Byte `at` of field I's encoded key: fixstr, str8, str16 or str32 header (big-endian length),
/// then the name.
template <class T, std::size_t I>
RINGKERNEL_HOST_DEVICE constexpr std::uint8_t field_key_byte(std::size_t at) noexcept {
  constexpr std::size_t length = field_name_length<T, I>;
  constexpr std::size_t header = str_header_size(length);
  if (at >= header) return static_cast<std::uint8_t>(message_traits<T>::field(I).name[at - header]);
  if (header == 1) return static_cast<std::uint8_t>(tag::fixstr | length);
  if (at == 0) return header == 2 ? tag::str8 : header == 3 ? tag::str16 : tag::str32;
  return static_cast<std::uint8_t>(length >> (8 * (header - 1 - at)));
}

/// Bytes [Offset, Offset + Width) of field I's encoded key as a little-endian word.
template <class T, std::size_t I, std::size_t Offset, std::size_t Width>
inline constexpr std::uint64_t field_key_word = [] {
  std::uint64_t word = 0;
  for (std::size_t b = 0; b < Width; ++b) word |= std::uint64_t{field_key_byte<T, I>(Offset + b)} << (8 * b);
  return word;
}();

/// Width bytes at `p` as a little-endian word (any alignment).
template <std::size_t Width>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint64_t load_little_endian(const std::uint8_t* p) noexcept {
  static_assert(Width == 1 || Width == 2 || Width == 4 || Width == 8);
  if constexpr (std::endian::native == std::endian::little) {
    if constexpr (Width == 1) {
      return *p;
    } else {
      using word = std::conditional_t<Width == 2, std::uint16_t, std::conditional_t<Width == 4, std::uint32_t, std::uint64_t>>;
      word w;
      copy_bytes(&w, p, Width);
      return w;
    }
  } else {
    std::uint64_t w = 0;
    for (std::size_t b = 0; b < Width; ++b) w |= std::uint64_t{p[b]} << (8 * b);
    return w;
  }
}

/// The loads that cover an encoded key of `size` bytes: the widest width not above it, at offsets
/// 0, width, 2 width, ... and a last one that ends with the key (it may overlap the one before), so
/// no byte outside the key is read.
RINGKERNEL_HOST_DEVICE constexpr std::size_t key_load_width(std::size_t size) noexcept {
  return size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
}
RINGKERNEL_HOST_DEVICE constexpr std::size_t key_load_count(std::size_t size) noexcept {
  return (size + key_load_width(size) - 1) / key_load_width(size);
}
RINGKERNEL_HOST_DEVICE constexpr std::size_t key_load_offset(std::size_t size, std::size_t k) noexcept {
  return k + 1 < key_load_count(size) ? k * key_load_width(size) : size - key_load_width(size);
}

template <class T, std::size_t I, std::size_t... K>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool key_words_equal(const std::uint8_t* p, std::index_sequence<K...>) noexcept {
  constexpr std::size_t size = field_key_size<T, I>;
  constexpr std::size_t width = key_load_width(size);
  return ((load_little_endian<width>(p + key_load_offset(size, K)) ^
           field_key_word<T, I, key_load_offset(size, K), width>) |
          ...) == 0;
}

/// Whether the field_key_size<T, I> bytes at `p` (all readable) are field I's encoded key.
template <class T, std::size_t I>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool is_field_key(const std::uint8_t* p) noexcept {
  return key_words_equal<T, I>(p, std::make_index_sequence<key_load_count(field_key_size<T, I>)>{});
}

}  // namespace ringkernel::detail
