// Copyright RingKernel authors.
// The corpus through the real ringkernel-gen, used via the .rk.h files (original headers + traits).
#include <algorithm>
#include <iterator>

#include "arrays.rk.h"
#include "enums.rk.h"
#include "nesting.rk.h"
#include "options.rk.h"
#include "padding.rk.h"
#include "scalars.rk.h"
#include "uses_shared.rk.h"
#include "layout_checker.h"

namespace {

using ringkernel::message_traits;
namespace reg = ringkernel::registry::corpus;

TEST(GeneratedLayoutRkH, EveryFieldDescriptorMatchesTheCompiledLayout) { layout_checks::checkAllMessages(); }

TEST(GeneratedLayoutRkH, RegistryHoldsEveryCorpusMessageOnceSortedById) {
  EXPECT_EQ(reg::message_count, 38u) << "the corpus declares 38 messages; none may be dropped or repeated";
  EXPECT_TRUE(std::is_sorted(std::begin(reg::messages), std::end(reg::messages),
                             [](const auto& a, const auto& b) { return a.type_id < b.type_id; }));
  EXPECT_EQ(std::adjacent_find(std::begin(reg::messages), std::end(reg::messages),
                               [](const auto& a, const auto& b) { return a.type_id == b.type_id; }),
            std::end(reg::messages));
  EXPECT_EQ(reg::find(0u), nullptr);
  int calls = 0;
  EXPECT_FALSE(reg::dispatch(0u, nullptr, [&](const auto&) { ++calls; }));
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(reg::contains_v<int>);
}

TEST(GeneratedLayoutRkH, KernelTableFollowsDirections) {
  using Request = corpus::options::AddRequest;
  using Response = corpus::options::AddResponse;
  static_assert(message_traits<Request>::kernel_id == message_traits<Response>::kernel_id);
  const reg::kernel_info* add = reg::find_kernel(message_traits<Request>::kernel_id);
  ASSERT_NE(add, nullptr);
  EXPECT_STREQ(add->name, "Add");
  ASSERT_EQ(add->receive_count, 1u);
  EXPECT_EQ(add->receives[0], message_traits<Request>::type_id);
  ASSERT_EQ(add->send_count, 1u);
  EXPECT_EQ(add->sends[0], message_traits<Response>::type_id);
  const reg::kernel_info* handoff = reg::find_kernel(message_traits<corpus::options::HandoffMessage>::kernel_id);
  ASSERT_NE(handoff, nullptr);
  EXPECT_EQ(handoff->receive_count, 0u);
  EXPECT_EQ(handoff->receives, nullptr);
  EXPECT_EQ(handoff->send_count, 1u);
  EXPECT_EQ(reg::find_kernel(0u), nullptr);
}

TEST(GeneratedLayoutRkH, OptionsReachTheTraits) {
  using namespace corpus::options;
  EXPECT_EQ(message_traits<AddResponse>::type_id, 0x4001u);
  EXPECT_TRUE(message_traits<AddResponse>::causal);
  EXPECT_EQ(message_traits<AddResponse>::direction, ringkernel::direction::output);
  EXPECT_EQ(message_traits<AddRequest>::priority, 200);
  EXPECT_EQ(message_traits<HandoffMessage>::format, ringkernel::wire_format::map);
  EXPECT_EQ(message_traits<HandoffMessage>::direction, ringkernel::direction::kernel_to_kernel);
  EXPECT_STREQ(message_traits<HandoffMessage>::kernel, "Handoff");
  EXPECT_EQ(message_traits<Heartbeat>::priority, 0);
  EXPECT_EQ(message_traits<corpus::Ping>::type_id, ringkernel::fnv1a32("corpus::Ping"));
  EXPECT_EQ(message_traits<Audit>::format, ringkernel::wire_format::map);
}

TEST(GeneratedLayoutRkH, DescriptorsOfArraysEnumsAndNestedMessages) {
  using Cube = message_traits<corpus::arrays::Cube>;
  EXPECT_EQ(Cube::field(0).rank, 3u);
  EXPECT_EQ(Cube::field(0).extents[0], 2u);
  EXPECT_EQ(Cube::field(0).extents[2], 5u);
  using Levels = message_traits<corpus::enums::Levels>;
  EXPECT_EQ(Levels::field(0).kind, ringkernel::field_kind::enumeration);
  EXPECT_EQ(Levels::field(0).underlying, ringkernel::field_kind::uint8);
  EXPECT_EQ(Levels::field(3).underlying, ringkernel::field_kind::uint64);
  EXPECT_EQ(Levels::field(4).underlying, ringkernel::field_kind::int8);
  using Route = message_traits<corpus::shared::Route>;
  EXPECT_EQ(Route::field(0).message_type_id, message_traits<GlobalPoint>::type_id);
  EXPECT_EQ(message_traits<corpus::Blob>::field(0).kind, ringkernel::field_kind::byte);
  EXPECT_EQ(message_traits<corpus::Text>::field(0).kind, ringkernel::field_kind::character);
}

}  // namespace
