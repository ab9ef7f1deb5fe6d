// Copyright RingKernel authors.
// Test-only canonical-form check for the fuzz targets (codec and envelope): the encoder must write
// every integer and every str/bin/array/map length in the smallest form msgpack-c writes
// (docs/wire-format.md §4). Re-encoding a decoded message and decoding it again does not show this
// (any consistent form is a fixed point), and msgpack-c's own unpack + pack cannot be compared byte
// for byte (it turns a float 32 signalling NaN into a quiet one), so the bytes are walked here.
// Which float form a value takes is not checked: the field's type decides it, and decoding again
// compares the values bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz_support {

/// True when `data` is exactly one complete MessagePack value whose integers and lengths all take
/// the smallest form; false for anything else (another form, ext, 0xc1, cut or trailing bytes).
inline bool in_smallest_forms(const std::uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  std::uint64_t pending = 1;  // values still to read: containers add their elements
  const auto big_endian = [&](std::size_t bytes) {
    std::uint64_t v = 0;
    for (std::size_t k = 1; k <= bytes; ++k) v = v << 8 | data[i + k];
    return v;
  };
  while (pending > 0) {
    if (i >= size) return false;
    --pending;
    const std::uint8_t t = data[i];
    std::size_t extra = 0;  // bytes after the tag: the number or length field
    std::uint64_t payload = 0;  // bytes after that: str or bin contents
    bool smallest = true;
    if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
      // fixints, nil, false, true: one byte
    } else if ((t & 0xe0) == 0xa0) {
      payload = t & 0x1fu;
    } else if ((t & 0xf0) == 0x90) {
      pending += t & 0x0fu;
    } else if ((t & 0xf0) == 0x80) {
      pending += 2u * (t & 0x0fu);
    } else {
      static constexpr std::size_t widths[] = {1, 2, 4, 8};
      if (t == 0xca || t == 0xcb) {
        extra = t == 0xca ? 4 : 8;
      } else if (t >= 0xcc && t <= 0xd3) {  // uint 8..64, int 8..64
        extra = widths[(t - 0xcc) % 4];
      } else if (t >= 0xd9 && t <= 0xdb) {  // str 8..32
        extra = widths[t - 0xd9];
      } else if (t >= 0xc4 && t <= 0xc6) {  // bin 8..32
        extra = widths[t - 0xc4];
      } else if (t >= 0xdc && t <= 0xdf) {  // array 16/32, map 16/32
        extra = widths[1 + (t - 0xdc) % 2];
      } else {
        return false;  // ext, fixext or 0xc1: never written
      }
      if (size - i - 1 < extra) return false;
      const std::uint64_t v = big_endian(extra);
      const int shift = static_cast<int>(64 - 8 * extra);
      const std::int64_t s = static_cast<std::int64_t>(v << shift) >> shift;  // v as a signed number
      const auto below = [&](std::int64_t limit) { return s < limit; };
      switch (t) {
        case 0xcc: smallest = v > 0x7f; break;
        case 0xcd: smallest = v > 0xff; break;
        case 0xce: smallest = v > 0xffff; break;
        case 0xcf: smallest = v > 0xffffffffu; break;
        case 0xd0: smallest = below(-32); break;  // non-negative values take the unsigned forms
        case 0xd1: smallest = below(-128); break;
        case 0xd2: smallest = below(-32768); break;
        case 0xd3: smallest = below(-2147483648LL); break;
        case 0xd9: smallest = v > 31; payload = v; break;
        case 0xda: smallest = v > 0xff; payload = v; break;
        case 0xdb: smallest = v > 0xffff; payload = v; break;
        case 0xc4: payload = v; break;
        case 0xc5: smallest = v > 0xff; payload = v; break;
        case 0xc6: smallest = v > 0xffff; payload = v; break;
        case 0xdc: smallest = v > 15; pending += v; break;
        case 0xdd: smallest = v > 0xffff; pending += v; break;
        case 0xde: smallest = v > 15; pending += 2 * v; break;
        case 0xdf: smallest = v > 0xffff; pending += 2 * v; break;
        default: break;  // floats
      }
    }
    if (!smallest) return false;
    if (size - i - 1 - extra < payload) return false;
    i += 1 + extra + payload;
  }
  return i == size;
}

}  // namespace fuzz_support
