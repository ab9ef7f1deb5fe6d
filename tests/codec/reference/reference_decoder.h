// Copyright RingKernel authors.
// Test-only reference decoder: docs/wire-format.md §5 applied, slowly and literally, to the tree
// msgpack-cxx parsed (msgpack_tree.h), field by field through message_traits<T>::visit_fields and
// the C++ type of each member. It does not share code with ringkernel::decode (only the traits and
// codec_status). Values are checked in document order and the first failing one decides the status.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>
#include <type_traits>

#include "reference/msgpack_tree.h"
#include "ringkernel/codec.h"

namespace codec_reference {

using ringkernel::codec_status;

struct reference_result {
  codec_status status;
  std::size_t size;     // bytes of the message when ok
  bool well_formed;     // the first object parsed completely: §5 then pins down the status
};

/// Objects deeper than this are not turned into a tree; any of them must fail to decode, since no
/// message type nests beyond max_decode_depth and skipped values may not either.
inline constexpr std::uint32_t tree_depth_cap = 2 * ringkernel::max_decode_depth;

namespace detail {

/// Levels of containers in `n` (0 for a scalar).
inline std::uint32_t container_depth(const node& n) {
  if (n.kind != node_kind::array && n.kind != node_kind::map) return 0;
  std::uint32_t deepest = 0;
  for (const node& item : n.items) {
    const std::uint32_t d = container_depth(item);
    if (d > deepest) deepest = d;
  }
  return deepest + 1;
}

/// An unknown map value or extra array element inside a container at `level`: any valid value,
/// but its own containers count from level + 1 and may not pass max_decode_depth.
inline codec_status skip(const node& n, std::uint32_t level) {
  return level + container_depth(n) > ringkernel::max_decode_depth ? codec_status::nesting_too_deep : codec_status::ok;
}

/// `magnitude` has at most `bits` significant bits: it is exact in a float with that many.
inline bool exact_in(std::uint64_t magnitude, int bits) {
  return magnitude == 0 || (magnitude >> std::countr_zero(magnitude)) < (std::uint64_t{1} << bits);
}

/// Plain char is a signed 8-bit int on the wire even where char is unsigned (wire-format.md §3).
template <class I>
using signed_if_plain_char = std::conditional_t<std::is_same_v<I, char>, signed char, I>;

template <class I>
codec_status read_integer(const node& n, I& out) {
  using limits = std::numeric_limits<I>;
  if (n.kind == node_kind::positive) {
    if (n.positive > static_cast<std::uint64_t>(limits::max())) return codec_status::value_out_of_range;
    out = static_cast<I>(n.positive);
    return codec_status::ok;
  }
  if (n.kind == node_kind::negative) {
    if (!limits::is_signed || n.negative < static_cast<std::int64_t>(limits::min())) {
      return codec_status::value_out_of_range;
    }
    out = static_cast<I>(n.negative);
    return codec_status::ok;
  }
  return codec_status::type_mismatch;
}

/// float or double from an int: only when exact (`bits` = significand bits of F).
template <class F>
codec_status read_float_from_int(const node& n, F& out) {
  constexpr int bits = std::numeric_limits<F>::digits;
  if (n.kind == node_kind::positive) {
    if (!exact_in(n.positive, bits)) return codec_status::value_out_of_range;
    out = static_cast<F>(n.positive);
    return codec_status::ok;
  }
  const std::uint64_t magnitude = std::uint64_t{0} - static_cast<std::uint64_t>(n.negative);
  if (!exact_in(magnitude, bits)) return codec_status::value_out_of_range;
  out = -static_cast<F>(magnitude);
  return codec_status::ok;
}

inline codec_status read_float(const node& n, float& out) {
  switch (n.kind) {
    case node_kind::float32:
      out = std::bit_cast<float>(static_cast<std::uint32_t>(n.bits));
      return codec_status::ok;
    case node_kind::float64: {
      const double d = std::bit_cast<double>(n.bits);
      // Round to nearest: below FLT_MAX + half an ulp (2^128 - 2^103) the result is finite.
      const double overflow = 0x1.ffffffp127;
      if (std::isfinite(d) && std::fabs(d) >= overflow) return codec_status::value_out_of_range;
      if (std::isfinite(d) && std::fabs(d) > FLT_MAX) {
        out = std::signbit(d) ? -FLT_MAX : FLT_MAX;
      } else {
        out = static_cast<float>(d);
      }
      return codec_status::ok;
    }
    case node_kind::positive:
    case node_kind::negative:
      return read_float_from_int(n, out);
    default:
      return codec_status::type_mismatch;
  }
}

inline codec_status read_float(const node& n, double& out) {
  switch (n.kind) {
    case node_kind::float64:
      out = std::bit_cast<double>(n.bits);
      return codec_status::ok;
    case node_kind::float32:
      out = static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(n.bits)));
      return codec_status::ok;
    case node_kind::positive:
    case node_kind::negative:
      return read_float_from_int(n, out);
    default:
      return codec_status::type_mismatch;
  }
}

