// Copyright RingKernel authors.
// A map message whose keys cover what the decoder's in-order key path compares as words
// (ringkernel/detail/field_keys.h): a one-character name, names that agree in all but their last
// bytes, the longest name with a fixstr key (31 characters) and the shortest with a str 8 key (32).
#pragma once

#include <cstdint>

namespace codec_test {

struct [[ringkernel::message(format = map)]] LongKeysMap {
  std::uint8_t x;
  std::int64_t timestamp_ns;
  std::int64_t timestamp_us;
  std::uint32_t a_map_key_that_is_31_characters;
  std::uint32_t a_map_key_that_is_32_characters_;
  double xy;
  char sensor_label_a[4];
  char sensor_label_b[4];
};

}  // namespace codec_test
