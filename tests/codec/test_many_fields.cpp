// Copyright RingKernel authors.
// Messages with more fields than the codec handles in one host function (messages/many_fields.h;
// chunks: ringkernel/detail/field_chunks.h), and the widest one that stays in one function: the
// same checks as for the other test messages (random messages against msgpack-c, decoding against
// the reference decoder), and what crosses a chunk boundary: the offset of a failing value in any
// chunk, map keys found in any chunk and order, the checked writer's running size at every capacity.
#include <gtest/gtest.h>
#include <msgpack.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "codec_test_support.h"
#include "many_fields.rk.h"
#include "map_entries.h"
#include "python_fixture_check.h"
#include "python_many_fields_fixtures.h"
#include "random_message_checks.h"
#include "reference/agreement.h"
#include "reference/encoding_variants.h"
#include "ringkernel/detail/field_chunks.h"

namespace codec_test {
namespace {

using codec_variants::operator+;
using codec_variants::operator+=;
using ringkernel::codec_status;

static_assert(ringkernel::message_traits<ManyFields>::field_count == 35);
static_assert(ringkernel::message_traits<ManyFieldsMap>::field_count == 35);
static_assert(ringkernel::message_traits<Fields32Map>::field_count == 32);
static_assert(ringkernel::detail::field_chunk_size == 16, "the messages put their field kinds around 16 and 32");
static_assert(ringkernel::detail::max_unchunked_fields == 32, "Fields32Map is the widest unchunked message");
static_assert(ringkernel::detail::split_into_chunks<ManyFields> && ringkernel::detail::split_into_chunks<ManyFieldsMap>);
static_assert(!ringkernel::detail::split_into_chunks<Fields32Map>);
static_assert(ringkernel::message_traits<Fields64Map>::field_count == 64);
static_assert(ringkernel::message_traits<Fields70Map>::field_count == 70);

template <class T>
class ManyFieldsTest : public ::testing::Test {};
using ManyFieldTypes = ::testing::Types<ManyFields, ManyFieldsMap, ManyHolder, Fields32Map, Fields64Map, Fields70Map>;
TYPED_TEST_SUITE(ManyFieldsTest, ManyFieldTypes);

TYPED_TEST(ManyFieldsTest, RandomMessagesEncodeLikeMsgpackCAndDecodeBitForBit) {
  random_checks::check_random_messages<TypeParam>();
}

/// Every capacity short of the encoding: buffer_too_small with the size the encoding needs (the
/// checked writer's count runs on through every chunk), nothing written past the capacity, and
/// what is written before it is the encoding's own bytes at their own places.
TYPED_TEST(ManyFieldsTest, EncodeRefusesEveryShortBufferWithTheSizeNeeded) {
  random_filler random(random_test_seed());
  auto m = std::make_unique<TypeParam>();
  random.fill(*m);
  const bytes wire = encode_to_vector(*m);
  ASSERT_FALSE(wire.empty());
  constexpr std::uint8_t guard = 0xa5;
  for (std::size_t capacity = 0; capacity < wire.size(); ++capacity) {
    bytes out(wire.size() + 8, guard);
    const ringkernel::codec_result r = ringkernel::encode(*m, out.data(), capacity);
    ASSERT_EQ(r.status, codec_status::buffer_too_small) << "capacity " << capacity;
    ASSERT_EQ(r.size, wire.size()) << "capacity " << capacity;
    ASSERT_TRUE(std::all_of(out.begin() + static_cast<std::ptrdiff_t>(capacity), out.end(),
                            [](std::uint8_t b) { return b == guard; }))
        << "written past capacity " << capacity;
    for (std::size_t i = 0; i < capacity; ++i) {  // values that fit may be written: at their own places
      ASSERT_TRUE(out[i] == guard || out[i] == wire[i]) << "capacity " << capacity << ", byte " << i;
    }
  }
}

/// Bytes from Python's msgpack (python_fixtures.py, set many_fields): float32 for double fields,
/// nested chunked messages, a map in reverse key order with an unknown key, the 32-field map.
#define CODEC_TEST_PYTHON_CASE(name, type) CODEC_TEST_PYTHON_FIXTURE_TEST(ManyFieldsPythonMsgpack, name, type)
CODEC_TEST_PYTHON_MANY_FIELDS_CASES(CODEC_TEST_PYTHON_CASE)
#undef CODEC_TEST_PYTHON_CASE

TEST(ManyFieldsDecodeMatchesReference, Array) { agreement::expect_agreement<ManyFields>(300, 300); }
TEST(ManyFieldsDecodeMatchesReference, Map) { agreement::expect_agreement<ManyFieldsMap>(300, 300); }
TEST(ManyFieldsDecodeMatchesReference, Nested) { agreement::expect_agreement<ManyHolder>(300, 300); }
TEST(ManyFieldsDecodeMatchesReference, Unchunked32) { agreement::expect_agreement<Fields32Map>(300, 300); }
TEST(ManyFieldsDecodeMatchesReference, Map70) { agreement::expect_agreement<Fields70Map>(300, 300); }

/// Fields on both sides of each chunk boundary (15 | 16, 31 | 32) and the last one.
constexpr std::size_t boundary_fields[] = {0, 15, 16, 31, 32, 34};

/// A nil in place of field `bad`'s value: type_mismatch at that value's offset, the target untouched.
template <class M>
void expect_nil_rejected_at_its_offset(std::size_t bad) {
  const std::vector<codec_variants::field_encodings> fields = codec_variants::fields_of<M>();
  const bool map = ringkernel::message_traits<M>::format == ringkernel::wire_format::map;
  bytes wire = map ? codec_variants::map_header(fields.size()) : codec_variants::array_header(fields.size());
  std::size_t offset = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (map) wire += codec_variants::str(fields[i].name);
    if (i == bad) offset = wire.size();
    wire += i == bad ? bytes{0xc0} : fields[i].plain;
  }
  auto target = std::make_unique<M>();
  std::memset(static_cast<void*>(target.get()), 0x5a, sizeof(M));
  const auto before = std::make_unique<M>(*target);
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), *target);
  EXPECT_EQ(r.status, codec_status::type_mismatch) << "field " << bad << " (" << fields[bad].name << ")";
  EXPECT_EQ(r.size, offset) << "field " << bad << " (" << fields[bad].name << ")";
  EXPECT_EQ(std::memcmp(target.get(), before.get(), sizeof(M)), 0) << "written on failure, field " << bad;
}

