// Copyright RingKernel authors.
// Messages whose bytes are anything at all (raw messages written by device code or copied in from
// memory): every field takes every bit pattern, bools and enums on bool included. The encoder must
// still write valid MessagePack that decodes back to a message encoding to the same bytes, equal to
// msgpack::pack's, through the unchecked and the checked writer alike.
#include <gtest/gtest.h>
#include <msgpack.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>

#include "codec_test_support.h"
#include "msgpack_c_stream.h"
#include "ringkernel/msgpack_interop.h"

namespace codec_test {
namespace {

using ringkernel::codec_status;

template <class T>
void encode_random_bytes(int rounds) {
  std::mt19937 rng(99);
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE(round);
    auto m = std::make_unique<T>();
    auto* raw = reinterpret_cast<unsigned char*>(m.get());
    for (std::size_t k = 0; k < sizeof(T); ++k) raw[k] = static_cast<unsigned char>(rng());

    const bytes wire = encode_to_vector(*m);
    ASSERT_FALSE(wire.empty());
    msgpack_c_stream stream;
    ASSERT_EQ(ringkernel::msgpack::pack(stream.pk(), *m), 0);
    ASSERT_EQ(hex(stream.data()), hex(wire));
    bytes exact(wire.size());  // below max_encoded_size<T> for most values: the checked writer
    ASSERT_EQ(ringkernel::encode(*m, exact.data(), exact.size()).status, codec_status::ok);
    ASSERT_EQ(hex(exact), hex(wire));

    auto back = std::make_unique<T>();
    const ringkernel::codec_result d = ringkernel::decode(wire.data(), wire.size(), *back);
    ASSERT_EQ(d.status, codec_status::ok) << "at " << d.size << " of " << hex(wire);
    ASSERT_EQ(d.size, wire.size());
    ASSERT_EQ(hex(encode_to_vector(*back)), hex(wire));
  }
}

TEST(RawBytes, AnyBitPatternEncodesToWhatDecodesBack) {
  encode_random_bytes<Scalars>(3000);  // bool, char, every int width, floats, enums, std::byte
  encode_random_bytes<ScalarsMap>(3000);
  encode_random_bytes<Arrays>(3000);  // bool[3], str, bin, nested messages
  encode_random_bytes<ArraysMap>(3000);
  encode_random_bytes<Outer>(3000);
  encode_random_bytes<Telemetry64>(3000);
  encode_random_bytes<Order128>(3000);
  encode_random_bytes<Wide>(300);
}

}  // namespace
}  // namespace codec_test
