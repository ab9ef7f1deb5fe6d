// Copyright RingKernel authors.
// to_string(direction) and to_string(wire_format) (ringkernel/message.h): every enumerator has the
// name the [[ringkernel::message]] attribute spells it with, a value outside the enum reads
// "unknown", and both are noexcept and constexpr (device code may call them), found by ADL on a
// registry's message_info fields.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "codec_test_support.h"
#include "ringkernel/message.h"

namespace {

using ringkernel::direction;
using ringkernel::wire_format;

static_assert(noexcept(ringkernel::to_string(direction::input)), "to_string(direction) is noexcept");
static_assert(noexcept(ringkernel::to_string(wire_format::map)), "to_string(wire_format) is noexcept");
static_assert(ringkernel::to_string(direction::kernel_to_kernel)[0] == 'k', "to_string(direction) is constexpr");
static_assert(ringkernel::to_string(wire_format::map)[0] == 'm', "to_string(wire_format) is constexpr");

TEST(MessageEnums, DirectionNamesAreTheAttributeSpellings) {
  EXPECT_STREQ(ringkernel::to_string(direction::input), "input");
  EXPECT_STREQ(ringkernel::to_string(direction::output), "output");
  EXPECT_STREQ(ringkernel::to_string(direction::kernel_to_kernel), "kernel_to_kernel");
  EXPECT_STREQ(ringkernel::to_string(direction::bidirectional), "bidirectional");
  std::set<std::string> names;
  for (int n = 0; n <= 3; ++n) {
    EXPECT_TRUE(names.insert(ringkernel::to_string(static_cast<direction>(n))).second) << n;
  }
  EXPECT_EQ(names.count("unknown"), 0u);
  EXPECT_STREQ(ringkernel::to_string(static_cast<direction>(4)), "unknown");
  EXPECT_STREQ(ringkernel::to_string(static_cast<direction>(255)), "unknown");
}

TEST(MessageEnums, WireFormatNamesAreTheAttributeSpellings) {
  EXPECT_STREQ(ringkernel::to_string(wire_format::array), "array");
  EXPECT_STREQ(ringkernel::to_string(wire_format::map), "map");
  EXPECT_STREQ(ringkernel::to_string(static_cast<wire_format>(2)), "unknown");
  EXPECT_STREQ(ringkernel::to_string(static_cast<wire_format>(255)), "unknown");
}

// What a user prints from a registry: the message_info fields, by an unqualified call (ADL).
TEST(MessageEnums, MessageInfoFieldsPrint) {
  constexpr ringkernel::message_info array_info = ringkernel::info_of<codec_test::Scalars>();
  constexpr ringkernel::message_info map_info = ringkernel::info_of<codec_test::ScalarsMap>();
  EXPECT_EQ(std::string(to_string(array_info.format)), "array");
  EXPECT_EQ(std::string(to_string(map_info.format)), "map");
  EXPECT_EQ(std::string(to_string(map_info.direction)), "bidirectional");
}

}  // namespace
