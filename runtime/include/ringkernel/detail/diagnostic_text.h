// Copyright RingKernel authors.
// Text pieces of decode diagnostics (ringkernel/decode_diagnostic.h), host only: what a MessagePack
// item at a position is ("a str of 5 bytes"), bytes from the input quoted with every byte that is
// not printable ASCII as \xNN and a cap on their length, and the names of the C++ field types the
// decoder expected. Nothing here reads outside [in, in + size) or allocates beyond the text itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/msgpack_item.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/message.h"

namespace ringkernel::detail {

/// Input bytes of a key shown in a diagnostic; longer keys are cut and their length given.
inline constexpr std::size_t diagnostic_key_bytes = 32;

/// The parts one after another, appended to one string. (Not `"text" + std::string(...)`: that
/// inserts in front, and g++ 12 at -O3 reports a false -Wrestrict for it, GCC bug 105329, in every
/// program that includes this header.)
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::string out;
  (out.append(std::string_view(parts)), ...);
  return out;
}

/// `n` as decimal text.
inline std::string decimal(std::uint64_t n) { return std::to_string(n); }

/// "1 element", "2 elements": `n` and its unit, `one` or `many`.
inline std::string count_text(std::uint64_t n, const char* one, const char* many) {
  return concat(decimal(n), " ", n == 1 ? one : many);
}

/// "0xNN" for one byte.
inline std::string hex_byte(std::uint8_t b) {
  constexpr char digits[] = "0123456789abcdef";
  const char text[] = {'0', 'x', digits[b >> 4], digits[b & 0x0fu], '\0'};
  return text;
}

/// `length` bytes at `data` in double quotes: printable ASCII as is (a quote or backslash behind a
/// backslash), any other byte as backslash, x and two hex digits; at most diagnostic_key_bytes of
/// them, then "..." and the whole length.
inline std::string quoted_bytes(const char* data, std::size_t length) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out = "\"";
  const std::size_t shown = length < diagnostic_key_bytes ? length : diagnostic_key_bytes;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<std::uint8_t>(data[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 0x0fu];
    }
  }
  out += '"';
  if (shown < length) out += concat("... (", decimal(length), " bytes)");
  return out;
}

/// What the MessagePack item at `p` is, as far as its header says ("an int 8", "a str of 3 bytes",
/// "a map of 2 entries", "the byte 0xc1"); "nothing (the input ends)" at `end`. Reads only bytes
/// inside [p, end); an item cut in its header is named by its type byte alone.
inline std::string msgpack_item_text(const std::uint8_t* p, const std::uint8_t* end) {
  if (p >= end) return "nothing (the input ends)";
  const std::uint8_t t = *p;
  const std::size_t left = static_cast<std::size_t>(end - p);
  const auto length = [&](std::size_t header) -> std::uint64_t {
    if (left < header) return ~std::uint64_t{0};
    return header == 2 ? p[1] : header == 3 ? load_be16(p + 1) : load_be32(p + 1);
  };
  const auto sized = [&](const char* what, std::size_t header, const char* one, const char* many) {
    const std::uint64_t n = length(header);
    if (n == ~std::uint64_t{0}) return concat(what, " (its length cut off)");
    return concat(what, " of ", count_text(n, one, many));
  };
  if (t <= tag::positive_fixint_max) return concat("the int ", decimal(t));
  if (t >= tag::negative_fixint_min) return concat("the int ", std::to_string(static_cast<std::int8_t>(t)));
  if (t >= tag::fixmap && t < tag::fixmap + 16) return concat("a map of ", count_text(t & 0x0fu, "entry", "entries"));
  if (t >= tag::fixarray && t < tag::fixarray + 16) return concat("an array of ", count_text(t & 0x0fu, "element", "elements"));
  if (t >= tag::fixstr && t < tag::fixstr + 32) return concat("a str of ", count_text(t & 0x1fu, "byte", "bytes"));
  switch (t) {
    case tag::nil: return "nil";
    case tag::false_: return "false";
    case tag::true_: return "true";
    case tag::never_used: return "the byte 0xc1 (never used in MessagePack)";
    case tag::float32: return "a float 32";
    case tag::float64: return "a float 64";
    case tag::uint8: return "a uint 8";
    case tag::uint16: return "a uint 16";
    case tag::uint32: return "a uint 32";
    case tag::uint64: return "a uint 64";
    case tag::int8: return "an int 8";
    case tag::int16: return "an int 16";
    case tag::int32: return "an int 32";
    case tag::int64: return "an int 64";
    case tag::str8: return sized("a str", 2, "byte", "bytes");
    case tag::str16: return sized("a str", 3, "byte", "bytes");
    case tag::str32: return sized("a str", 5, "byte", "bytes");
    case tag::bin8: return sized("a bin", 2, "byte", "bytes");
    case tag::bin16: return sized("a bin", 3, "byte", "bytes");
    case tag::bin32: return sized("a bin", 5, "byte", "bytes");
    case tag::array16: return sized("an array", 3, "element", "elements");
    case tag::array32: return sized("an array", 5, "element", "elements");
    case tag::map16: return sized("a map", 3, "entry", "entries");
    case tag::map32: return sized("a map", 5, "entry", "entries");
    default: return "an ext";  // fixext 1..16, ext 8/16/32
  }
}

