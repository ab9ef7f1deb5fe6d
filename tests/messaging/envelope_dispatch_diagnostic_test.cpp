// Copyright RingKernel authors.
// ringkernel::describe_dispatch_failure<registry::message_types> (ringkernel/decode_diagnostic.h):
// why the generated registry's dispatch_envelope (messaging.registry.rk.h) refused bytes whose message
// type only the registry knows. The registry's message_types lists its messages in type id order;
// the text is "" exactly when dispatch_envelope accepts the bytes, describe_decode_failure's for the
// message the type id names, its own for an id no message has and for bytes that are no envelope,
// and always carries dispatch_envelope's status and offset (checked over every truncation and many
// corruptions of an envelope of each message).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "dispatch_test_support.h"
#include "messaging.registry.rk.h"
#include "ringkernel/decode_diagnostic.h"
#include "ringkernel/envelope_codec.h"

namespace {

using messaging_test::blob;
using messaging_test::envelope_bytes;
using messaging_test::reading;
using messaging_test::stamped_aligned16;
using messaging_test::stamped_tick;
using messaging_test::tagged;
using messaging_test::Tagged;
using ringkernel::codec_result;
using ringkernel::codec_status;
using ringkernel::KernelMessage;
using bytes = std::vector<std::uint8_t>;
namespace reg = ringkernel::registry::messaging;

std::string describe(const bytes& in) {
  const bytes exact(in);  // exact size: ASan sees any overread
  return ringkernel::describe_dispatch_failure<reg::message_types>(exact.data(), exact.size());
}

codec_result dispatch(const bytes& in) {
  return reg::dispatch_envelope(in.data(), in.size(), [](const auto&) {});
}

template <class... T>
std::vector<std::uint32_t> type_ids(ringkernel::message_list<T...>) {
  return {ringkernel::message_traits<T>::type_id...};
}

/// describe_dispatch_failure against dispatch_envelope on the same bytes: "" exactly on success,
/// else a text with dispatch_envelope's ": <status> at byte <offset>" that names the value (the walk
/// stopped there too).
void expect_agrees(const bytes& in, const std::string& what) {
  const codec_result r = dispatch(in);
  const bytes exact(in);
  const ringkernel::detail::decode_failure_report report =
      ringkernel::detail::diagnose_dispatch<reg::message_types>(exact.data(), exact.size());
  EXPECT_EQ(report.decoded.status, r.status) << what;
  EXPECT_EQ(report.decoded.size, r.size) << what;
  if (r.status == codec_status::ok) {
    EXPECT_EQ(report.text, "") << what;
    return;
  }
  const std::string verdict = std::string(": ") + ringkernel::to_string(r.status) + " at byte " + std::to_string(r.size);
  EXPECT_NE(report.text.find(verdict), std::string::npos) << what << ": '" << report.text << "' lacks '" << verdict << "'";
  EXPECT_TRUE(report.attributed) << what << ": " << report.text;
}

TEST(EnvelopeDispatchDiagnostic, MessageTypesListsTheRegistrysMessagesByTypeId) {
  static_assert(reg::message_types::size == reg::message_count);
  static_assert(std::is_same_v<ringkernel::detail::message_list_after<void, Tagged, messaging_test::Tick>,
                               ringkernel::message_list<Tagged, messaging_test::Tick>>);
  std::vector<std::uint32_t> table;
  for (std::size_t i = 0; i < reg::message_count; ++i) table.push_back(reg::messages[i].type_id);
  EXPECT_EQ(type_ids(reg::message_types{}), table);
}

TEST(EnvelopeDispatchDiagnostic, AcceptedEnvelopesAreDescribedAsNothing) {
  EXPECT_EQ(describe(envelope_bytes(tagged)), "");
  EXPECT_EQ(describe(envelope_bytes(stamped_tick())), "");
  EXPECT_EQ(describe(envelope_bytes(reading)), "");
  EXPECT_EQ(describe(envelope_bytes(blob)), "");
  EXPECT_EQ(describe(envelope_bytes(stamped_aligned16())), "");
}

// A type id of no message of the registry: wrong_message_type at the id, wherever it starts.
TEST(EnvelopeDispatchDiagnostic, UnknownTypeIdIsNamedAtTheTypeId) {
  bytes rest = envelope_bytes(tagged);
  rest.erase(rest.begin(), rest.begin() + 6);  // [0x98, uint 32 id] off
  const auto with_head = [&](bytes head) {
    head.insert(head.end(), rest.begin(), rest.end());
    return head;
  };
  EXPECT_EQ(describe(with_head({0x98, 0x07})),
            "envelope.header.type_id: wrong message type at byte 1 (the type id 0x00000007 is no message of this "
            "registry)");
  EXPECT_EQ(describe(with_head({0xdc, 0x00, 0x08, 0xce, 0x12, 0x34, 0xab, 0xcd})),
            "envelope.header.type_id: wrong message type at byte 3 (the type id 0x1234abcd is no message of this "
            "registry)");
  EXPECT_EQ(describe({0x98, 0x00}),
            "envelope.header.type_id: wrong message type at byte 1 (the type id 0x00000000 is no message of this "
            "registry)");
}

// Bytes refused before the type id's end: no message type to name, so "envelope".
TEST(EnvelopeDispatchDiagnostic, BytesThatAreNoEnvelopeAreNamedEnvelope) {
  EXPECT_EQ(describe({0x93, 0x01, 0x02, 0x03}),
            "envelope.header.type: missing field at byte 0 (an envelope array of 3 elements where 8 are expected: "
            "type_id, sender_id, receiver_id, type, sequence, timestamp_us, hlc, payload)");
  EXPECT_EQ(describe({0x80}),
            "envelope: type mismatch at byte 0 (a map of 0 entries where an envelope takes an array of 8 elements)");
  EXPECT_EQ(describe({0x98, 0xce, 0x00}),
            "envelope.header.type_id: truncated input at byte 1 (a uint 32 cut by the end of the input, 2 bytes left)");
  EXPECT_EQ(describe({0x98, 0xff}),
            "envelope.header.type_id: value out of range at byte 1 (uint32 field given -1)");
  EXPECT_EQ(describe({}), "envelope: truncated input at byte 0 (the input ends at byte 0, before this value)");
}

// A type id of the registry: describe_decode_failure<KernelMessage<U>>'s text for that U.
TEST(EnvelopeDispatchDiagnostic, KnownTypeIdIsDescribedAsItsEnvelope) {
  bytes sender = envelope_bytes(tagged);
  ASSERT_EQ(sender[6], 0x01);
  sender[6] = 0xfd;  // sender_id -3
  EXPECT_EQ(describe(sender), "KernelMessage<messaging_test::Tagged>.header.sender_id: value out of range at byte 6 "
                              "(sender_id -3 is negative)");
  bytes payload = envelope_bytes(tagged);
  payload.back() = 0xc0;  // Tagged's last field (42) nil
  EXPECT_EQ(describe(payload), "KernelMessage<messaging_test::Tagged>.payload.index: type mismatch at byte " +
                                   std::to_string(payload.size() - 1) + " (nil where uint64 takes an int)");
  const bytes tick = envelope_bytes(stamped_tick());
  const bytes cut(tick.begin(), tick.end() - 1);
  EXPECT_EQ(describe(cut), ringkernel::describe_decode_failure<KernelMessage<messaging_test::Tick>>(cut.data(), cut.size()));
  EXPECT_NE(describe(cut).find("KernelMessage<messaging_test::Tick>.payload"), std::string::npos) << describe(cut);
}

// Every truncation and many one-byte corruptions of an envelope of each message of the registry.
TEST(EnvelopeDispatchDiagnostic, AgreesWithDispatchEnvelopeOnManyInputs) {
  const bytes envelopes[] = {envelope_bytes(tagged), envelope_bytes(stamped_tick()), envelope_bytes(reading),
                             envelope_bytes(blob), envelope_bytes(stamped_aligned16())};
  const std::uint8_t replacements[] = {0x00, 0x01, 0x07, 0x7f, 0x80, 0x81, 0x90, 0x93, 0x98, 0xa0, 0xa3,
                                       0xc0, 0xc1, 0xc2, 0xc4, 0xca, 0xcb, 0xcc, 0xce, 0xcf, 0xd0, 0xd3,
                                       0xdc, 0xdd, 0xde, 0xe0, 0xff};
  int refused = 0;
  for (const bytes& envelope : envelopes) {
    for (std::size_t n = 0; n <= envelope.size(); ++n) {
      expect_agrees(bytes(envelope.begin(), envelope.begin() + static_cast<std::ptrdiff_t>(n)),
                    "cut at " + std::to_string(n));
    }
    for (std::size_t i = 0; i < envelope.size(); ++i) {
      for (const std::uint8_t b : replacements) {
        bytes corrupt = envelope;
        corrupt[i] = b;
        expect_agrees(corrupt, "byte " + std::to_string(i) + " = " + std::to_string(b));
        refused += dispatch(corrupt).status != codec_status::ok ? 1 : 0;
      }
    }
  }
  EXPECT_GT(refused, 1000);
}

}  // namespace
