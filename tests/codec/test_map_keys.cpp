// Copyright RingKernel authors.
// The map decoder's two paths (ringkernel/detail/map_message_decoder.h): keys in declaration order,
// compared as constant words with each field's encoded key (field_keys.h), and the lookup that takes
// over at the first key out of order. Both must give the same message, status and offset wherever
// the order breaks; the word compare must tell every key from any other bytes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codec_test_support.h"
#include "many_fields.rk.h"
#include "map_entries.h"
#include "map_keys.rk.h"
#include "random_message_checks.h"
#include "reference/agreement.h"
#include "reference/wire_forms.h"
#include "ringkernel/detail/field_keys.h"

namespace codec_test {
namespace {

using codec_variants::operator+;
using codec_variants::operator+=;
using ringkernel::codec_status;

static_assert(ringkernel::detail::field_key_size<LongKeysMap, 0> == 2);    // fixstr "x"
static_assert(ringkernel::detail::field_key_size<LongKeysMap, 3> == 32);   // fixstr, 31 characters
static_assert(ringkernel::detail::field_key_size<LongKeysMap, 4> == 34);   // str 8, 32 characters

template <class M>
class MapKeysTest : public ::testing::Test {};
using MapTypes = ::testing::Types<ScalarsMap, ArraysMap, Tag, Outer, Fields32Map, ManyFieldsMap, LongKeysMap>;
TYPED_TEST_SUITE(MapKeysTest, MapTypes);

/// Keys in declaration order up to field i, then not (the in-order path hands over to the lookup
/// there, in any chunk): fields i and i + 1 swapped, and an unknown key before field i, decode the
/// same message; field i's entry given twice in a row fails at the second key, the target untouched.
TYPED_TEST(MapKeysTest, OrderBrokenAtAnyFieldDecodesTheSameOrFailsAtTheKey) {
  using M = TypeParam;
  random_filler random(random_test_seed() ^ 0x6f72);
  auto m = std::make_unique<M>();
  random.fill(*m);
  const std::vector<bytes> entries = map_entries<M>(encode_to_vector(*m));
  const std::size_t n = entries.size();
  ASSERT_EQ(n, ringkernel::message_traits<M>::field_count);
  const bytes unknown = codec_variants::str("zz_new") + bytes{0x92, 0x01, 0xc0};
  auto back = std::make_unique<M>();
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(::testing::Message() << "order broken at field " << i);
    bytes swapped = codec_variants::map_header(n), with_unknown = codec_variants::map_header(n + 1);
    bytes repeated = codec_variants::map_header(n + 1);
    std::size_t repeat_offset = 0;
    for (std::size_t j = 0; j < n; ++j) {
      swapped += entries[j == i && i + 1 < n ? i + 1 : j == i + 1 ? i : j];
      if (j == i) with_unknown += unknown;
      with_unknown += entries[j];
      repeated += entries[j];
      if (j == i) {
        repeat_offset = repeated.size();
        repeated += entries[j];
      }
    }
    for (const bytes* wire : {&swapped, &with_unknown}) {
      std::memset(static_cast<void*>(back.get()), 0x5a, sizeof(M));
      const ringkernel::codec_result ok = ringkernel::decode(wire->data(), wire->size(), *back);
      ASSERT_EQ(ok.status, codec_status::ok) << hex(*wire);
      EXPECT_EQ(ok.size, wire->size());
      EXPECT_TRUE(values_equal(*m, *back)) << hex(*wire);
    }
    std::memset(static_cast<void*>(back.get()), 0x5a, sizeof(M));
    const auto untouched = std::make_unique<M>(*back);
    const ringkernel::codec_result dup = ringkernel::decode(repeated.data(), repeated.size(), *back);
    EXPECT_EQ(dup.status, codec_status::duplicate_field);
    EXPECT_EQ(dup.size, repeat_offset);
    EXPECT_EQ(std::memcmp(back.get(), untouched.get(), sizeof(M)), 0) << "written on failure";
  }
}

/// Field I's canonical key (written here by the tests' own str encoder) is its key; the same bytes
/// with any one bit flipped are not, whichever of the overlapping word loads covers that byte.
template <class M, std::size_t I>
void expect_key_told_apart() {
  const bytes key = codec_variants::str(ringkernel::message_traits<M>::field(I).name);
  constexpr std::size_t key_size = ringkernel::detail::field_key_size<M, I>;
  ASSERT_EQ(key.size(), key_size);
  EXPECT_TRUE((ringkernel::detail::is_field_key<M, I>(key.data()))) << hex(key);
  for (std::size_t at = 0; at < key.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      bytes other = key;
      other[at] = static_cast<std::uint8_t>(other[at] ^ (1u << bit));
      EXPECT_FALSE((ringkernel::detail::is_field_key<M, I>(other.data()))) << "field " << I << ": " << hex(other);
    }
  }
}

template <class M, std::size_t... I>
void expect_keys_told_apart(std::index_sequence<I...>) {
  (expect_key_told_apart<M, I>(), ...);
}

TEST(MapKeyWords, EveryKeyAndNoOtherBytesMatch) {
  expect_keys_told_apart<LongKeysMap>(std::make_index_sequence<ringkernel::message_traits<LongKeysMap>::field_count>{});
  expect_keys_told_apart<Fields32Map>(std::make_index_sequence<ringkernel::message_traits<Fields32Map>::field_count>{});
}

TEST(LongKeysMap, RandomMessagesEncodeLikeMsgpackCAndDecodeBitForBit) {
  random_checks::check_random_messages<LongKeysMap>();
}

TEST(LongKeysMap, DecodeMatchesReference) { agreement::expect_agreement<LongKeysMap>(100, 100); }

}  // namespace
}  // namespace codec_test
