// Copyright RingKernel authors.
// The random-message check of the codec tests (test_random_messages.cpp, test_many_fields.cpp):
// random messages (random_messages.h) through the encoder and decoder, checked against msgpack-c.
// The bytes equal what msgpack-c's packer writes for the same values, msgpack-c's unpacker reads
// them as exactly one object and writes that object back byte for byte, the decoder returns every
// value bit for bit, and a buffer one byte short or an input cut anywhere fails with the right
// status without writing past the buffer or into the target. The seed is printed with every
// failure; RINGKERNEL_TEST_SEED picks another.
#pragma once

#include <gtest/gtest.h>
#include <msgpack.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "codec_test_support.h"
#include "msgpack_c_stream.h"
#include "random_messages.h"
#include "ringkernel/msgpack_interop.h"

namespace codec_test::random_checks {

using ringkernel::codec_status;

template <class T>
bytes pack_with_msgpack_c(const T& m) {
  msgpack_c_stream stream;
  EXPECT_EQ(ringkernel::msgpack::pack(stream.pk(), m), 0);
  return stream.data();
}

/// msgpack-c's unpacker must read `wire` as one complete object and pack it back identically
/// (`exact`), or, where the message holds a float32 signalling NaN, at least as long (msgpack-c's
/// object keeps a float32 as a double, and the conversions make the NaN quiet).
inline void expect_msgpack_c_reads_back(const bytes& wire, bool exact) {
  msgpack_zone zone;
  msgpack_zone_init(&zone, 4096);
  msgpack_object object;
  std::size_t offset = 0;
  EXPECT_EQ(msgpack_unpack(reinterpret_cast<const char*>(wire.data()), wire.size(), &offset, &zone, &object),
            MSGPACK_UNPACK_SUCCESS);
  EXPECT_EQ(offset, wire.size());
  msgpack_c_stream again;
  EXPECT_EQ(msgpack_pack_object(again.pk(), object), 0);
  if (exact) {
    EXPECT_EQ(hex(again.data()), hex(wire));
  } else {
    EXPECT_EQ(again.data().size(), wire.size());
  }
  msgpack_zone_destroy(&zone);
}

/// Encoding into a buffer one byte short is buffer_too_small and writes nothing past the buffer.
template <class T>
void expect_short_buffer_refused(const T& m, std::size_t size) {
  constexpr std::uint8_t guard = 0xa5;
  bytes out(size + 16, guard);
  EXPECT_EQ(ringkernel::encode(m, out.data(), size - 1).status, codec_status::buffer_too_small);
  EXPECT_TRUE(std::all_of(out.begin() + static_cast<std::ptrdiff_t>(size - 1), out.end(),
                          [](std::uint8_t b) { return b == guard; }));
  const ringkernel::codec_result exact = ringkernel::encode(m, out.data(), size);
  EXPECT_EQ(exact.status, codec_status::ok);
  EXPECT_EQ(exact.size, size);
}

/// Every strict prefix of `wire` is truncated_input and leaves the target as it was.
template <class T>
void expect_every_prefix_truncated(const bytes& wire) {
  auto before = std::make_unique<T>();
  std::memset(static_cast<void*>(before.get()), 0x5a, sizeof(T));
  auto target = std::make_unique<T>();
  for (std::size_t cut = 0; cut < wire.size(); ++cut) {
    std::memcpy(static_cast<void*>(target.get()), before.get(), sizeof(T));
    EXPECT_EQ(ringkernel::decode(wire.data(), cut, *target).status, codec_status::truncated_input) << "cut at " << cut;
    EXPECT_EQ(std::memcmp(target.get(), before.get(), sizeof(T)), 0) << "written on failure, cut at " << cut;
  }
}

/// 1,000 random messages of T (100 of a type over 1,000 bytes) through every check above; stops at
/// the first message that fails.
template <class T>
void check_random_messages() {
  const std::uint64_t seed = random_test_seed() ^ ringkernel::message_traits<T>::type_id;
  SCOPED_TRACE(::testing::Message() << "seed " << seed << " (RINGKERNEL_TEST_SEED=" << random_test_seed() << ")");
  random_filler random(seed);
  const int count = sizeof(T) > 1000 ? 100 : 1000;
  constexpr int prefix_checks = 20;  // every cut is quadratic in the size: the first messages only
  auto m = std::make_unique<T>();
  auto back = std::make_unique<T>();
  for (int i = 0; i < count; ++i) {
    *m = T{};
    random.reset_counts();
    random.fill(*m);
    const bytes wire = encode_to_vector(*m);
    ASSERT_FALSE(wire.empty()) << "message " << i << ": encode failed";
    ASSERT_LE(wire.size(), ringkernel::max_encoded_size<T>);
    ASSERT_EQ(hex(wire), hex(pack_with_msgpack_c(*m))) << "message " << i;
    expect_msgpack_c_reads_back(wire, random.signalling_float_nans() == 0);

    std::memset(static_cast<void*>(back.get()), 0x5a, sizeof(T));
    const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), *back);
    ASSERT_EQ(r.status, codec_status::ok) << "message " << i << ": " << hex(wire);
    ASSERT_EQ(r.size, wire.size());
    ASSERT_TRUE(values_equal(*m, *back)) << "message " << i << ": " << hex(wire);

    expect_short_buffer_refused(*m, wire.size());
    if (i < prefix_checks) expect_every_prefix_truncated<T>(wire);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace codec_test::random_checks
