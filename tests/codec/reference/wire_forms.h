// Copyright RingKernel authors.
// Test-only MessagePack writer that chooses the form: every encoding the MessagePack spec allows
// for an int, a str, a bin or a container header, not only the smallest (encoding_variants.h
// builds valid and invalid messages from them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace codec_variants {

using bytes = std::vector<std::uint8_t>;

inline bytes tagged(std::uint8_t tag, std::uint64_t value, int width) {
  bytes out{tag};
  for (int i = width - 1; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  return out;
}

inline bytes& operator+=(bytes& a, const bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline bytes operator+(bytes a, const bytes& b) { return a += b; }

/// The parts one after another.
inline bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const bytes& p : parts) out += p;
  return out;
}

/// Every form that holds `v` >= 0: fixint, uint 8…64, and int 8…64 (signed forms hold it too).
inline std::vector<bytes> uint_forms(std::uint64_t v) {
  std::vector<bytes> out;
  if (v <= 0x7f) out.push_back({static_cast<std::uint8_t>(v)});
  if (v <= 0xff) out.push_back(tagged(0xcc, v, 1));
  if (v <= 0xffff) out.push_back(tagged(0xcd, v, 2));
  if (v <= 0xffffffffu) out.push_back(tagged(0xce, v, 4));
  out.push_back(tagged(0xcf, v, 8));
  if (v <= 0x7f) out.push_back(tagged(0xd0, v, 1));
  if (v <= 0x7fff) out.push_back(tagged(0xd1, v, 2));
  if (v <= 0x7fffffff) out.push_back(tagged(0xd2, v, 4));
  if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) out.push_back(tagged(0xd3, v, 8));
  return out;
}

/// Every form that holds `v` (negative fixint, int 8…64; for v >= 0 uint_forms).
inline std::vector<bytes> int_forms(std::int64_t v) {
  if (v >= 0) return uint_forms(static_cast<std::uint64_t>(v));
  const auto bits = static_cast<std::uint64_t>(v);
  std::vector<bytes> out;
  if (v >= -32) out.push_back({static_cast<std::uint8_t>(bits)});
  if (v >= -128) out.push_back(tagged(0xd0, bits & 0xff, 1));
  if (v >= -32768) out.push_back(tagged(0xd1, bits & 0xffff, 2));
  if (v >= std::numeric_limits<std::int32_t>::min()) out.push_back(tagged(0xd2, bits & 0xffffffffu, 4));
  out.push_back(tagged(0xd3, bits, 8));
  return out;
}

inline bytes float32(std::uint32_t bits) { return tagged(0xca, bits, 4); }
inline bytes float64(std::uint64_t bits) { return tagged(0xcb, bits, 8); }

inline bytes with_payload(bytes header, const std::string& payload) {
  header.insert(header.end(), payload.begin(), payload.end());
  return header;
}

/// fixstr, str 8, str 16, str 32: those that hold `s`.
inline std::vector<bytes> str_forms(const std::string& s) {
  std::vector<bytes> out;
  const std::size_t n = s.size();
  if (n < 32) out.push_back(with_payload({static_cast<std::uint8_t>(0xa0 | n)}, s));
  if (n <= 0xff) out.push_back(with_payload(tagged(0xd9, n, 1), s));
  if (n <= 0xffff) out.push_back(with_payload(tagged(0xda, n, 2), s));
  out.push_back(with_payload(tagged(0xdb, n, 4), s));
  return out;
}

/// The smallest str form (what map keys normally use).
inline bytes str(const std::string& s) { return str_forms(s).front(); }

/// bin 8, bin 16, bin 32: those that hold `s`.
inline std::vector<bytes> bin_forms(const std::string& s) {
  std::vector<bytes> out;
  const std::size_t n = s.size();
  if (n <= 0xff) out.push_back(with_payload(tagged(0xc4, n, 1), s));
  if (n <= 0xffff) out.push_back(with_payload(tagged(0xc5, n, 2), s));
  out.push_back(with_payload(tagged(0xc6, n, 4), s));
  return out;
}

/// fixarray / array 16 / array 32 headers for `n` elements (fixmap / map 16 / map 32 with `map`).
inline std::vector<bytes> container_headers(std::size_t n, bool map) {
  std::vector<bytes> out;
  if (n < 16) out.push_back({static_cast<std::uint8_t>((map ? 0x80 : 0x90) | n)});
  if (n <= 0xffff) out.push_back(tagged(map ? 0xde : 0xdc, n, 2));
  out.push_back(tagged(map ? 0xdf : 0xdd, n, 4));
  return out;
}

inline bytes array_header(std::size_t n) { return container_headers(n, false).front(); }
inline bytes map_header(std::size_t n) { return container_headers(n, true).front(); }

/// `levels` nested arrays around a 0: 91 91 … 00.
inline bytes nested_arrays(std::size_t levels) {
  bytes out(levels, 0x91);
  out.push_back(0x00);
  return out;
}

/// Values of other types, for type mismatches and for skipped extras.
inline std::vector<bytes> values_of_every_type() {
  return {{0xc0},                          // nil
          {0xc2},                          // false
          {0x01},                          // int
          {0xff},                          // negative int
          float32(0x3f800000),             // 1.0f
          float64(0x3ff0000000000000),     // 1.0
          str("a"),                        // str
          {0xc4, 0x01, 0x00},              // bin
          {0x90},                          // empty array
          {0x80},                          // empty map
          {0x92, 0x01, 0xa1, 'x'},         // array
          {0x81, 0xa1, 'k', 0xc3},         // map
          {0xd4, 0x01, 0x02},              // fixext 1
          {0xc7, 0x02, 0x05, 0x01, 0x02}}; // ext 8
}

}  // namespace codec_variants
