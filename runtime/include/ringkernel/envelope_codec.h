// Copyright RingKernel authors.
// MessagePack encoding of a whole KernelMessage<T> (the envelope), built on the generated payload
// codec and the codec's own reader/writer (docs/wire-format.md §9):
//
//   [type_id, sender_id, receiver_id, type, sequence, timestamp_us, hlc, payload]
//
// a fixed array of 8; `hlc` is 0 for payload types that are not causal (for causal ones 0 means
// "not stamped"; a stamp is an unsigned 64-bit value, above INT64_MAX from May 2041 on);
// `payload` is the payload's own encoding (array or map, as its traits say). Host and device,
// noexcept, no allocation.
//   encode_envelope: as ringkernel::encode (status ok and bytes written, or buffer_too_small and
//                    the bytes needed; nothing beyond `capacity` written). Only the header is
//                    checked: a header whose values would not come back from the wire is refused
//                    with nothing written (size 0): wrong_message_type for a header type_id other
//                    than T's, value_out_of_range for a negative sender_id, a receiver_id below -1
//                    (broadcast_receiver), an unknown MessageType or non-zero flags/reserved (not
//                    on the wire); envelope_header_problem(m) names the field. The payload is
//                    encoded unchecked, as ringkernel::encode does: one that will not compare
//                    equal after a round trip is still encoded with ok (a char[N] with bytes
//                    after its NUL, a NaN field, an enum on bool whose byte is 2).
//   decode_envelope: as ringkernel::decode; additionally wrong_message_type at the type_id when the
//                    bytes carry another message type (a valid id: try the decoder of that type;
//                    type_mismatch there means a type id that is no int), value_out_of_range for
//                    a negative sender_id (at element 1), a receiver_id below -1 (at element 2),
//                    an unknown MessageType or a non-zero hlc for a non-causal type. `msg` is
//                    written only on success. Extra trailing array elements are skipped (forward
//                    compatibility). So a decoded sender_id is always >= 0: a reply addressed to
//                    it encodes and is never a broadcast. Ids are not checked against the ids
//                    that exist: receivers that index tables with them range-check them.
//   peek_envelope_type_id: the type id alone, without knowing T (to route an envelope to its
//                    decoder); decode_envelope's statuses up to and including element 0.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/codec.h"
#include "ringkernel/config.h"
#include "ringkernel/kernel_message.h"

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel {

/// Elements of the envelope array.
inline constexpr std::uint32_t envelope_field_count = 8;

/// Bytes that hold the encoding of any KernelMessage<T>.
template <class T>
inline constexpr std::size_t max_envelope_encoded_size =
    1 /* array header */ + 5 /* type_id */ + 5 + 5 /* sender, receiver */ + 2 /* type */ + 9 + 9 + 9 /* sequence,
    timestamp, hlc */ + max_encoded_size<T>;

namespace detail {

/// encode_envelope's verdict on a header and, when it refuses one, why (nullptr when status is ok).
struct envelope_header_check {
  codec_status status;
  const char* problem;
};

/// The one check behind encode_envelope and envelope_header_problem: the first problem in the order
/// of the wire elements (type_id, sender_id, receiver_id, type), then flags, then reserved.
template <class T>
RINGKERNEL_HOST_DEVICE constexpr envelope_header_check check_envelope_header(const KernelMessage<T>& m) noexcept {
  constexpr codec_status range = codec_status::value_out_of_range;
  if (m.header.type_id != message_traits<T>::type_id) {
    return {codec_status::wrong_message_type, "header.type_id is not this message type's id"};
  }
  if (m.header.sender_id < 0) return {range, "header.sender_id is negative"};
  if (m.header.receiver_id < broadcast_receiver) return {range, "header.receiver_id is below -1 (broadcast)"};
  if (!is_valid(m.header.type)) return {range, "header.type is not a MessageType"};
  if (m.header.flags != 0) return {range, "header.flags is not 0 (not on the wire)"};
  if (m.header.reserved != 0) return {range, "header.reserved is not 0 (not on the wire)"};
  return {codec_status::ok, nullptr};
}

template <class T, class Writer>
RINGKERNEL_HOST_DEVICE void encode_envelope_to(const KernelMessage<T>& m, Writer& w) noexcept {
  w.write_array_header(envelope_field_count);
  w.write_uint(m.header.type_id);
  w.write_int(m.header.sender_id);
  w.write_int(m.header.receiver_id);
  w.write_uint(static_cast<std::uint8_t>(m.header.type));
  w.write_uint(m.header.sequence);
  w.write_int(m.header.timestamp_us);
  if constexpr (KernelMessage<T>::causal) {
    w.write_uint(m.header.hlc.bits);
  } else {
    w.write_uint(0);
  }
  encode_message(m.payload, w);
}

/// encode_envelope into a buffer smaller than max_envelope_encoded_size<T>: every write checked.
template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_OUTLINED codec_result encode_envelope_checked(
    const KernelMessage<T>& m, std::uint8_t* out, std::size_t capacity) noexcept {
  msgpack_writer<true> w(out, capacity);
  encode_envelope_to(m, w);
  return {w.ok() ? codec_status::ok : codec_status::buffer_too_small, w.size()};
}

/// What an envelope says before its sender: its element count and element 0, the type id.
struct envelope_start {
  std::uint32_t count;
  std::uint32_t type_id;
  msgpack_reader::mark type_id_at;  // where element 0 starts
};

/// Reads the array header (at least envelope_field_count elements, else missing_field) and the
/// type id (any uint form of a 32-bit value). On failure the reader stays at the offending value.
RINGKERNEL_HOST_DEVICE inline codec_status read_envelope_start(msgpack_reader& r, envelope_start& out) noexcept {
  const msgpack_reader::mark start = r.position();
  if (const codec_status s = r.read_array_header(out.count); s != codec_status::ok) return s;
  if (out.count < envelope_field_count) return r.fail_at(start, codec_status::missing_field);
  out.type_id_at = r.position();
  return r.read_int(out.type_id);
}

/// Elements 0..6 of an envelope, the same for every payload type: the array header, the type id
/// (wrong_message_type unless it is `type_id`), sender (>= 0), receiver (>= -1), message type, sequence, timestamp,
/// and the raw hlc element with where it starts (the caller applies the payload type's rule to it).
/// Out of line in device code, where each payload type's decoder had its own inlined copy.
struct envelope_elements {
  envelope_header<false> header;
  std::uint32_t count;
  std::uint64_t hlc;
  msgpack_reader::mark hlc_at;
};

RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_OUTLINED codec_status read_envelope_elements(
    msgpack_reader& r, std::uint32_t type_id, envelope_elements& out) noexcept {
  envelope_start start{};
  if (const codec_status s = read_envelope_start(r, start); s != codec_status::ok) return s;
  out.count = start.count;
  out.header.type_id = start.type_id;
  if (start.type_id != type_id) return r.fail_at(start.type_id_at, codec_status::wrong_message_type);
  const msgpack_reader::mark sender_at = r.position();
  if (const codec_status s = r.read_int(out.header.sender_id); s != codec_status::ok) return s;
  if (out.header.sender_id < 0) return r.fail_at(sender_at, codec_status::value_out_of_range);
  const msgpack_reader::mark receiver_at = r.position();
  if (const codec_status s = r.read_int(out.header.receiver_id); s != codec_status::ok) return s;
  if (out.header.receiver_id < broadcast_receiver) return r.fail_at(receiver_at, codec_status::value_out_of_range);
  const msgpack_reader::mark type_at = r.position();
  std::uint8_t type = 0;
  if (const codec_status s = r.read_int(type); s != codec_status::ok) return s;
  out.header.type = static_cast<MessageType>(type);
  if (!is_valid(out.header.type)) return r.fail_at(type_at, codec_status::value_out_of_range);
  if (const codec_status s = r.read_int(out.header.sequence); s != codec_status::ok) return s;
  if (const codec_status s = r.read_int(out.header.timestamp_us); s != codec_status::ok) return s;
  out.hlc_at = r.position();
  return r.read_int(out.hlc);
}

template <class T>
RINGKERNEL_HOST_DEVICE codec_status decode_envelope_from(msgpack_reader& r, KernelMessage<T>& m) noexcept {
  envelope_elements e{};
  if (const codec_status s = read_envelope_elements(r, message_traits<T>::type_id, e); s != codec_status::ok) {
    return s;
  }
  m.header.type_id = e.header.type_id;
  m.header.sender_id = e.header.sender_id;
  m.header.receiver_id = e.header.receiver_id;
  m.header.type = e.header.type;
  m.header.sequence = e.header.sequence;
  m.header.timestamp_us = e.header.timestamp_us;
  if constexpr (KernelMessage<T>::causal) {
    m.header.hlc = hlc_timestamp{e.hlc};
  } else if (e.hlc != 0) {
    return r.fail_at(e.hlc_at, codec_status::value_out_of_range);
  }
  if (const codec_status s = decode_message(r, m.payload, 1); s != codec_status::ok) return s;
  codec_status status = codec_status::ok;
  for (std::uint32_t extra = envelope_field_count; status == codec_status::ok && extra < e.count; ++extra) {
    status = r.skip_value<codec_max_depth>(codec_max_depth - 1);
  }
  return status;
}

}  // namespace detail

template <class T>
RINGKERNEL_HOST_DEVICE inline codec_result encode_envelope(const KernelMessage<T>& m, std::uint8_t* out,
                                                           std::size_t capacity) noexcept {
  static_assert(!envelope_header_layout_ok || kernel_message_layout_ok<T>,
                "KernelMessage<T> layout differs from the documented one");
  if (const codec_status s = detail::check_envelope_header(m).status; s != codec_status::ok) return {s, 0};
  if (capacity >= max_envelope_encoded_size<T>) {
    detail::msgpack_writer<false> w(out, capacity);
    detail::encode_envelope_to(m, w);
    return {codec_status::ok, w.size()};
  }
  return detail::encode_envelope_checked(m, out, capacity);
}

/// Why encode_envelope refuses `m`'s header: nullptr when it accepts the header, else a static string
/// naming the first bad field, in this order (the one encode_envelope's status comes from):
///   "header.type_id is not this message type's id"   (wrong_message_type)
///   "header.sender_id is negative"                    (value_out_of_range, as all below)
///   "header.receiver_id is below -1 (broadcast)"
///   "header.type is not a MessageType"
///   "header.flags is not 0 (not on the wire)"
///   "header.reserved is not 0 (not on the wire)"
/// The payload is not looked at (encode_envelope does not check it). Host and device, constexpr.
template <class T>
RINGKERNEL_HOST_DEVICE constexpr const char* envelope_header_problem(const KernelMessage<T>& m) noexcept {
  return detail::check_envelope_header(m).problem;
}

/// The type id of the envelope at `in`, read without knowing its payload type: to pick the decoder
/// (decode_envelope<T> for the T whose message_traits<T>::type_id it is). Reads the array header and
/// element 0 only, with decode_envelope's rules and statuses: ok and the bytes read (the rest of the
/// envelope is not checked), or truncated_input, missing_field (fewer than 8 elements),
/// type_mismatch (not an array, or a type id that is no int), value_out_of_range (a negative type id
/// or one above 32 bits), invalid_input (0xc1) and the offset of the offending value. `type_id` is
/// written only on success. Host and device.
RINGKERNEL_HOST_DEVICE inline codec_result peek_envelope_type_id(const std::uint8_t* in, std::size_t size,
                                                                 std::uint32_t& type_id) noexcept {
  detail::msgpack_reader r(in, size);
  detail::envelope_start start{};
  const codec_status status = detail::read_envelope_start(r, start);
  if (status == codec_status::ok) type_id = start.type_id;
  return {status, r.offset()};
}

namespace detail {

/// decode_envelope straight into `scratch`, which holds a partly decoded message after a failure:
/// for callers that discard it then (the registry's dispatch_envelope), so that a decode needs one
/// message of stack, not two.
template <class T>
RINGKERNEL_HOST_DEVICE inline codec_result decode_envelope_into_scratch(const std::uint8_t* in, std::size_t size,
                                                                        KernelMessage<T>& scratch) noexcept {
  // (Also decode_envelope's and the registry's dispatch_envelope's check.)
  static_assert(!envelope_header_layout_ok || kernel_message_layout_ok<T>,
                "KernelMessage<T> layout differs from the documented one");
  static_assert(message_depth<T>() + 1 <= max_decode_depth,
                "payload nests too deep to be decoded inside an envelope: raise RINGKERNEL_CODEC_MAX_DEPTH");
  msgpack_reader r(in, size);
  const codec_status status = decode_envelope_from(r, scratch);
  return {status, r.offset()};
}

}  // namespace detail

template <class T>
RINGKERNEL_HOST_DEVICE inline codec_result decode_envelope(const std::uint8_t* in, std::size_t size,
                                                           KernelMessage<T>& m) noexcept {
  KernelMessage<T> decoded{};
  const codec_result result = detail::decode_envelope_into_scratch(in, size, decoded);
  if (result.status == codec_status::ok) {
    // Member by member, the payload field by field, as decode() does: the padding bytes of `m`
    // (in the payload, and between header and payload) keep the caller's values.
    detail::copy_field_value(decoded.header, m.header);
    detail::copy_fields(decoded.payload, m.payload);
  }
  return result;
}

}  // namespace ringkernel
RINGKERNEL_DEPRECATED_USES_POP
