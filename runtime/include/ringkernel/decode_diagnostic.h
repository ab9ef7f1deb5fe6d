// Copyright RingKernel authors.
// Which field a refused message lacks or got wrong: a host-only diagnostic for MessagePack input
// that ringkernel::decode or ringkernel::decode_envelope refuses (docs/wire-format.md §6, "Which
// field"). For debugging version skew and foreign peers; the decoders themselves are not changed
// and stay as they are on the hot path.
//
//   std::string why = ringkernel::describe_decode_failure<Telemetry>(bytes, size);
//   // "" when decode<Telemetry> accepts the bytes, else e.g.
//   // codec_test::Outer.tags[1].id: value out of range at byte 38 (uint16 field given 70000)
//   // app::Telemetry.pos.y: missing field at byte 12 (the map at byte 12 has no key "y"; keys present: "x", "z")
//   ringkernel::describe_decode_failure<ringkernel::KernelMessage<Telemetry>>(bytes, size);
//   // the envelope: KernelMessage<app::Telemetry>.header.sender_id: ... / KernelMessage<app::Telemetry>.payload.pos.y: ...
//   ringkernel::describe_dispatch_failure<ringkernel::registry::app::message_types>(bytes, size);
//   // an envelope of a type known only to a registry: why its dispatch_envelope refused the bytes, as
//   // describe_decode_failure<KernelMessage<U>> for the U its type id names, else e.g.
//   // envelope.header.type_id: wrong message type at byte 1 (the type id 0x0000007b is no message of this registry)
//
// Form: "<type name><path>: <status text> at byte <offset> (<detail>)", where status text is
// ringkernel::to_string(status) and status and offset are exactly what decode (decode_envelope)
// returns: the function decodes first and only then walks the bytes to name the value decode stopped
// at (its path: ".field", "[i]" per array dimension, nested messages' fields; empty for the message's
// own header). Should the walk ever stop elsewhere than decode did, the text keeps decode's status
// and offset and drops the path and detail, so it never disagrees with decode.
//
// Hostile input: reads only [in, in + size), never recurses deeper than the message type nests
// (max_decode_depth at most), skips values with the reader's fixed stack; it allocates one T (or
// KernelMessage<T>) on the heap and the text, whose parts taken from the input are capped (map keys:
// 32 bytes each, printed as \xNN where not printable ASCII; 8 keys listed, the rest counted).
// Not noexcept (std::bad_alloc); not for device code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "ringkernel/codec.h"
#include "ringkernel/detail/decode_walker.h"
#include "ringkernel/detail/diagnostic_text.h"
#include "ringkernel/detail/envelope_walker.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

namespace ringkernel {

namespace detail {

/// decode's verdict and its description; `attributed`: the walk stopped where decode did (so the
/// text names the value), always true unless the walk and the decoder differ (a bug; fuzzed).
struct decode_failure_report {
  codec_result decoded;
  bool attributed;
  std::string text;
};

/// The text for `decoded`, a refusal of the bytes by decode (T a message) or decode_envelope (T a
/// KernelMessage<U>), with `name` before the path: walks the bytes as that decoder reads them and
/// names the value where the walk stops if that is where `decoded` says the decoder stopped.
/// `scratch` is overwritten.
template <class T>
decode_failure_report describe_refusal(const std::uint8_t* in, std::size_t size, codec_result decoded,
                                       const std::string& name, T& scratch) {
  decode_walker w(in, size);
  bool walked = false;
  if constexpr (codec_is_envelope<T>) {
    walked = walk_envelope(w, scratch);
  } else {
    walked = w.message(scratch, 0);
  }
  const decode_failure_site& site = w.failure();
  const bool attributed = !walked && site.status == decoded.status && site.offset == decoded.size;
  std::string text = detail::concat(name, attributed ? site.path : std::string(), ": ", to_string(decoded.status), " at byte ",
                            decimal(decoded.size));
  if (attributed && !site.detail.empty()) text += detail::concat(" (", site.detail, ")");
  return {decoded, attributed, std::move(text)};
}

template <class T>
decode_failure_report diagnose_decode(const std::uint8_t* in, std::size_t size) {
  static_assert(is_message_v<T> || codec_is_envelope<T>,
                "describe_decode_failure<T>: T is a [[ringkernel::message]] type (its generated <stem>.rk.h "
                "included) or a KernelMessage<U> of one");
  auto scratch = std::make_unique<T>();  // off the stack: messages may be large
  codec_result decoded{};
  std::string name;
  if constexpr (codec_is_envelope<T>) {
    decoded = decode_envelope(in, size, *scratch);
    name = detail::concat("KernelMessage<", message_traits<typename T::payload_type>::name, ">");
  } else {
    decoded = decode(in, size, *scratch);
    name = message_traits<T>::name;
  }
  if (decoded.status == codec_status::ok) return {decoded, true, {}};
  return describe_refusal(in, size, decoded, name, *scratch);
}

template <class List>
inline constexpr bool no_message_list = false;

/// diagnose_dispatch for the messages of a message_list (a registry's message_types).
template <class List>
struct dispatch_diagnosis {
  static_assert(no_message_list<List>,
                "describe_dispatch_failure<List>: List is a ringkernel::message_list<T...> of messages, such as a "
                "generated registry's message_types (ringkernel::registry::<id>::message_types)");
};

template <class First, class... Rest>
struct dispatch_diagnosis<message_list<First, Rest...>> {
  static_assert(is_message_v<First> && (is_message_v<Rest> && ...),
                "describe_dispatch_failure<message_list<T...>>: every T is a [[ringkernel::message]] type (its "
                "generated <stem>.rk.h included)");

