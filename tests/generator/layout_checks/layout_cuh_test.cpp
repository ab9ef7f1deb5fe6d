// Copyright RingKernel authors.
// The corpus through the real ringkernel-gen, used via the standalone .rk.cuh files only (compiled by
// the host compiler): the same traits and layout checks hold, enum values and default member
// initializers survive. The original headers are not on this target's include path.
#define RINGKERNEL_REGISTRY_USE_CUH
#include "layout_checker.h"
#include "character_wire.h"  // after the corpus types

namespace {

using ringkernel::message_traits;

TEST(GeneratedLayoutCuh, EveryFieldDescriptorMatchesTheCompiledLayout) { layout_checks::checkAllMessages(); }

// .rk.cuh used to spell char8_t as std::uint8_t: its char8_t[N] went out as bin, which the .rk.h codec
// (and Python's msgpack) read as another shape, and the other way round.
TEST(GeneratedLayoutCuh, UnicodeCharacterFieldsHaveTheirOwnTypeAndWireBytes) { layout_checks::checkUnicodeChars(); }

TEST(GeneratedLayoutCuh, EnumValuesAndDefaultsAreReproduced) {
  EXPECT_EQ(static_cast<int>(corpus::enums::Signed16::negative), -300);
  EXPECT_EQ(static_cast<unsigned>(corpus::enums::Level::high), 255u);
  EXPECT_EQ(static_cast<int>(corpus::enums::plain_b), 7);
  EXPECT_EQ(static_cast<int>(corpus::enums::small_min), -128);
  EXPECT_EQ(static_cast<std::uint64_t>(corpus::enums::Wide::big), 0xffffffffffffull);
  static_assert(std::is_same_v<std::underlying_type_t<corpus::enums::Octet>, char8_t>);
  EXPECT_EQ(static_cast<unsigned>(corpus::enums::Octet::top), 255u);
  EXPECT_EQ(static_cast<unsigned>(corpus::enums::WithNestedEnum::Mode::on), 1u);
  const corpus::Defaults defaults{};
  EXPECT_EQ(defaults.count, 42);
  EXPECT_TRUE(defaults.enabled);
  EXPECT_EQ(defaults.ratio, 0.5);
  EXPECT_EQ(defaults.grade, 'B');
  EXPECT_EQ(corpus::enums::DefaultEnum{}.level, corpus::enums::Level::mid);
  EXPECT_EQ(corpus::enums::DefaultEnum{}.x, -1);
  static_assert(std::is_same_v<decltype(corpus::AllIntegers::i16), std::int16_t>);
  static_assert(alignof(corpus::padding::Aligned32) == 32);
  static_assert(alignof(corpus::padding::CacheLine) == 64);
  static_assert(std::is_same_v<corpus::Versioned, corpus::v2::Versioned>);
  static_assert(std::is_same_v<tagged::Tagged, corpus_abi::tagged::Tagged>);
  EXPECT_EQ(static_cast<int>(tagged::Tag::b), 1);
}

}  // namespace
