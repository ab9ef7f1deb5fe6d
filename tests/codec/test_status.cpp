// Copyright RingKernel authors.
// codec_status: the numbers are a contract (docs/wire-format.md §6; callers store and compare
// them), every status has a name of its own, and to_string is noexcept and constexpr (device code
// calls it too).
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>

#include "ringkernel/status.h"

namespace {

using ringkernel::codec_status;

static_assert(noexcept(ringkernel::to_string(codec_status::ok)), "to_string(codec_status) is noexcept");
static_assert(ringkernel::to_string(codec_status::wrong_message_type)[0] == 'w', "to_string is constexpr");

struct documented_status {
  codec_status status;
  int number;
  const char* name;
};

// Every status with its documented number and name, by number.
constexpr documented_status all_statuses[] = {
    {codec_status::ok, 0, "ok"},
    {codec_status::buffer_too_small, 1, "buffer too small"},
    {codec_status::truncated_input, 2, "truncated input"},
    {codec_status::type_mismatch, 3, "type mismatch"},
    {codec_status::value_out_of_range, 4, "value out of range"},
    {codec_status::wrong_length, 5, "wrong array/str/bin length"},
    {codec_status::nesting_too_deep, 6, "nesting too deep"},
    {codec_status::duplicate_field, 7, "duplicate field"},
    {codec_status::missing_field, 8, "missing field"},
    {codec_status::invalid_input, 9, "invalid input (the byte 0xc1, or a misaligned raw message)"},
    {codec_status::wrong_message_type, 10, "wrong message type"},
};

TEST(CodecStatus, NumbersAndNamesAreTheDocumentedOnes) {
  for (const documented_status& s : all_statuses) {
    EXPECT_EQ(static_cast<int>(s.status), s.number) << s.name;
    EXPECT_STREQ(ringkernel::to_string(s.status), s.name) << s.number;
  }
}

TEST(CodecStatus, EveryNumberUpToTheLastHasItsOwnNameAndNoneBeyond) {
  std::set<std::string> names;
  const std::size_t count = std::size(all_statuses);
  for (std::size_t n = 0; n < count; ++n) {
    const std::string name = ringkernel::to_string(static_cast<codec_status>(n));
    EXPECT_NE(name, "unknown status") << n;
    EXPECT_TRUE(names.insert(name).second) << n << " shares its name '" << name << "'";
  }
  EXPECT_STREQ(ringkernel::to_string(static_cast<codec_status>(count)), "unknown status");
  EXPECT_STREQ(ringkernel::to_string(static_cast<codec_status>(255)), "unknown status");
}

}  // namespace
