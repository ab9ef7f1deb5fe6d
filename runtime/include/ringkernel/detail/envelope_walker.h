// Copyright RingKernel authors.
// The envelope part of the walk behind ringkernel::describe_decode_failure<KernelMessage<T>>
// (ringkernel/decode_diagnostic.h), host only: reads an envelope's bytes again the way
// decode_envelope does (envelope_codec.h: read_envelope_elements, decode_envelope_from), naming the
// header element it stops at (".header.sender_id") or handing the payload to decode_walker under
// ".payload". Each header element is read with the reader call decode_envelope uses for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "ringkernel/detail/decode_walker.h"
#include "ringkernel/detail/diagnostic_text.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/kernel_message.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

/// The path of envelope element i (0..7).
inline const char* envelope_element_path(std::uint32_t i) {
  constexpr const char* paths[envelope_field_count] = {".header.type_id",  ".header.sender_id", ".header.receiver_id",
                                                       ".header.type",     ".header.sequence",  ".header.timestamp_us",
                                                       ".header.hlc",      ".payload"};
  return i < envelope_field_count ? paths[i] : "";
}

/// "0x0000abcd".
inline std::string hex32(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08" PRIx32, v);
  return text;
}

/// Header element i into `out` (decode_value reads an integer as read_envelope_elements does:
/// the reader's read_int of the header field's type). On success the path is as before.
template <class I>
bool envelope_element(decode_walker& w, std::uint32_t i, I& out) {
  const std::size_t mark = w.push(envelope_element_path(i));
  if (!w.value(out, 1)) return false;
  w.pop(mark);
  return true;
}

/// Header element i, read into `out`, is refused by `problem` (the reader back at the element).
inline bool envelope_element_refused(decode_walker& w, std::uint32_t i, std::size_t at, codec_status status,
                                     std::string problem) {
  w.push(envelope_element_path(i));
  return w.fail_at(at, status, std::move(problem));
}

/// Walks an envelope of payload type T as decode_envelope<T> reads it.
template <class T>
bool walk_envelope(decode_walker& w, KernelMessage<T>& m) {
  msgpack_reader& r = w.reader();
  const std::size_t start = r.offset();
  std::uint32_t count = 0;
  if (const codec_status s = r.read_array_header(count); s != codec_status::ok) {
    return w.refused_header(s, "an envelope takes an array of 8 elements");
  }
  if (count < envelope_field_count) {
    w.push(envelope_element_path(count));
    return w.fail_at(start, codec_status::missing_field,
                     concat("an envelope array of ", count_text(count, "element", "elements"),
                            " where 8 are expected: type_id, sender_id, receiver_id, type, sequence, timestamp_us, hlc, "
                            "payload"));
  }
  std::size_t at = r.offset();
  std::uint32_t type_id = 0;
  if (!envelope_element(w, 0, type_id)) return false;
  if (type_id != message_traits<T>::type_id) {
    return envelope_element_refused(w, 0, at, codec_status::wrong_message_type,
                                    concat("the type id ", hex32(type_id), " is not ", message_traits<T>::name, "'s ",
                                           hex32(message_traits<T>::type_id), ": decode it as the message type with that id"));
  }
  at = r.offset();
  std::int32_t sender = 0;
  if (!envelope_element(w, 1, sender)) return false;
  if (sender < 0) {
    return envelope_element_refused(w, 1, at, codec_status::value_out_of_range,
                                    concat("sender_id ", std::to_string(sender), " is negative"));
  }
  at = r.offset();
  std::int32_t receiver = 0;
  if (!envelope_element(w, 2, receiver)) return false;
  if (receiver < broadcast_receiver) {
    return envelope_element_refused(w, 2, at, codec_status::value_out_of_range,
                                    concat("receiver_id ", std::to_string(receiver), " is below -1 (broadcast)"));
  }
  at = r.offset();
  std::uint8_t type = 0;
  if (!envelope_element(w, 3, type)) return false;
  if (!is_valid(static_cast<MessageType>(type))) {
    return envelope_element_refused(w, 3, at, codec_status::value_out_of_range,
                                    concat("type ", decimal(type), " is not a MessageType (0 to ",
                                           decimal(message_type_count - 1u), ")"));
  }
  std::uint64_t sequence = 0;
  std::int64_t timestamp = 0;
  std::uint64_t hlc = 0;
  if (!envelope_element(w, 4, sequence) || !envelope_element(w, 5, timestamp)) return false;
  at = r.offset();
  if (!envelope_element(w, 6, hlc)) return false;
  if (!KernelMessage<T>::causal && hlc != 0) {
    return envelope_element_refused(w, 6, at, codec_status::value_out_of_range,
                                    concat("hlc ", decimal(hlc), " for ", message_traits<T>::name,
                                           ", which is not causal: 0 expected"));
  }
  const std::size_t mark = w.push(".payload");
  if (!w.message(m.payload, 1)) return false;
  w.pop(mark);
  for (std::uint32_t extra = envelope_field_count; extra < count; ++extra) {
    if (!w.skip(codec_max_depth - 1, concat("extra element ", decimal(extra), " of the envelope (after its 8)"))) return false;
  }
  return true;
}

}  // namespace ringkernel::detail
