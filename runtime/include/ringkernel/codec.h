// Copyright RingKernel authors.
// MessagePack encode/decode of [[ringkernel::message]] types, driven by the generated
// message_traits<T> (DESIGN.md §5; exact rules in docs/wire-format.md). Host and device code:
// noexcept, no allocation, no exceptions, no recursion at run time beyond the type's own nesting.
//
//   std::uint8_t buf[ringkernel::max_encoded_size<Msg>];
//   ringkernel::codec_result r = ringkernel::encode(msg, buf, sizeof buf);   // r.size: bytes written
//   Msg back{};
//   ringkernel::codec_result d = ringkernel::decode(buf, r.size, back);     // d.size: bytes read
//
// encode: status ok and size = bytes written, or buffer_too_small and size = bytes the encoding
// needs (nothing beyond `capacity` is written). decode: reads one message from the front of `in`;
// status ok and size = bytes consumed (bytes after the message are not looked at), or an error and
// size = offset of the value that failed. `msg` is written only on success.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/message_codec.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/detail/msgpack_writer.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

namespace ringkernel {

struct codec_result {
  codec_status status;
  std::size_t size;
};

/// Bytes that hold the encoding of any value of T (canonical encodings, every str at full length).
template <class T>
  requires is_message_v<T>
inline constexpr std::size_t max_encoded_size = detail::max_message_size<T>();

/// Deepest array/map nesting decode follows, unknown (skipped) values included.
inline constexpr std::uint32_t max_decode_depth = detail::codec_max_depth;

namespace detail {
/// encode into a buffer smaller than max_encoded_size<T>: every write checked.
template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_OUTLINED codec_result encode_checked(const T& msg, std::uint8_t* out,
                                                                                   std::size_t capacity) noexcept {
  msgpack_writer<true> w(out, capacity);
  encode_message(msg, w);
  return {w.ok() ? codec_status::ok : codec_status::buffer_too_small, w.size()};
}
}  // namespace detail

template <class T>
  requires is_message_v<T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FLATTEN inline codec_result encode(const T& msg, std::uint8_t* out, std::size_t capacity) noexcept {
  if (capacity >= max_encoded_size<T>) {  // every write fits: no per-byte bounds checks
    detail::msgpack_writer<false> w(out, capacity);
    detail::encode_message(msg, w);
    return {codec_status::ok, w.size()};
  }
  return detail::encode_checked(msg, out, capacity);
}

template <class T>
  requires is_message_v<T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FLATTEN inline codec_result decode(const std::uint8_t* in, std::size_t size, T& msg) noexcept {
  static_assert(detail::message_depth<T>() <= max_decode_depth,
                "message nests deeper than RINGKERNEL_CODEC_MAX_DEPTH: raise the limit");
  detail::msgpack_reader r(in, size);
  // Not initialised: decode_message writes every field before copy_fields reads it (a failure
  // copies nothing), and zero-filling or copying msg first measurably slows small messages.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  T decoded;
  const codec_status status = detail::decode_message(r, decoded, 0);
  if (status == codec_status::ok) detail::copy_fields(decoded, msg);  // padding of msg keeps its bytes
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  return {status, r.offset()};
}

}  // namespace ringkernel
