// Copyright RingKernel authors.
// Decoding of one MessagePack int (any of its ten forms) straight into an integer type I: one case
// per wire form, and a range check only where the form can hold values that I cannot (uint 16 into
// std::int16_t: yes; uint 16 into std::uint32_t: never). Used by msgpack_reader::read_int.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

template <class I>
RINGKERNEL_HOST_DEVICE constexpr I integer_max() noexcept {
  if constexpr (std::is_same_v<I, bool>) {
    return true;
  } else if constexpr (std::is_signed_v<I>) {
    return static_cast<I>(static_cast<std::make_unsigned_t<I>>(~std::make_unsigned_t<I>{0}) >> 1);
  } else {
    return static_cast<I>(~I{0});
  }
}

template <class I>
RINGKERNEL_HOST_DEVICE constexpr I integer_min() noexcept {
  if constexpr (std::is_signed_v<I>) {
    return static_cast<I>(-integer_max<I>() - 1);
  } else {
    return I{0};
  }
}

/// True when every value of the integer type From is a value of the integer type To.
template <class To, class From>
RINGKERNEL_HOST_DEVICE constexpr bool holds_every_value() noexcept {
  if constexpr (std::is_same_v<To, bool>) {  // the underlying type of an enum: 0 and 1 only
    return std::is_same_v<From, bool>;
  } else if constexpr (std::is_signed_v<From> == std::is_signed_v<To>) {
    return sizeof(To) >= sizeof(From);
  } else if constexpr (std::is_signed_v<To>) {
    return sizeof(To) > sizeof(From);  // unsigned From into a wider signed To
  } else {
    return false;  // signed From into unsigned To: the negative values
  }
}

/// True when the value v of a wire form's type From is a value of I.
template <class I, class From>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool value_fits(From v) noexcept {
  if constexpr (holds_every_value<I, From>()) {
    return true;
  } else if constexpr (std::is_signed_v<From> && std::is_signed_v<I>) {  // I narrower
    return v >= static_cast<From>(integer_min<I>()) && v <= static_cast<From>(integer_max<I>());
  } else if constexpr (std::is_signed_v<From>) {  // into unsigned I
    return v >= 0 && static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(integer_max<I>());
  } else {  // unsigned From into a narrower (or signed, not wider) I
    return static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(integer_max<I>());
  }
}

/// Stores a form's value (1 + Width bytes on the wire) into `out` and advances `pos`, or reports
/// value_out_of_range leaving `pos` at the value.
template <class I, class From, std::size_t Width>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status take_int(const std::uint8_t*& pos, I& out, From v) noexcept {
  if (!value_fits<I>(v)) return codec_status::value_out_of_range;
  out = static_cast<I>(v);
  pos += 1 + Width;
  return codec_status::ok;
}

/// The tagged forms (uint/int 8..64) at `pos`, t = *pos, and negative fixints (which only the
/// unsigned types get here). Roomy: at least 9 bytes are readable, so no form needs its own length check.
template <bool Roomy, class I>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_tagged_int(const std::uint8_t*& pos, std::size_t left,
                                                                            std::uint8_t t, I& out) noexcept {
  const std::uint8_t* p = pos + 1;
  constexpr codec_status truncated = codec_status::truncated_input;
  switch (t) {
    case tag::uint8: return Roomy || left >= 2 ? take_int<I, std::uint8_t, 1>(pos, out, p[0]) : truncated;
    case tag::uint16: return Roomy || left >= 3 ? take_int<I, std::uint16_t, 2>(pos, out, load_be16(p)) : truncated;
    case tag::uint32: return Roomy || left >= 5 ? take_int<I, std::uint32_t, 4>(pos, out, load_be32(p)) : truncated;
    case tag::uint64: return Roomy || left >= 9 ? take_int<I, std::uint64_t, 8>(pos, out, load_be64(p)) : truncated;
    case tag::int8:
      return Roomy || left >= 2 ? take_int<I, std::int8_t, 1>(pos, out, static_cast<std::int8_t>(p[0])) : truncated;
    case tag::int16:
      return Roomy || left >= 3 ? take_int<I, std::int16_t, 2>(pos, out, static_cast<std::int16_t>(load_be16(p)))
                                : truncated;
    case tag::int32:
      return Roomy || left >= 5 ? take_int<I, std::int32_t, 4>(pos, out, static_cast<std::int32_t>(load_be32(p)))
                                : truncated;
    case tag::int64:
      return Roomy || left >= 9 ? take_int<I, std::int64_t, 8>(pos, out, static_cast<std::int64_t>(load_be64(p)))
                                : truncated;
    case tag::never_used: return codec_status::invalid_input;
    default:
      if (t >= tag::negative_fixint_min) return take_int<I, std::int8_t, 0>(pos, out, static_cast<std::int8_t>(t));
      return codec_status::type_mismatch;
  }
}

/// One int form at `pos`, t = *pos, at least one byte readable (Roomy: at least 9).
template <bool Roomy, class I>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_int_form(const std::uint8_t*& pos, std::size_t left,
                                                                          std::uint8_t t, I& out) noexcept {
  if constexpr (std::is_signed_v<I>) {
    // Both fixint forms, 0..127 (00..7f) and -32..-1 (e0..ff), in one test: every signed type holds them.
    if (static_cast<std::int8_t>(t) >= static_cast<std::int8_t>(tag::negative_fixint_min)) {
      out = static_cast<I>(static_cast<std::int8_t>(t));
      ++pos;
      return codec_status::ok;
    }
  } else if (t <= tag::positive_fixint_max) {  // 0..127: every unsigned type holds it but bool (an enum's)
    if constexpr (std::is_same_v<I, bool>) return take_int<I, std::uint8_t, 0>(pos, out, t);
    out = static_cast<I>(t);
    ++pos;
    return codec_status::ok;
  }
  return read_tagged_int<Roomy>(pos, left, t, out);  // (negative fixints into unsigned I: its default)
}

/// Any int encoding at `pos` whose value fits I (an integer type; bool: 0 and 1). On success
/// `pos` moves past the value; on failure it stays at the value: truncated_input (the value does not
/// end before `end`), value_out_of_range, type_mismatch (not an int), invalid_input (0xc1).
/// `roomy`: at least 9 bytes are left at `pos` (the caller knows it from a limit set once).
template <class I>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_int_at(const std::uint8_t*& pos, const std::uint8_t* end,
                                                                        bool roomy, I& out) noexcept {
  const std::size_t left = static_cast<std::size_t>(end - pos);
  if (roomy) [[likely]] return read_int_form<true>(pos, left, *pos, out);  // any form fits: no length checks
  if (left == 0) return codec_status::truncated_input;
  return read_int_form<false>(pos, left, *pos, out);
}

}  // namespace ringkernel::detail
