// Copyright RingKernel authors.
// MessagePack writer into a caller-provided buffer. Chooses the same (smallest) encodings as
// msgpack-c's packer (msgpack_pack_int64/uint64/float/double/str/bin/array/map), so equal values
// give equal bytes. `Checked = false` skips every capacity check: use it only when the caller has
// proven that the buffer holds the largest possible encoding (codec.h does, via max_encoded_size).
// A checked writer that runs out of space stops writing but keeps counting, so size() reports the
// capacity the encoding needs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/fixed_string.h"
#include "ringkernel/detail/msgpack_tags.h"

namespace ringkernel::detail {

template <bool Checked>
class msgpack_writer {
 public:
  RINGKERNEL_HOST_DEVICE msgpack_writer(std::uint8_t* out, std::size_t capacity) noexcept
      : out_(out), cur_(out), capacity_(capacity) {
#if defined(__CUDA_ARCH__)
    // Device code, unchecked writers: nvcc's cicc is not told where `out` points. When it knew the
    // buffer was a kernel's local array, a decode and then an encode into it in one kernel ran cicc
    // out of memory (> 6 GB at 16 int32 fields, either format; 8 took 19 s, now 2.5 s:
    // tests/codec/device/map_device_messages.h). The stores become generic ones (st, not st.global
    // or st.local). A checked writer is always behind a call (encode_checked, encode_envelope_checked),
    // which hides the buffer as well.
    if constexpr (!Checked) {
      asm("" : "+l"(out_));
      cur_ = out_;
    }
#endif
  }

  /// Unchecked writers: where the next byte goes, and carrying on from there (what a chunk of a
  /// message's fields wrote, field_chunks.h), so that only one pointer crosses each chunk's call.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint8_t* cursor() const noexcept
    requires(!Checked)
  {
    return cur_;
  }
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void resume_at(std::uint8_t* cursor) noexcept
    requires(!Checked)
  {
    cur_ = cursor;
  }