/// char[N]: a str of at most N bytes without NUL, zero-filled.
template <std::size_t N>
codec_status read_string(const node& n, char (&out)[N]) {
  if (n.kind != node_kind::str) return codec_status::type_mismatch;
  if (n.payload.size() > N) return codec_status::wrong_length;
  if (n.payload.find('\0') != std::string_view::npos) return codec_status::value_out_of_range;
  std::memset(out, 0, N);
  if (!n.payload.empty()) std::memcpy(out, n.payload.data(), n.payload.size());  // data() may be null
  return codec_status::ok;
}

/// uint8_t[N] / unsigned char[N] / std::byte[N]: a bin of exactly N bytes.
template <class B, std::size_t N>
codec_status read_bytes(const node& n, B (&out)[N]) {
  if (n.kind != node_kind::bin) return codec_status::type_mismatch;
  if (n.payload.size() != N) return codec_status::wrong_length;
  std::memcpy(out, n.payload.data(), N);
  return codec_status::ok;
}

template <class M>
codec_status read_message(const node& n, M& out, std::uint32_t level);

/// One value of C++ type F held in a container at `level`.
template <class F>
codec_status read_value(const node& n, F& out, std::uint32_t level) {
  if constexpr (std::is_array_v<F>) {
    using E = std::remove_extent_t<F>;
    if constexpr (std::is_same_v<E, char>) {
      return read_string(n, out);
    } else if constexpr (std::is_same_v<E, unsigned char> || std::is_same_v<E, std::byte>) {
      return read_bytes(n, out);
    } else {
      if (n.kind != node_kind::array) return codec_status::type_mismatch;
      if (n.items.size() != std::extent_v<F>) return codec_status::wrong_length;
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) {
        const codec_status s = read_value(n.items[i], out[i], level + 1);
        if (s != codec_status::ok) return s;
      }
      return codec_status::ok;
    }
  } else if constexpr (ringkernel::is_message_v<F>) {
    return read_message(n, out, level + 1);
  } else if constexpr (std::is_same_v<F, bool>) {
    if (n.kind != node_kind::boolean) return codec_status::type_mismatch;
    out = n.boolean;
    return codec_status::ok;
  } else if constexpr (std::is_floating_point_v<F>) {
    return read_float(n, out);
  } else if constexpr (std::is_enum_v<F>) {  // also std::byte: an enum over unsigned char
    signed_if_plain_char<std::underlying_type_t<F>> raw{};
    const codec_status s = read_integer(n, raw);
    if (s == codec_status::ok) out = static_cast<F>(raw);
    return s;
  } else if constexpr (std::is_same_v<F, char>) {
    signed char raw{};
    const codec_status s = read_integer(n, raw);
    if (s == codec_status::ok) out = static_cast<char>(raw);
    return s;
  } else {
    static_assert(std::is_integral_v<F>, "unsupported field type");
    return read_integer(n, out);
  }
}

