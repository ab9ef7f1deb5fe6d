// Copyright RingKernel authors.
// Test-only generator of structured encodings of a message type, valid and invalid: every integer
// field in every form that holds each boundary value (and the values just outside the type),
// floats from float 32 / float 64 / ints around the exactness and range limits, strings and bins
// of lengths around N in every str / bin form, arrays with wrong lengths and header forms, map
// messages with reordered, unknown, duplicate, missing and non-str keys, array messages with
// missing and extra elements (extras nested up to and beyond max_decode_depth). One value is varied
// at a time; everything else is a plain valid encoding. test_differential.cpp decodes each with
// ringkernel::decode and the reference decoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/wire_forms.h"
#include "ringkernel/codec.h"

namespace codec_variants {

using list = std::vector<bytes>;

inline void append(list& to, const list& from) { to.insert(to.end(), from.begin(), from.end()); }

/// Integer values at the edges of every int form and C++ type, with +-1.
inline list integer_variants() {
  list out;
  const std::uint64_t positives[] = {0, 1, 31, 32, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
                                     0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 0x7fffffffffffffff,
                                     0x8000000000000000, 0xfffffffffffffffe, 0xffffffffffffffff};
  const std::int64_t negatives[] = {-1, -32, -33, -127, -128, -129, -32767, -32768, -32769, -2147483647LL,
                                    -2147483648LL, -2147483649LL, std::numeric_limits<std::int64_t>::min() + 1,
                                    std::numeric_limits<std::int64_t>::min()};
  for (std::uint64_t v : positives) append(out, uint_forms(v));
  for (std::int64_t v : negatives) append(out, int_forms(v));
  append(out, values_of_every_type());
  return out;
}

/// Ints around 2^24 / 2^53 (exact or not in float / double), float 32 and float 64 specials.
inline list floating_point_variants() {
  list out;
  const std::uint64_t f32[] = {0x00000000, 0x80000000, 0x3f800000, 0x7f7fffff, 0xff7fffff, 0x00000001,
                               0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345, 0x7fffffff};
  const std::uint64_t f64[] = {
      0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0x3fb999999999999a,  // 0, -0, 1, 0.1
      0x47efffffe0000000, 0xc7efffffe0000000,  // +-FLT_MAX
      0x47efffffe0000001, 0x47efffffefffffff,  // just above FLT_MAX: still rounds to FLT_MAX
      0x47effffff0000000, 0xc7effffff0000000,  // FLT_MAX + half an ulp: rounds to infinity
      0x48078287f49fd28d, 0xc8078287f49fd28d,  // +-1e39
      0x7fefffffffffffff, 0x0000000000000001, 0x3690000000000000,  // DBL_MAX, denormal, 2^-150
      0x36a0000000000001, 0x7ff0000000000000, 0xfff0000000000000,  // just above 2^-150, +-inf
      0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000123, 0x7ff80000e0000000};  // NaNs
  for (std::uint64_t bits : f32) out.push_back(float32(static_cast<std::uint32_t>(bits)));
  for (std::uint64_t bits : f64) out.push_back(float64(bits));
  const std::uint64_t positives[] = {0, 1, 16777215, 16777216, 16777217, 16777218, 50331648, 0x1000000000000000,
                                     9007199254740991, 9007199254740992, 9007199254740993, 0x8000000000000000,
                                     0xffffffffffffffff, 0xffffff0000000000, 0xffffff8000000000};
  const std::int64_t negatives[] = {-1, -16777216, -16777217, -9007199254740992, -9007199254740993,
                                    std::numeric_limits<std::int64_t>::min(), -0x7fffff8000000000};
  for (std::uint64_t v : positives) append(out, uint_forms(v));
  for (std::int64_t v : negatives) append(out, int_forms(v));
  append(out, values_of_every_type());
  return out;
}

/// char[N]: lengths around N in every str form, NULs, bytes >= 0x80, and other types.
inline list string_variants(std::size_t n) {
  list out;
  const std::size_t lengths[] = {0, 1, n - 1, n, n + 1, 31, 32, 255, 256};
  for (std::size_t len : lengths) {
    if (len > n + 1) continue;
    append(out, str_forms(std::string(len, 'a')));
  }
  append(out, str_forms(std::string(1, '\0')));
  append(out, str_forms(std::string(n, 'b').replace(n / 2, 1, 1, '\0')));
  append(out, str_forms(std::string(n + 1, 'c').replace(n / 2, 1, 1, '\0')));  // too long and a NUL
  if (n > 1) append(out, str_forms(std::string(n - 1, 'd') + '\0'));
  append(out, str_forms(std::string(n, '\xff')));
  append(out, bin_forms(std::string(n, 'e')));
  append(out, values_of_every_type());
  return out;
}

/// uint8_t[N] / std::byte[N]: bin lengths around N in every bin form, and other types.
inline list bin_variants(std::size_t n) {
  list out;
  const std::size_t lengths[] = {0, n - 1, n, n + 1};
  for (std::size_t len : lengths) append(out, bin_forms(std::string(len, '\x81')));
  append(out, str_forms(std::string(n, 'f')));
  bytes ints = array_header(n);
  ints.insert(ints.end(), n, 0x01);
  out.push_back(ints);
  append(out, values_of_every_type());
  return out;
}

template <class F>
bytes plain();
template <class F>
list variants();
template <class M>
list message_variants();

/// A valid value of every type: true, 1, 1.0, "x", N bytes, arrays and messages of those.
template <class F>
bytes plain() {
  if constexpr (std::is_array_v<F>) {
    using E = std::remove_extent_t<F>;
    constexpr std::size_t n = std::extent_v<F>;
    if constexpr (std::is_same_v<E, char>) return str("x");
    else if constexpr (std::is_same_v<E, unsigned char> || std::is_same_v<E, std::byte>)
      return bin_forms(std::string(n, '\x07')).front();
    else {
      bytes out = array_header(n);
      const bytes element = plain<E>();
      for (std::size_t i = 0; i < n; ++i) out += element;
      return out;
    }
  } else if constexpr (ringkernel::is_message_v<F>) {
    using traits = ringkernel::message_traits<F>;
    const bool map = traits::format == ringkernel::wire_format::map;
    bytes out = map ? map_header(traits::field_count) : array_header(traits::field_count);
    F sample{};
    traits::visit_fields(sample, [&](auto field, auto& member) {
      if (map) out += str(traits::field(decltype(field)::value).name);
      out += plain<std::remove_reference_t<decltype(member)>>();
    });
    return out;
  } else if constexpr (std::is_same_v<F, bool>) {
    return {0xc3};
  } else if constexpr (std::is_same_v<F, float>) {
    return float32(0x3f800000);
  } else if constexpr (std::is_same_v<F, double>) {
    return float64(0x3ff0000000000000);
  } else {
    return {0x01};
  }
}

/// Encodings of one value of type F, valid and invalid.
template <class F>
list variants() {
  if constexpr (std::is_array_v<F>) {
    using E = std::remove_extent_t<F>;
    constexpr std::size_t n = std::extent_v<F>;
    if constexpr (std::is_same_v<E, char>) return string_variants(n);
    else if constexpr (std::is_same_v<E, unsigned char> || std::is_same_v<E, std::byte>) return bin_variants(n);
    else {
      list out;
      const bytes element = plain<E>();
      for (std::size_t count : {n - 1, n, n + 1}) {
        for (const bytes& header : container_headers(count, false)) {
          bytes a = header;
          for (std::size_t i = 0; i < count; ++i) a += element;
          out.push_back(a);
        }
      }
      bytes rest;  // elements 1..n-1, after a varied first element
      for (std::size_t i = 1; i < n; ++i) rest += element;
      for (const bytes& first : variants<E>()) out.push_back(array_header(n) + first + rest);
      out.push_back(array_header(n + 1) + bytes{0xc0} + rest + element);  // two errors: the count wins
      append(out, values_of_every_type());
      return out;
    }
  } else if constexpr (ringkernel::is_message_v<F>) {
    return message_variants<F>();
  } else if constexpr (std::is_same_v<F, bool>) {
    list out = {{0xc2}, {0xc3}};
    append(out, values_of_every_type());
    return out;
  } else if constexpr (std::is_floating_point_v<F>) {
    return floating_point_variants();
  } else {
    return integer_variants();
  }
}

/// Per field: its plain encoding, its variants, its key (map messages).
struct field_encodings {
  std::string name;
  bytes plain;
  list variants;
};

template <class M>
std::vector<field_encodings> fields_of() {
  using traits = ringkernel::message_traits<M>;
  std::vector<field_encodings> out;
  M sample{};
  traits::visit_fields(sample, [&](auto field, auto& member) {
    using F = std::remove_reference_t<decltype(member)>;
    out.push_back({traits::field(decltype(field)::value).name, plain<F>(), variants<F>()});
  });
  return out;
}

/// Array message: header forms, one field varied at a time, too few elements, extras of every
/// type and nesting depth.
template <class M>
list array_message_variants(const std::vector<field_encodings>& fields) {
  const std::size_t n = fields.size();
  list out;
  for (std::size_t varied = 0; varied < n; ++varied) {
    for (const bytes& v : fields[varied].variants) {
      bytes m = array_header(n);
      for (std::size_t i = 0; i < n; ++i) m += (i == varied ? v : fields[i].plain);
      out.push_back(m);
    }
  }
  bytes body;
  for (const field_encodings& f : fields) body += f.plain;
  for (const bytes& header : container_headers(n, false)) out.push_back(header + body);
  bytes short_body;
  for (std::size_t i = 0; i + 1 < n; ++i) short_body += fields[i].plain;
  out.push_back(array_header(n - 1) + short_body);
  if (n > 1) {  // too few elements and a nil field: the count wins
    out.push_back(array_header(n - 1) + bytes{0xc0} + bytes(short_body.begin() + fields[0].plain.size(), short_body.end()));
  }
  list extras = values_of_every_type();
  constexpr std::size_t max_depth = ringkernel::max_decode_depth;
  for (std::size_t levels : {std::size_t{1}, max_depth - 2, max_depth - 1, max_depth}) {
    extras.push_back(nested_arrays(levels));
  }
  for (const bytes& extra : extras) {
    out.push_back(array_header(n + 1) + body + extra);
    out.push_back(array_header(n + 2) + body + extra + bytes{0x00});
  }
  out.push_back(map_header(0));
  return out;
}

/// Map message: reordered, unknown, duplicate, missing and non-str keys, keys in every str form,
/// one field varied at a time.
template <class M>
list map_message_variants(const std::vector<field_encodings>& fields) {
  const std::size_t n = fields.size();
  list out;
  // Each field's key and entry (key and plain value), encoded once: the loops below concatenate
  // them O(fields^2) times.
  std::vector<bytes> keys, entry_bytes;
  for (const field_encodings& f : fields) {
    keys.push_back(str(f.name));
    entry_bytes.push_back(keys.back() + f.plain);
  }
  auto entry = [&](std::size_t i) -> const bytes& { return entry_bytes[i]; };
  auto entries = [&](std::size_t from, std::size_t to) {  // fields [from, to) in order
    bytes run;
    for (std::size_t j = from; j < to; ++j) run += entry(j);
    return run;
  };
  for (std::size_t varied = 0; varied < n; ++varied) {
    for (const bytes& v : fields[varied].variants) {
      bytes m = map_header(n);
      for (std::size_t i = 0; i < n; ++i) {
        m += keys[i];
        m += i == varied ? v : fields[i].plain;
      }
      out.push_back(m);
    }
  }
  bytes body, reversed;
  for (std::size_t i = 0; i < n; ++i) {
    body += entry(i);
    reversed = entry(i) + reversed;
  }
  for (const bytes& header : container_headers(n, true)) {
    out.push_back(header + body);
    out.push_back(header + reversed);
  }
  for (std::size_t i = 0; i < n; ++i) {
    bytes without;  // field i missing
    for (std::size_t j = 0; j < n; ++j) {
      if (j != i) without += entry(j);
    }
    out.push_back(map_header(n - 1) + without);
    if (n > 1) {  // field i missing and a nil value for another: the value wins
      const std::size_t other = i == 0 ? 1 : 0;
      bytes bad;
      for (std::size_t j = 0; j < n; ++j) {
        if (j != i) bad += j == other ? keys[j] + bytes{0xc0} : entry(j);
      }
      out.push_back(map_header(n - 1) + bad);
    }
    out.push_back(map_header(n) + without + str(fields[i].name + '\0') + fields[i].plain);
    out.push_back(map_header(n) + without + str(fields[i].name.substr(1)) + fields[i].plain);
    out.push_back(map_header(n + 1) + body + entry(i));                          // duplicate
    out.push_back(map_header(n + 1) + entry(i) + body);                          // duplicate, first
    for (const bytes& key : str_forms(fields[i].name)) out.push_back(map_header(n) + without + key + fields[i].plain);
    out.push_back(map_header(n) + without + bin_forms(fields[i].name).front() + fields[i].plain);
    out.push_back(map_header(n) + without + bytes{0x07} + fields[i].plain);      // int key
    // The order broken at field i, the fields before it in order (the decoder's in-order path stops
    // at i and leaves the rest to the lookup): i and i + 1 swapped, an unknown key before i, i's key
    // in each str form or with a byte more or less in place, i repeated right after itself.
    const bytes before = entries(0, i), keyed = entry(i), after = entries(i + 1, n);
    if (i + 1 < n) out.push_back(map_header(n) + before + entry(i + 1) + keyed + entries(i + 2, n));
    out.push_back(map_header(n + 1) + before + str("zz_new") + bytes{0x01} + keyed + after);
    for (const bytes& key : str_forms(fields[i].name)) out.push_back(map_header(n) + before + key + fields[i].plain + after);
    out.push_back(map_header(n) + before + str(fields[i].name + 'x') + fields[i].plain + after);
    out.push_back(map_header(n) + before + str(fields[i].name.substr(0, fields[i].name.size() - 1)) + fields[i].plain +
                  after);
    out.push_back(map_header(n + 1) + before + keyed + keyed + after);  // duplicate, adjacent
  }
  list unknown_values = values_of_every_type();
  constexpr std::size_t max_depth = ringkernel::max_decode_depth;
  for (std::size_t levels : {max_depth - 2, max_depth - 1, max_depth}) {
    unknown_values.push_back(nested_arrays(levels));
  }
  for (const bytes& value : unknown_values) {
    const bytes unknown = str("zz_new") + value;
    out.push_back(map_header(n + 1) + unknown + body);
    out.push_back(map_header(n + 1) + body + unknown);
    out.push_back(map_header(n + 2) + unknown + body + unknown);  // the same unknown key twice
  }
  bytes as_array = array_header(n);
  for (const field_encodings& f : fields) as_array += f.plain;
  out.push_back(as_array);
  return out;
}

template <class M>
list message_variants() {
  const std::vector<field_encodings> fields = fields_of<M>();
  if constexpr (ringkernel::message_traits<M>::format == ringkernel::wire_format::map) {
    return map_message_variants<M>(fields);
  } else {
    return array_message_variants<M>(fields);
  }
}

}  // namespace codec_variants