  /// False once a write did not fit (checked writers only).
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE bool ok() const noexcept { return !Checked || size_ <= capacity_; }
  /// Bytes written, or (after an overflow) bytes the whole encoding needs.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::size_t size() const noexcept {
    if constexpr (Checked) {
      return size_;
    } else {
      return static_cast<std::size_t>(cur_ - out_);
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_bool(bool v) noexcept {
    if (std::uint8_t* p = reserve(1)) p[0] = v ? tag::true_ : tag::false_;
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_uint(std::uint64_t v) noexcept {
    if (v <= tag::positive_fixint_max) {
      if (std::uint8_t* p = reserve(1)) p[0] = static_cast<std::uint8_t>(v);
    } else if (v <= 0xffu) {
      if (std::uint8_t* p = reserve(2)) {
        p[0] = tag::uint8;
        p[1] = static_cast<std::uint8_t>(v);
      }
    } else if (v <= 0xffffu) {
      if (std::uint8_t* p = reserve(3)) {
        p[0] = tag::uint16;
        store_be16(p + 1, static_cast<std::uint16_t>(v));
      }
    } else if (v <= 0xffffffffu) {
      if (std::uint8_t* p = reserve(5)) {
        p[0] = tag::uint32;
        store_be32(p + 1, static_cast<std::uint32_t>(v));
      }
    } else if (std::uint8_t* p = reserve(9)) {
      p[0] = tag::uint64;
      store_be64(p + 1, v);
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_int(std::int64_t v) noexcept {
    if (v >= 0) {
      write_uint(static_cast<std::uint64_t>(v));
    } else if (v >= -32) {
      if (std::uint8_t* p = reserve(1)) p[0] = static_cast<std::uint8_t>(v);
    } else if (v >= -128) {
      if (std::uint8_t* p = reserve(2)) {
        p[0] = tag::int8;
        p[1] = static_cast<std::uint8_t>(v);
      }
    } else if (v >= -32768) {
      if (std::uint8_t* p = reserve(3)) {
        p[0] = tag::int16;
        store_be16(p + 1, static_cast<std::uint16_t>(v));
      }
    } else if (v >= -2147483647 - 1) {
      if (std::uint8_t* p = reserve(5)) {
        p[0] = tag::int32;
        store_be32(p + 1, static_cast<std::uint32_t>(v));
      }
    } else if (std::uint8_t* p = reserve(9)) {
      p[0] = tag::int64;
      store_be64(p + 1, static_cast<std::uint64_t>(v));
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_float(float v) noexcept {
    if (std::uint8_t* p = reserve(5)) {
      p[0] = tag::float32;
      store_be32(p + 1, float_bits(v));
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_double(double v) noexcept {
    if (std::uint8_t* p = reserve(9)) {
      p[0] = tag::float64;
      store_be64(p + 1, double_bits(v));
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_str(const char* data, std::uint32_t length) noexcept {
    write_length_header(length, tag::fixstr, 32, tag::str8, tag::str16, tag::str32);
    write_body(data, length);
  }

  /// A char[N] field: str of the characters before the first NUL. Unchecked writers copy all N
  /// bytes at once (the buffer holds the longest encoding, so this stays inside it; bytes past the
  /// string are overwritten by what follows or lie beyond size()).
  template <std::size_t N>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_char_array(const char (&s)[N]) noexcept {
    const std::uint32_t length = fixed_strlen<N>(s);
    if constexpr (!Checked && N <= 256) {
      write_length_header(length, tag::fixstr, 32, tag::str8, tag::str16, tag::str32);
      copy_bytes(cur_, s, N);
      cur_ += length;
    } else {
      write_str(s, length);
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_bin(const void* data, std::uint32_t length) noexcept {
    write_length_header(length, 0, 0, tag::bin8, tag::bin16, tag::bin32);
    write_body(data, length);
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_array_header(std::uint32_t count) noexcept {
    write_length_header(count, tag::fixarray, 16, 0, tag::array16, tag::array32);
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_map_header(std::uint32_t count) noexcept {
    write_length_header(count, tag::fixmap, 16, 0, tag::map16, tag::map32);
  }

 private:
  // Returns where `n` bytes may be written, or nullptr when they do not fit (checked only). The
  // unchecked writer keeps one pointer (no base + offset per store) and its result is never null.
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE std::uint8_t* reserve(std::size_t n) noexcept {
    if constexpr (Checked) {
      const bool fits = size_ <= capacity_ && n <= capacity_ - size_;
      std::uint8_t* p = fits ? out_ + size_ : nullptr;
      size_ += n;
      return p;
    } else {
      std::uint8_t* p = cur_;
      cur_ += n;
      if (p == nullptr) __builtin_unreachable();  // out is a buffer of max_encoded_size bytes
      return p;
    }
  }

  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_body(const void* data, std::uint32_t length) noexcept {
    if (std::uint8_t* p = reserve(length)) copy_bytes(p, data, length);
  }

  // fix_limit == 0: no fix form; tag8 == 0: no 8-bit length form (array, map).
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void write_length_header(std::uint32_t n, std::uint8_t fix_tag,
                                                  std::uint32_t fix_limit, std::uint8_t tag8,
                                                  std::uint8_t tag16, std::uint8_t tag32) noexcept {
    if (n < fix_limit) {
      if (std::uint8_t* p = reserve(1)) p[0] = static_cast<std::uint8_t>(fix_tag | n);
    } else if (tag8 != 0 && n < 256) {
      if (std::uint8_t* p = reserve(2)) {
        p[0] = tag8;
        p[1] = static_cast<std::uint8_t>(n);
      }
    } else if (n < 65536) {
      if (std::uint8_t* p = reserve(3)) {
        p[0] = tag16;
        store_be16(p + 1, static_cast<std::uint16_t>(n));
      }
    } else if (std::uint8_t* p = reserve(5)) {
      p[0] = tag32;
      store_be32(p + 1, n);
    }
  }

  std::uint8_t* out_;
  std::uint8_t* cur_;  // unchecked writers: where the next byte goes
  std::size_t capacity_;
  std::size_t size_ = 0;  // checked writers: bytes written or needed
};

}  // namespace ringkernel::detail
