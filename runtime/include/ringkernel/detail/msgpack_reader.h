// Copyright RingKernel authors.
// Bounds-checked MessagePack reader over a caller-provided buffer. Every read either succeeds and
// advances past the value, or fails with a codec_status and leaves the position at the start of the
// offending value (so offset() says where decoding stopped). Accepts every valid encoding of a
// value: any integer width for an integer that fits, float32 or float64 (or an exactly representable
// integer) for floating-point targets, any str/bin/array/map width. Never reads outside
// [in, in + size), never allocates, never recurses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/float_conversion.h"
#include "ringkernel/detail/int_reader.h"
#include "ringkernel/detail/msgpack_item.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

/// An integer as read from the wire (read_integer: an int field given to a float field).
/// `negative`: `bits` holds a negative int64 (two's complement); otherwise `bits` is the value.
struct wire_integer {
  bool negative;
  std::uint64_t bits;
};

class msgpack_reader {
 public:
  RINGKERNEL_HOST_DEVICE msgpack_reader(const std::uint8_t* in, std::size_t size) noexcept
      : begin_(in), pos_(in), end_(in + size),
        roomy_end_(size >= max_scalar_bytes ? in + size - (max_scalar_bytes - 1) : in) {}

  /// Bytes consumed so far; after a failure, the offset of the value that failed.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::size_t offset() const noexcept {
    return static_cast<std::size_t>(pos_ - begin_);
  }

  /// Input bytes from `p` (inside the input) to its end.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::size_t readable_from(const void* p) const noexcept {
    return static_cast<std::size_t>(end_ - static_cast<const std::uint8_t*>(p));
  }

  /// A saved position, to report a failure found after a value was read at the value's start.
  using mark = const std::uint8_t*;
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE mark position() const noexcept { return pos_; }
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status fail_at(mark where, codec_status status) noexcept {
    pos_ = where;
    return status;
  }
  /// Goes back to `where` (a position of this reader) to read from there again.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void rewind(mark where) noexcept { pos_ = where; }

  /// Moves past `byte` if it is the next input byte (a header the caller expects exactly).
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool consume(std::uint8_t byte) noexcept {
    if (pos_ == end_ || *pos_ != byte) return false;
    ++pos_;
    return true;
  }

  /// Moves past the next Size bytes if there are that many and `matches(first byte)` accepts them
  /// (a key the caller expects exactly).
  template <std::size_t Size, class Matches>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool consume_matching(Matches matches) noexcept {
    if (static_cast<std::size_t>(end_ - pos_) < Size || !matches(pos_)) return false;
    pos_ += Size;
    return true;
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_bool(bool& out) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    if ((t & 0xfeu) == tag::false_) {  // c2 or c3
      out = (t & 1u) != 0;
      ++pos_;
      return codec_status::ok;
    }
    return unexpected(t);
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_integer(wire_integer& out) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    if (t <= tag::positive_fixint_max) {
      out = {false, t};
      ++pos_;
      return codec_status::ok;
    }
    if (t >= tag::negative_fixint_min) {
      out = {true, static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(t)))};
      ++pos_;
      return codec_status::ok;
    }
    const std::uint8_t* p = pos_ + 1;
    switch (t) {
      case tag::uint8: return need(2) ? finish_unsigned(out, 2, p[0]) : truncated();
      case tag::uint16: return need(3) ? finish_unsigned(out, 3, load_be16(p)) : truncated();
      case tag::uint32: return need(5) ? finish_unsigned(out, 5, load_be32(p)) : truncated();
      case tag::uint64: return need(9) ? finish_unsigned(out, 9, load_be64(p)) : truncated();
      case tag::int8:
        return need(2) ? finish_signed(out, 2, static_cast<std::int8_t>(p[0])) : truncated();
      case tag::int16:
        return need(3) ? finish_signed(out, 3, static_cast<std::int16_t>(load_be16(p))) : truncated();
      case tag::int32:
        return need(5) ? finish_signed(out, 5, static_cast<std::int32_t>(load_be32(p))) : truncated();
      case tag::int64:
        return need(9) ? finish_signed(out, 9, static_cast<std::int64_t>(load_be64(p))) : truncated();
      default: return unexpected(t);
    }
  }

  /// Any integer encoding whose value fits I (I: an integer type other than bool).
  template <class I>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_int(I& out) noexcept {
    return read_int_at(pos_, end_, roomy(), out);
  }

  /// float32 as is; float64 rounded to nearest on its bits (float_conversion.h; finite values beyond
  /// float's range are out of range); an integer only when float represents it exactly.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_float(float& out) noexcept {
    if (roomy() && *pos_ == tag::float32) [[likely]] {  // what encoders write for a float
      out = float_from_bits(load_be32(pos_ + 1));
      pos_ += 5;
      return codec_status::ok;
    }
    return read_float_other_forms(out);
  }

  /// float64 as is; float32 widened exactly on its bits; an integer only when double represents it exactly.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_double(double& out) noexcept {
    if (roomy() && *pos_ == tag::float64) [[likely]] {
      out = double_from_bits(load_be64(pos_ + 1));
      pos_ += 9;
      return codec_status::ok;
    }
    return read_double_other_forms(out);
  }

  // read_float / read_double past their fast path (the form encoders write for the field's type).
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_OUTLINED codec_status read_float_other_forms(float& out) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    if (t == tag::float32) {  // near the end of the input (else it took the first test)
      if (!need(5)) return truncated();
      out = float_from_bits(load_be32(pos_ + 1));
      pos_ += 5;
      return codec_status::ok;
    }
    if (t == tag::float64) {
      if (!need(9)) return truncated();
      const narrowed_float n = narrow_double_bits(load_be64(pos_ + 1));  // see float_conversion.h
      if (!n.fits) return codec_status::value_out_of_range;
      out = float_from_bits(n.bits);
      pos_ += 9;
      return codec_status::ok;
    }
    return read_exact_integer_as(out);
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_OUTLINED codec_status read_double_other_forms(double& out) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    if (t == tag::float64) return truncated();  // with its 8 bytes there would be 9 left: the first test
    if (t == tag::float32) {
      if (!need(5)) return truncated();
      out = double_from_bits(widen_float_bits(load_be32(pos_ + 1)));
      pos_ += 5;
      return codec_status::ok;
    }
    return read_exact_integer_as(out);
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_str(const char*& data, std::uint32_t& length) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    std::size_t header = 0;
    if (t >= tag::fixstr && t < tag::fixstr + 32) {
      header = 1;
      length = t & 0x1fu;
    } else if (const codec_status s = read_length(t, tag::str8, tag::str16, tag::str32, header, length);
               s != codec_status::ok) {
      return s;
    }
    if (static_cast<std::size_t>(end_ - pos_) - header < length) return codec_status::truncated_input;
    data = reinterpret_cast<const char*>(pos_ + header);
    pos_ += header + length;
    return codec_status::ok;
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_bin(const std::uint8_t*& data, std::uint32_t& length) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    std::size_t header = 0;
    if (const codec_status s = read_length(t, tag::bin8, tag::bin16, tag::bin32, header, length);
        s != codec_status::ok) {
      return s;
    }
    if (static_cast<std::size_t>(end_ - pos_) - header < length) return codec_status::truncated_input;
    data = pos_ + header;
    pos_ += header + length;
    return codec_status::ok;
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_array_header(std::uint32_t& count) noexcept {
    return read_container_header(tag::fixarray, tag::array16, tag::array32, count);
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_map_header(std::uint32_t& count) noexcept {
    return read_container_header(tag::fixmap, tag::map16, tag::map32, count);
  }

  /// Skips one complete value of any type. Its arrays/maps may nest at most `depth_budget` levels
  /// (MaxDepth bounds the budget and sizes the explicit stack: no recursion).
  template <std::uint32_t MaxDepth>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_NOINLINE codec_status skip_value(std::uint32_t depth_budget) noexcept {
    std::uint64_t pending[MaxDepth + 1];  // values still to skip per open container; [0]: the value
    std::uint32_t level = 0;
    pending[0] = 1;
    for (;;) {
      while (pending[level] == 0) {
        if (level == 0) return codec_status::ok;
        --level;
      }
      --pending[level];
      const mark start = pos_;
      const msgpack_item item = scan_msgpack_item(pos_, end_);
      if (item.status != codec_status::ok) return item.status;
      pos_ += item.size;
      if (item.container) {  // opens a level, also when empty; a failure points at the container's header
        if (level + 1 > depth_budget || level + 1 > MaxDepth) return fail_at(start, codec_status::nesting_too_deep);
        // Every value takes at least one byte: a count beyond the remaining input cannot be valid.
        if (item.children > static_cast<std::uint64_t>(end_ - pos_)) return fail_at(start, codec_status::truncated_input);
        pending[++level] = item.children;
      }
    }
  }

 private:
  // The longest scalar: a 64-bit int or float 64, tag and 8 bytes.
  static constexpr std::size_t max_scalar_bytes = 9;

  /// At least max_scalar_bytes bytes are left: any scalar's form fits without a length check of its
  /// own (one compare with a limit set once, instead of a subtraction and a compare per value).
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool roomy() const noexcept { return pos_ < roomy_end_; }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool need(std::size_t n) const noexcept {
    return static_cast<std::size_t>(end_ - pos_) >= n;
  }
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE static codec_status truncated() noexcept { return codec_status::truncated_input; }
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE static codec_status unexpected(std::uint8_t t) noexcept {
    return t == tag::never_used ? codec_status::invalid_input : codec_status::type_mismatch;
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status finish_unsigned(wire_integer& out, std::size_t n,
                                                      std::uint64_t bits) noexcept {
    out = {false, bits};
    pos_ += n;
    return codec_status::ok;
  }
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status finish_signed(wire_integer& out, std::size_t n, std::int64_t v) noexcept {
    out = {v < 0, static_cast<std::uint64_t>(v)};
    pos_ += n;
    return codec_status::ok;
  }

  template <class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_exact_integer_as(F& out) noexcept {
    const std::uint8_t* const start = pos_;
    wire_integer v{};
    if (const codec_status s = read_integer(v); s != codec_status::ok) return s;
    constexpr F two_pow_63 = static_cast<F>(9223372036854775808.0);
    if (v.negative) {
      const auto i = static_cast<std::int64_t>(v.bits);
      const F f = static_cast<F>(i);  // in [-2^63, 0): the round trip below is defined
      if (static_cast<std::int64_t>(f) == i) {
        out = f;
        return codec_status::ok;
      }
    } else {
      const F f = static_cast<F>(v.bits);
      if (f < two_pow_63 * 2 && static_cast<std::uint64_t>(f) == v.bits) {
        out = f;
        return codec_status::ok;
      }
    }
    pos_ = start;
    return codec_status::value_out_of_range;
  }

  // str8/bin8 (1-byte length), 16 and 32 forms: the header size and the payload length.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_length(std::uint8_t t, std::uint8_t tag8, std::uint8_t tag16,
                                                  std::uint8_t tag32, std::size_t& header,
                                                  std::uint32_t& length) const noexcept {
    if (t == tag8) header = 2;
    else if (t == tag16) header = 3;
    else if (t == tag32) header = 5;
    else return unexpected(t);
    if (!need(header)) return codec_status::truncated_input;
    length = header == 2 ? pos_[1] : header == 3 ? load_be16(pos_ + 1) : load_be32(pos_ + 1);
    return codec_status::ok;
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status read_container_header(std::uint8_t fix_tag, std::uint8_t tag16,
                                                            std::uint8_t tag32, std::uint32_t& count) noexcept {
    if (pos_ == end_) return codec_status::truncated_input;
    const std::uint8_t t = *pos_;
    if (t >= fix_tag && t < fix_tag + 16) {
      count = t & 0x0fu;
      ++pos_;
    } else if (t == tag16) {
      if (!need(3)) return codec_status::truncated_input;
      count = load_be16(pos_ + 1);
      pos_ += 3;
    } else if (t == tag32) {
      if (!need(5)) return codec_status::truncated_input;
      count = load_be32(pos_ + 1);
      pos_ += 5;
    } else {
      return unexpected(t);
    }
    return codec_status::ok;
  }

  const std::uint8_t* begin_;
  const std::uint8_t* pos_;
  const std::uint8_t* end_;
  const std::uint8_t* roomy_end_;  // roomy() while pos_ is before it; begin_ for an input shorter than a scalar
};

}  // namespace ringkernel::detail