/// Why the item at `offset` is truncated_input: "<item> needs N bytes, M remain", or for an
/// array/map inside a skipped value, "<item> cannot fit the M bytes that remain".
inline std::string truncation_text(const std::uint8_t* in, std::size_t size, std::size_t offset) {
  if (offset >= size) return concat("the input ends at byte ", decimal(size), ", before this value");
  const std::uint8_t* p = in + offset;
  const std::uint8_t* end = in + size;
  const std::string what = msgpack_item_text(p, end);
  const std::size_t left = size - offset;
  const msgpack_item item = scan_msgpack_item(p, end);
  if (item.status == codec_status::ok && item.container) {
    return concat(what, ", more than the ", count_text(left - item.size, "byte", "bytes"), " after its header can hold");
  }
  return concat(what, " cut by the end of the input, ", count_text(left, "byte", "bytes"), " left");
}

/// The name of an integer type as the wire sees it ("uint8", "int64", "char", "bool").
template <class I>
std::string integer_type_text() {
  if constexpr (std::is_same_v<I, bool>) {
    return "bool";
  } else {
    return concat(std::is_signed_v<I> ? "int" : "uint", decimal(8 * sizeof(I)));
  }
}

/// The C++ field type F in words ("uint8", "enum (uint8)", "char[16]", "float", "Point", "int32[2][3]").
template <class F>
std::string field_type_text() {
  constexpr wire_shape shape = shape_of<F>();
  if constexpr (std::is_bounded_array_v<F>) {
    const std::string inner = field_type_text<std::remove_extent_t<F>>();
    // The outermost extent comes first: int32[2][3] is an array of 2 int32[3].
    const std::size_t bracket = inner.find('[');
    const std::string extent = concat("[", decimal(std::extent_v<F>), "]");
    if (bracket == std::string::npos) return concat(inner, extent);
    return concat(std::string_view(inner).substr(0, bracket), extent, std::string_view(inner).substr(bracket));
  } else if constexpr (shape == wire_shape::boolean) {
    return "bool";
  } else if constexpr (std::is_same_v<F, char>) {
    return "char";
  } else if constexpr (std::is_same_v<F, std::byte>) {
    return "std::byte";
  } else if constexpr (std::is_enum_v<F>) {
    return concat("enum (", integer_type_text<wire_integer_t<F>>(), ")");
  } else if constexpr (shape == wire_shape::integer) {
    return integer_type_text<F>();
  } else if constexpr (shape == wire_shape::float32) {
    return "float";
  } else if constexpr (shape == wire_shape::float64) {
    return "double";
  } else {
    return message_traits<F>::name;
  }
}

/// What the decoder accepts for a value of F, in words ("an int", "a str of at most 16 bytes").
template <class F>
std::string expected_form_text() {
  constexpr wire_shape shape = shape_of<F>();
  if constexpr (shape == wire_shape::boolean) {
    return "true or false; 0 and 1 are ints, not bools";
  } else if constexpr (shape == wire_shape::integer) {
    return "an int";
  } else if constexpr (shape == wire_shape::float32 || shape == wire_shape::float64) {
    return "a float or an int";
  } else if constexpr (shape == wire_shape::str) {
    return concat("a str of at most ", count_text(std::extent_v<F>, "byte", "bytes"));
  } else if constexpr (shape == wire_shape::bin) {
    return concat("a bin of ", count_text(std::extent_v<F>, "byte", "bytes"));
  } else if constexpr (shape == wire_shape::array) {
    return concat("an array of ", count_text(std::extent_v<F>, "element", "elements"));
  } else {
    constexpr std::size_t n = message_traits<F>::field_count;
    return concat(message_traits<F>::format == wire_format::map ? "a map of " : "an array of ",
                  count_text(n, "field", "fields"));
  }
}

}  // namespace ringkernel::detail
