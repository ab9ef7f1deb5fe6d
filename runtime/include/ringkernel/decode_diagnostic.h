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
  decode_walker w(in, size);
  bool walked = false;
  if constexpr (codec_is_envelope<T>) {
    walked = walk_envelope(w, *scratch);
  } else {
    walked = w.message(*scratch, 0);
  }
  const decode_failure_site& site = w.failure();
  const bool attributed = !walked && site.status == decoded.status && site.offset == decoded.size;
  std::string text = detail::concat(name, attributed ? site.path : std::string(), ": ", to_string(decoded.status), " at byte ",
                            decimal(decoded.size));
  if (attributed && !site.detail.empty()) text += detail::concat(" (", site.detail, ")");
  return {decoded, attributed, std::move(text)};
}

}  // namespace detail

/// "" when decode<T> (T a message) or decode_envelope<U> (T = KernelMessage<U>) accepts the `size`
/// bytes at `in`; else which value it refused and why (see the top of this file).
template <class T>
std::string describe_decode_failure(const std::uint8_t* in, std::size_t size) {
  return detail::diagnose_decode<std::remove_cv_t<T>>(in, size).text;
}

}  // namespace ringkernel
