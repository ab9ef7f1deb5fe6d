// Copyright RingKernel authors.
// Why the decoder refused one field value (ringkernel/decode_diagnostic.h), host only: given the
// C++ type F of the value, the status decode_value<F> returned and the offset it stopped at, the
// detail in words ("uint8 field given 300", "a str of 20 bytes for char[16]"). It reads the refused
// value again with the codec's own bounds-checked reader; nothing outside [in, in + size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "ringkernel/detail/diagnostic_text.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

/// The int at `p` as text ("300", "-5"); empty when it is none.
inline std::string wire_integer_text(const std::uint8_t* p, const std::uint8_t* end) {
  msgpack_reader r(p, static_cast<std::size_t>(end - p));
  wire_integer v{};
  if (r.read_integer(v) != codec_status::ok) return {};
  return v.negative ? std::to_string(static_cast<std::int64_t>(v.bits)) : decimal(v.bits);
}

/// The float 64 at `p` (its 9 bytes readable) as the shortest text that reads back as it.
inline std::string float64_text(const std::uint8_t* p) {
  const std::uint64_t bits = load_be64(p + 1);
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, double_from_bits(bits));
    if (double_bits(std::strtod(text, nullptr)) == bits) break;
  }
  return text;
}

/// A str, bin or array header's element count at `p` (readable, the reader's own rules), or ~0.
inline std::uint64_t wire_length(const std::uint8_t* p, const std::uint8_t* end, wire_shape shape) {
  msgpack_reader r(p, static_cast<std::size_t>(end - p));
  std::uint32_t n = 0;
  if (shape == wire_shape::str) {
    const char* data = nullptr;
    return r.read_str(data, n) == codec_status::ok ? n : ~std::uint64_t{0};
  }
  if (shape == wire_shape::bin) {
    const std::uint8_t* data = nullptr;
    return r.read_bin(data, n) == codec_status::ok ? n : ~std::uint64_t{0};
  }
  return r.read_array_header(n) == codec_status::ok ? n : ~std::uint64_t{0};
}

/// value_out_of_range of a value of F at `p`.
template <class F>
std::string out_of_range_text(const std::uint8_t* p, const std::uint8_t* end) {
  constexpr wire_shape shape = shape_of<F>();
  if constexpr (shape == wire_shape::integer) {
    return concat(field_type_text<F>(), " field given ", wire_integer_text(p, end));
  } else if constexpr (shape == wire_shape::float32 || shape == wire_shape::float64) {
    const char* type = shape == wire_shape::float32 ? "float" : "double";
    if (*p == tag::float64) return concat(type, " field given the float 64 ", float64_text(p), ", beyond its range");
    return concat(type, " field given the int ", wire_integer_text(p, end), ", which it cannot hold exactly");
  } else if constexpr (shape == wire_shape::str) {
    msgpack_reader r(p, static_cast<std::size_t>(end - p));
    const char* data = nullptr;
    std::uint32_t length = 0;
    if (r.read_str(data, length) != codec_status::ok) return {};
    std::uint32_t at = 0;
    while (at < length && data[at] != '\0') ++at;
    return concat("a NUL at position ", decimal(at), " of the str, which ", field_type_text<F>(),
                  " cannot carry (re-encoding would cut it)");
  } else {
    return {};
  }
}

/// The detail of decode_value<F>'s failure `status` at `offset` of [in, in + size) (empty for a
/// status decode_value does not return).
template <class F>
std::string value_failure_text(codec_status status, const std::uint8_t* in, std::size_t size, std::size_t offset) {
  const std::uint8_t* p = in + offset;
  const std::uint8_t* end = in + size;
  if (status == codec_status::truncated_input) return truncation_text(in, size, offset);
  if (status == codec_status::invalid_input) return "the byte 0xc1, which MessagePack never uses";
  if (status == codec_status::type_mismatch) {
    return concat(msgpack_item_text(p, end), " where ", field_type_text<F>(), " takes ", expected_form_text<F>());
  }
  if (status == codec_status::value_out_of_range) return out_of_range_text<F>(p, end);
  if constexpr (std::is_bounded_array_v<F>) {
    if (status == codec_status::wrong_length) {
      constexpr wire_shape shape = shape_of<F>();
      const char* what = shape == wire_shape::str ? "a str of " : shape == wire_shape::bin ? "a bin of " : "an array of ";
      const std::uint64_t n = wire_length(p, end, shape);
      return concat(what, shape == wire_shape::array ? count_text(n, "element", "elements") : count_text(n, "byte", "bytes"),
                    " for ", field_type_text<F>());
    }
  }
  return {};
}

}  // namespace ringkernel::detail