TEST(ManyFieldsErrors, AFailingValueInAnyChunkIsReportedAtItsOffset) {
  for (std::size_t bad : boundary_fields) {
    expect_nil_rejected_at_its_offset<ManyFields>(bad);
    expect_nil_rejected_at_its_offset<ManyFieldsMap>(bad);
  }
}

/// Map keys in an order that makes every lookup leave the chunk where declaration order would put
/// it (the fields of chunk 2 first, then of chunk 1, then of chunk 0, each run reversed): the same
/// message as in declaration order.
TEST(ManyFieldsMapKeys, AnyOrderDecodesTheSameMessage) {
  random_filler random(random_test_seed() ^ 0x6d61);
  auto m = std::make_unique<ManyFieldsMap>();
  random.fill(*m);
  const bytes in_order = encode_to_vector(*m);
  ASSERT_FALSE(in_order.empty());
  const std::size_t field_count = ringkernel::message_traits<ManyFieldsMap>::field_count;
  const std::vector<bytes> entries = map_entries<ManyFieldsMap>(in_order);
  ASSERT_EQ(entries.size(), field_count);
  bytes shuffled = codec_variants::map_header(field_count);
  for (std::size_t chunk = 3; chunk-- > 0;) {
    const std::size_t first = chunk * 16;
    const std::size_t last = std::min(first + 16, field_count);
    for (std::size_t i = last; i-- > first;) shuffled += entries[i];
  }
  ASSERT_EQ(shuffled.size(), in_order.size());
  auto back = std::make_unique<ManyFieldsMap>();
  const ringkernel::codec_result r = ringkernel::decode(shuffled.data(), shuffled.size(), *back);
  ASSERT_EQ(r.status, codec_status::ok) << hex(shuffled);
  EXPECT_EQ(r.size, shuffled.size());
  EXPECT_TRUE(values_equal(*m, *back));
}

