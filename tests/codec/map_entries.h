// Copyright RingKernel authors.
// Test helper: the entries of an encoded map message, each its key and value as the encoder wrote
// them, cut out with msgpack-c's parser, to put together maps with their keys in other orders.
#pragma once

#include <gtest/gtest.h>
#include <msgpack.h>

#include <cstddef>
#include <vector>

#include "codec_test_support.h"
#include "ringkernel/message.h"

namespace codec_test {

/// The field_count entries of `wire`, a map message with a fixmap or map 16 header.
template <class M>
std::vector<bytes> map_entries(const bytes& wire) {
  const std::size_t field_count = ringkernel::message_traits<M>::field_count;
  std::vector<bytes> entries;
  if (wire.empty()) {
    ADD_FAILURE() << "no bytes";
    return entries;
  }
  std::size_t pos = (wire[0] & 0xf0u) == 0x80u ? 1 : 3;  // fixmap, else map 16 (two length bytes)
  msgpack_zone zone;
  msgpack_zone_init(&zone, 4096);
  for (std::size_t i = 0; i < field_count; ++i) {
    const std::size_t start = pos;
    for (int part = 0; part < 2; ++part) {  // the key, then the value
      msgpack_object object;
      const msgpack_unpack_return rc =
          msgpack_unpack(reinterpret_cast<const char*>(wire.data()), wire.size(), &pos, &zone, &object);
      EXPECT_TRUE(rc == MSGPACK_UNPACK_SUCCESS || rc == MSGPACK_UNPACK_EXTRA_BYTES) << "entry " << i;
    }
    entries.emplace_back(wire.begin() + static_cast<std::ptrdiff_t>(start), wire.begin() + static_cast<std::ptrdiff_t>(pos));
  }
  msgpack_zone_destroy(&zone);
  EXPECT_EQ(pos, wire.size());
  return entries;
}

}  // namespace codec_test