/// Calls read_value on field `index` of `msg` (a run-time index, for map keys).
template <class M>
codec_status read_field(const node& n, M& msg, std::size_t index, std::uint32_t level) {
  codec_status s = codec_status::ok;
  ringkernel::message_traits<M>::visit_fields(msg, [&](auto field, auto& member) {
    if (decltype(field)::value == index) s = read_value(n, member, level);
  });
  return s;
}

template <class M>
codec_status read_array_message(const node& n, M& out, std::uint32_t level) {
  using traits = ringkernel::message_traits<M>;
  if (n.kind != node_kind::array) return codec_status::type_mismatch;
  if (n.items.size() < traits::field_count) return codec_status::missing_field;
  for (std::size_t i = 0; i < traits::field_count; ++i) {
    const codec_status s = read_field(n.items[i], out, i, level);
    if (s != codec_status::ok) return s;
  }
  for (std::size_t i = traits::field_count; i < n.items.size(); ++i) {  // a newer sender's fields
    const codec_status s = skip(n.items[i], level);
    if (s != codec_status::ok) return s;
  }
  return codec_status::ok;
}

/// The index of M's field named `name`, field_count when M has none: a map built once per type from
/// the traits (comparing each key with every name made a map of n fields O(n^2) per message).
template <class M>
std::size_t field_index_by_name(std::string_view name) {
  using traits = ringkernel::message_traits<M>;
  static const std::map<std::string_view, std::size_t> index = [] {
    std::map<std::string_view, std::size_t> names;
    for (std::size_t i = 0; i < traits::field_count; ++i) names.emplace(traits::field(i).name, i);
    return names;
  }();
  const auto found = index.find(name);
  return found == index.end() ? traits::field_count : found->second;
}

template <class M>
codec_status read_map_message(const node& n, M& out, std::uint32_t level) {
  using traits = ringkernel::message_traits<M>;
  if (n.kind != node_kind::map) return codec_status::type_mismatch;
  bool seen[traits::field_count] = {};
  for (std::size_t k = 0; k + 1 < n.items.size(); k += 2) {
    const node& key = n.items[k];
    const node& value = n.items[k + 1];
    if (key.kind != node_kind::str) return codec_status::type_mismatch;
    const std::size_t index = field_index_by_name<M>(key.payload);
    codec_status s = codec_status::ok;
    if (index == traits::field_count) {
      s = skip(value, level);  // a field this side does not know
    } else if (seen[index]) {
      s = codec_status::duplicate_field;
    } else {
      seen[index] = true;
      s = read_field(value, out, index, level);
    }
    if (s != codec_status::ok) return s;
  }
  for (bool present : seen) {
    if (!present) return codec_status::missing_field;
  }
  return codec_status::ok;
}

template <class M>
codec_status read_message(const node& n, M& out, std::uint32_t level) {
  if constexpr (ringkernel::message_traits<M>::format == ringkernel::wire_format::map) {
    return read_map_message(n, out, level);
  } else {
    return read_array_message(n, out, level);
  }
}

}  // namespace detail

/// Decodes one T from the front of [data, data + size) by the rules of docs/wire-format.md §5.
/// On failure `out` may be partly written (the caller compares only on success). When the first
/// object is not well-formed (cut, 0xc1, nested beyond tree_depth_cap) the status only says "error".
template <class T>
reference_result reference_decode(const std::uint8_t* data, std::size_t size, T& out) {
  const parsed_object parsed = parse_first_object(data, size, tree_depth_cap);
  switch (parsed.state) {
    case parse_state::complete: {
      const codec_status s = detail::read_message(parsed.root, out, 1);  // the message is level 1
      return {s, s == codec_status::ok ? parsed.size : 0, true};
    }
    case parse_state::truncated:
      return {codec_status::truncated_input, 0, false};
    case parse_state::invalid:
      return {codec_status::invalid_input, 0, false};
    case parse_state::too_deep:
      return {codec_status::nesting_too_deep, 0, false};
  }
  return {codec_status::invalid_input, 0, false};
}

}  // namespace codec_reference
