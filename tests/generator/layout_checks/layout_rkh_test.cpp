// Copyright RingKernel authors.
// The corpus through the real ringkernel-gen, used via the .rk.h files (original headers + traits).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

#include "arrays.rk.h"
#include "enums.rk.h"
#include "nesting.rk.h"
#include "options.rk.h"
#include "padding.rk.h"
#include "scalars.rk.h"
#include "uses_shared.rk.h"
#include "layout_checker.h"
#include "character_wire.h"  // after the corpus types
#include "ringkernel/envelope_codec.h"

namespace {

using ringkernel::message_traits;
namespace reg = ringkernel::registry::corpus;

TEST(GeneratedLayoutRkH, EveryFieldDescriptorMatchesTheCompiledLayout) { layout_checks::checkAllMessages(); }

TEST(GeneratedLayoutRkH, UnicodeCharacterFieldsHaveTheirOwnTypeAndWireBytes) { layout_checks::checkUnicodeChars(); }

TEST(GeneratedLayoutRkH, RegistryHoldsEveryCorpusMessageOnceSortedById) {
  EXPECT_EQ(reg::message_count, 42u) << "the corpus declares 42 messages; none may be dropped or repeated";
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

// direction = bidirectional: the kernel both receives and sends the type (input only receives,
// output and kernel_to_kernel only send: KernelTableFollowsDirections).
TEST(GeneratedLayoutRkH, BidirectionalKernelReceivesAndSends) {
  using Heartbeat = corpus::options::Heartbeat;
  static_assert(message_traits<Heartbeat>::direction == ringkernel::direction::bidirectional);
  const reg::kernel_info* heartbeat = reg::find_kernel(message_traits<Heartbeat>::kernel_id);
  ASSERT_NE(heartbeat, nullptr);
  EXPECT_STREQ(heartbeat->name, "Heartbeat");
  ASSERT_EQ(heartbeat->receive_count, 1u);
  EXPECT_EQ(heartbeat->receives[0], message_traits<Heartbeat>::type_id);
  ASSERT_EQ(heartbeat->send_count, 1u);
  EXPECT_EQ(heartbeat->sends[0], message_traits<Heartbeat>::type_id);
}

// Each option in the traits of every corpus message that sets it, and the defaults of those that do
// not: a value that reaches only some of the messages (e.g. causal only with format = array) fails.
TEST(GeneratedLayoutRkH, EveryMessagesOptionsReachTheTraits) {
  using namespace corpus::options;
  EXPECT_FALSE(message_traits<AddRequest>::causal);
  EXPECT_TRUE(message_traits<AddResponse>::causal);
  EXPECT_FALSE(message_traits<HandoffMessage>::causal);
  EXPECT_FALSE(message_traits<Heartbeat>::causal);
  EXPECT_TRUE(message_traits<Audit>::causal);
  EXPECT_EQ(message_traits<AddRequest>::direction, ringkernel::direction::input);
  EXPECT_EQ(message_traits<Heartbeat>::direction, ringkernel::direction::bidirectional);
  EXPECT_EQ(message_traits<Audit>::direction, ringkernel::direction::bidirectional);
  EXPECT_EQ(message_traits<AddResponse>::priority, 128);
  EXPECT_EQ(message_traits<HandoffMessage>::priority, 128);
  EXPECT_EQ(message_traits<AddRequest>::format, ringkernel::wire_format::array);
  EXPECT_EQ(message_traits<AddResponse>::format, ringkernel::wire_format::array);
  EXPECT_EQ(message_traits<Audit>::type_id, ringkernel::fnv1a32("corpus::options::Audit"));
  EXPECT_STREQ(message_traits<Audit>::kernel, "Audit");
  EXPECT_STREQ(message_traits<AddResponse>::kernel, "Add");
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
  // char8_t has a kind of its own: its arrays are arrays of ints, those of std::uint8_t bin.
  using Unicode = message_traits<corpus::UnicodeChars>;
  EXPECT_EQ(Unicode::field(0).kind, ringkernel::field_kind::char8);
  EXPECT_EQ(Unicode::field(0).underlying, ringkernel::field_kind::char8);
  EXPECT_EQ(Unicode::field(1).kind, ringkernel::field_kind::char8);
  EXPECT_EQ(Unicode::field(2).kind, ringkernel::field_kind::uint16);
  EXPECT_EQ(message_traits<corpus::Blob>::field(1).kind, ringkernel::field_kind::uint8);
  using Octets = message_traits<corpus::enums::Octets>;
  EXPECT_EQ(Octets::field(1).kind, ringkernel::field_kind::enumeration);
  EXPECT_EQ(Octets::field(1).underlying, ringkernel::field_kind::char8);
  EXPECT_EQ(static_cast<int>(ringkernel::field_kind::char8), 15);  // appended: the others keep their values
  EXPECT_EQ(static_cast<int>(ringkernel::field_kind::byte), 14);
}

// Every corpus message (a zeroed value, found through dispatch) goes out as an envelope and comes
// back through dispatch_envelope at the handler of its own type, equal; a cut envelope calls no one.
TEST(GeneratedLayoutRkH, DispatchEnvelopeRoutesEveryCorpusMessageToItsType) {
  for (const ringkernel::message_info& info : reg::messages) {
    alignas(64) std::uint8_t zeroed[4096] = {};
    ASSERT_LE(info.size, sizeof zeroed);
    const bool known = reg::dispatch(info.type_id, zeroed, [&](const auto& value) {
      using T = std::remove_cvref_t<decltype(value)>;
      const auto sent = ringkernel::KernelMessage<T>::create_data(3, 4, value);
      std::vector<std::uint8_t> bytes(ringkernel::max_envelope_encoded_size<T>);
      const ringkernel::codec_result encoded = ringkernel::encode_envelope(sent, bytes.data(), bytes.size());
      ASSERT_EQ(encoded.status, ringkernel::codec_status::ok) << info.name;
      int calls = 0;
      const ringkernel::codec_result routed = reg::dispatch_envelope(bytes.data(), encoded.size, [&](const auto& got) {
        ++calls;
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(got)>, ringkernel::KernelMessage<T>>) {
          EXPECT_TRUE(got == sent) << info.name;
        } else {
          ADD_FAILURE() << info.name << " routed to type id " << got.header.type_id;
        }
      });
      EXPECT_EQ(routed.status, ringkernel::codec_status::ok) << info.name;
      EXPECT_EQ(routed.size, encoded.size) << info.name;
      EXPECT_EQ(calls, 1) << info.name;
      ringkernel::KernelMessage<T> decoded{};
      const ringkernel::codec_result cut = reg::dispatch_envelope(bytes.data(), encoded.size - 1, [&](const auto&) { ++calls; });
      const ringkernel::codec_result want = ringkernel::decode_envelope(bytes.data(), encoded.size - 1, decoded);
      EXPECT_EQ(cut.status, want.status) << info.name;
      EXPECT_EQ(cut.size, want.size) << info.name;
      EXPECT_EQ(calls, 1) << info.name;
    });
    EXPECT_TRUE(known) << info.name;
  }
}

}  // namespace
