// Copyright RingKernel authors.
// Encoding and decoding of one field value by its C++ type (see field_type.h for the shapes).
// Nested messages go back to message_codec.h, which includes this file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/fixed_string.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/status.h"

#ifndef RINGKERNEL_CODEC_MAX_DEPTH
/// Deepest array/map nesting the decoder follows (messages, arrays and skipped unknown values).
#define RINGKERNEL_CODEC_MAX_DEPTH 32
#endif

namespace ringkernel::detail {

inline constexpr std::uint32_t codec_max_depth = RINGKERNEL_CODEC_MAX_DEPTH;

template <class T, class Writer>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE void encode_message(const T& msg, Writer& w) noexcept;
template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE codec_status decode_message(msgpack_reader& r, T& msg, std::uint32_t depth) noexcept;

/// Arrays of up to this many elements are encoded and decoded as straight-line code.
inline constexpr std::size_t unroll_limit = 8;

/// Whether the byte of a bool (or of an enum on bool) is non-zero. Raw messages (written by device
/// code, copied in from memory or another language) may hold any byte there; read as a bool, the
/// compilers assume 0 or 1 and computed the tag as 0xc2 + byte (g++) or 0xc2 | byte (clang): 0x02
/// became c4 (a bin 8 header), 0xff c1. Any non-zero byte is true, as msgpack-c's packer has it.
template <class B>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool stored_byte_nonzero(const B& v) noexcept {
  static_assert(sizeof(B) == 1);
  unsigned char byte;
  copy_bytes(&byte, &v, 1);
  return byte != 0;
}

template <class F, class Writer>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void encode_value(const F& v, Writer& w) noexcept {
  constexpr wire_shape shape = shape_of<F>();
  static_assert(shape != wire_shape::unsupported,
                "field type is not supported by the MessagePack codec (docs/wire-format.md, section 3)");
  if constexpr (shape == wire_shape::boolean) {
    w.write_bool(stored_byte_nonzero(v));
  } else if constexpr (shape == wire_shape::integer) {
    using I = wire_integer_t<F>;
    if constexpr (std::is_same_v<I, bool>) {  // an enum on bool: 0 or 1, never the raw byte
      w.write_uint(stored_byte_nonzero(v) ? 1u : 0u);
    } else if constexpr (std::is_signed_v<I>) {
      w.write_int(static_cast<std::int64_t>(static_cast<I>(v)));
    } else {
      w.write_uint(static_cast<std::uint64_t>(static_cast<I>(v)));
    }
  } else if constexpr (shape == wire_shape::float32) {
    w.write_float(v);
  } else if constexpr (shape == wire_shape::float64) {
    w.write_double(v);
  } else if constexpr (shape == wire_shape::str) {
    w.write_char_array(v);
  } else if constexpr (shape == wire_shape::bin) {
    w.write_bin(v, static_cast<std::uint32_t>(std::extent_v<F>));
  } else if constexpr (shape == wire_shape::array) {
    w.write_array_header(static_cast<std::uint32_t>(std::extent_v<F>));
    if constexpr (std::extent_v<F> <= unroll_limit) {
      RINGKERNEL_CODEC_UNROLL
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) encode_value(v[i], w);
    } else {
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) encode_value(v[i], w);
    }
  } else {
    encode_message(v, w);
  }
}

/// Decodes one value into `out`. `depth`: array/map levels open around the value. On failure `out`
/// may be partly written (codec.h decodes into a copy) and the reader points at the bad value.
template <class F>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status decode_value(msgpack_reader& r, F& out, std::uint32_t depth) noexcept {
  constexpr wire_shape shape = shape_of<F>();
  static_assert(shape != wire_shape::unsupported,
                "field type is not supported by the MessagePack codec (docs/wire-format.md, section 3)");
  if constexpr (shape == wire_shape::boolean) {
    return r.read_bool(out);
  } else if constexpr (shape == wire_shape::integer) {
    if constexpr (std::is_same_v<F, wire_integer_t<F>>) {
      return r.read_int(out);
    } else {  // enum, std::byte (any value of the underlying type, enumerators not checked) or char
      wire_integer_t<F> value{};
      const codec_status s = r.read_int(value);
      if (s == codec_status::ok) out = static_cast<F>(value);
      return s;
    }
  } else if constexpr (shape == wire_shape::float32) {
    return r.read_float(out);
  } else if constexpr (shape == wire_shape::float64) {
    return r.read_double(out);
  } else if constexpr (shape == wire_shape::str) {
    const msgpack_reader::mark start = r.position();
    const char* data = nullptr;
    std::uint32_t length = 0;
    if (const codec_status s = r.read_str(data, length); s != codec_status::ok) return s;
    if (length > std::extent_v<F>) return r.fail_at(start, codec_status::wrong_length);
    // A NUL inside the string would be cut off when re-encoded: refuse it instead of losing text.
    if (!copy_str_zero_filled(out, data, length, r.readable_from(data))) {
      return r.fail_at(start, codec_status::value_out_of_range);
    }
    return codec_status::ok;
  } else if constexpr (shape == wire_shape::bin) {
    const msgpack_reader::mark start = r.position();
    const std::uint8_t* data = nullptr;
    std::uint32_t length = 0;
    if (const codec_status s = r.read_bin(data, length); s != codec_status::ok) return s;
    if (length != std::extent_v<F>) return r.fail_at(start, codec_status::wrong_length);
    copy_bytes(out, data, length);
    return codec_status::ok;
  } else if constexpr (shape == wire_shape::array) {
    const msgpack_reader::mark start = r.position();
    std::uint32_t count = 0;
    if (const codec_status s = r.read_array_header(count); s != codec_status::ok) return s;
    if (count != std::extent_v<F>) return r.fail_at(start, codec_status::wrong_length);
    if constexpr (std::extent_v<F> <= unroll_limit) {
      RINGKERNEL_CODEC_UNROLL
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) {
        if (const codec_status s = decode_value(r, out[i], depth + 1); s != codec_status::ok) return s;
      }
    } else {
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) {
        if (const codec_status s = decode_value(r, out[i], depth + 1); s != codec_status::ok) return s;
      }
    }
    return codec_status::ok;
  } else {
    return decode_message(r, out, depth);
  }
}

}  // namespace ringkernel::detail