  /// As a registry's dispatch_envelope reads the bytes: the array header and the type id, then the
  /// envelope as KernelMessage<T> for the T of the list with that id.
  static decode_failure_report diagnose(const std::uint8_t* in, std::size_t size) {
    msgpack_reader reader(in, size);
    envelope_start start{};
    if (const codec_status s = read_envelope_start(reader, start); s != codec_status::ok) {
      // No envelope: the walk up to the type id is the same for every payload type, so First's names it.
      auto scratch = std::make_unique<KernelMessage<First>>();
      return describe_refusal(in, size, {s, reader.offset()}, "envelope", *scratch);
    }
    decode_failure_report report{};
    const std::uint32_t id = start.type_id;
    if ((diagnose_as<First>(in, size, id, report) || ... || diagnose_as<Rest>(in, size, id, report))) return report;
    const codec_result refused{codec_status::wrong_message_type, static_cast<std::size_t>(start.type_id_at - in)};
    return {refused, true,
            concat("envelope", envelope_element_path(0), ": ", to_string(refused.status), " at byte ",
                   decimal(refused.size), " (the type id ", hex32(start.type_id), " is no message of this registry)")};
  }

  /// True, and `report` is decode_envelope<T>'s, when `type_id` is T's.
  template <class T>
  static bool diagnose_as(const std::uint8_t* in, std::size_t size, std::uint32_t type_id,
                          decode_failure_report& report) {
    if (type_id != message_traits<T>::type_id) return false;
    report = diagnose_decode<KernelMessage<T>>(in, size);
    return true;
  }
};

/// describe_dispatch_failure's verdict and text (`decoded`: exactly dispatch_envelope's result).
template <class MessageList>
decode_failure_report diagnose_dispatch(const std::uint8_t* in, std::size_t size) {
  return dispatch_diagnosis<std::remove_cv_t<MessageList>>::diagnose(in, size);
}

}  // namespace detail

/// "" when decode<T> (T a message) or decode_envelope<U> (T = KernelMessage<U>) accepts the `size`
/// bytes at `in`; else which value it refused and why (see the top of this file).
template <class T>
std::string describe_decode_failure(const std::uint8_t* in, std::size_t size) {
  return detail::diagnose_decode<std::remove_cv_t<T>>(in, size).text;
}

/// "" when a registry whose messages MessageList lists (ringkernel::registry::<id>::message_types)
/// accepts the `size` bytes at `in` in its dispatch_envelope; else why it refused them, with exactly
/// dispatch_envelope's status and offset: describe_decode_failure<KernelMessage<U>>'s text for the
/// message U of the list that the envelope's type id names; for a type id of none,
///   envelope.header.type_id: wrong message type at byte 1 (the type id 0x0000007b is no message of this registry)
/// and for bytes that are no envelope (cut or refused before the type id's end) the walk's text
/// named "envelope" (e.g. "envelope.header.type: missing field at byte 0 (an envelope array of 3
/// elements where 8 are expected: ...)").
template <class MessageList>
std::string describe_dispatch_failure(const std::uint8_t* in, std::size_t size) {
  return detail::diagnose_dispatch<MessageList>(in, size).text;
}

}  // namespace ringkernel