/// A map message put together from `entries` (each a key and its value), in their order.
bytes map_of(const std::vector<bytes>& entries) {
  bytes wire = codec_variants::map_header(entries.size());
  for (const bytes& entry : entries) wire += entry;
  return wire;
}

/// Decodes `wire` into a target of known bytes: the status, and on failure the offset 0 (the map
/// header) and the target untouched; on success the message `expected`.
template <class M>
void expect_decode(const bytes& wire, codec_status expected_status, const M& expected, const std::string& what) {
  auto target = std::make_unique<M>();
  std::memset(static_cast<void*>(target.get()), 0x5a, sizeof(M));
  const auto before = std::make_unique<M>(*target);
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), *target);
  EXPECT_EQ(r.status, expected_status) << what;
  if (expected_status == codec_status::ok) {
    EXPECT_EQ(r.size, wire.size()) << what;
    EXPECT_TRUE(values_equal(expected, *target)) << what;
  } else {
    EXPECT_EQ(r.size, 0u) << what << ": the error is at the map header";
    EXPECT_EQ(std::memcmp(target.get(), before.get(), sizeof(M)), 0) << what << ": written on failure";
  }
}

/// Maps of 64 fields and more: the decoder's set of fields seen so far takes a second 64-bit word
/// past field 63 (ringkernel/detail/map_message_decoder.h, field_set). Keys in order (the in-order
/// path marks the first fields seen at once), reversed (one by one), with an unknown key, and
/// without field k (missing_field), k on both sides of the word boundary: left out (one entry
/// fewer), or replaced by an unknown key (the in-order path stops at k).
template <class M>
void expect_wide_map_fields_tracked(std::initializer_list<std::size_t> missing) {
  constexpr std::size_t n = ringkernel::message_traits<M>::field_count;
  random_filler random(random_test_seed() ^ n);
  auto m = std::make_unique<M>();
  random.fill(*m);
  const bytes in_order = encode_to_vector(*m);
  const std::vector<bytes> entries = map_entries<M>(in_order);
  ASSERT_EQ(entries.size(), n);
  ASSERT_EQ(map_of(entries), in_order);
  expect_decode(in_order, codec_status::ok, *m, "keys in order");
  expect_decode(map_of({entries.rbegin(), entries.rend()}), codec_status::ok, *m, "keys reversed");
  const bytes unknown = codec_variants::str("zz") + bytes{0x07};
  auto with_unknown = entries;
  with_unknown.push_back(unknown);
  expect_decode(map_of(with_unknown), codec_status::ok, *m, "an unknown key last");
  with_unknown.insert(with_unknown.begin() + 64, unknown);
  expect_decode(map_of(with_unknown), codec_status::ok, *m, "unknown keys at 64 and last");
  for (const std::size_t k : missing) {
    auto fewer = entries;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(k));
    expect_decode(map_of(fewer), codec_status::missing_field, *m, "field " + std::to_string(k) + " left out");
    std::reverse(fewer.begin(), fewer.end());
    expect_decode(map_of(fewer), codec_status::missing_field, *m, "field " + std::to_string(k) + " left out, reversed");
    auto replaced = entries;
    replaced[k] = unknown;
    expect_decode(map_of(replaced), codec_status::missing_field, *m, "field " + std::to_string(k) + " replaced");
  }
}

TEST(ManyFieldsMapKeys, SixtyFourFieldsFillOneWordOfTheFieldSet) {
  expect_wide_map_fields_tracked<Fields64Map>({0, 1, 62, 63});
}

TEST(ManyFieldsMapKeys, SeventyFieldsTakeASecondWordOfTheFieldSet) {
  expect_wide_map_fields_tracked<Fields70Map>({0, 62, 63, 64, 65, 69});
}

}  // namespace
}  // namespace codec_test
