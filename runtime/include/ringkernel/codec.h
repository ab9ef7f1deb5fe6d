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

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel {

struct codec_result {
  codec_status status;
  std::size_t size;
};

// A T that is not a message (no [[ringkernel::message]], or its generated <stem>.rk.h not included)
// fails max_encoded_size, encode and decode with a static_assert that names the fix, as
// KernelMessage<T> does, not with a bare constraint failure ("is_message_v<T> evaluated to
// false"); a KernelMessage<U> (an envelope) gets the envelope codec's name instead
// (encode_envelope, decode_envelope, max_envelope_encoded_size<U>). max_encoded_size checks in its
// initialiser; encode and decode have a fallback overload for other types, below the constrained
// one every message takes. The fallback has a trailing parameter pack (always empty: the
// requires-clause admits no extra argument), which makes it less specialised than any template
// without one: than the constrained overload, and than a user's unconstrained
// `template <class T> ... encode(const T&, std::uint8_t*, std::size_t)` that argument-dependent
// lookup finds next to it (an unqualified encode(KernelMessage<app::X>{}, ...) picks app::encode,
// as it did before the fallback existed; test codec.not_a_message.unqualified_call_compiles). None
// of the three is a substitution failure for another type: nothing tests them in a
// requires-expression (use is_message_v<T> for that).
#define RINGKERNEL_DETAIL_NOT_A_MESSAGE(what)                                                               \
  "T is not a RingKernel message: annotate it with [[ringkernel::message]] and include its generated "   \
  "<stem>.rk.h (or .rk.cuh) before using " what
#define RINGKERNEL_DETAIL_AN_ENVELOPE(instead, what)                                                        \
  "T is a KernelMessage<U> (an envelope), not a message: for the envelope use " instead                   \
  " (ringkernel/envelope_codec.h), or " what " of its payload U"

template <class T>
struct KernelMessage;  // ringkernel/kernel_message.h

namespace detail {
template <class T>
inline constexpr bool codec_is_envelope = false;
template <class U>
inline constexpr bool codec_is_envelope<KernelMessage<U>> = true;
template <class U>
inline constexpr bool codec_is_envelope<const KernelMessage<U>> = true;

template <class T>
RINGKERNEL_HOST_DEVICE constexpr std::size_t max_encoded_size_of() noexcept {
  static_assert(!codec_is_envelope<T>, RINGKERNEL_DETAIL_AN_ENVELOPE("ringkernel::max_envelope_encoded_size<U>",
                                                                     "ringkernel::max_encoded_size<U>"));
  static_assert(is_message_v<T> || codec_is_envelope<T>,
                RINGKERNEL_DETAIL_NOT_A_MESSAGE("ringkernel::max_encoded_size<T>"));
  if constexpr (is_message_v<T>) {
    return max_message_size<T>();
  } else {
    return 0;
  }
}
}  // namespace detail

/// Bytes that hold the encoding of any value of T (canonical encodings, every str at full length).
template <class T>
inline constexpr std::size_t max_encoded_size = detail::max_encoded_size_of<T>();

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

/// encode of a T that is not a message: fails to compile, naming the fix (Unused: see above).
template <class T, class... Unused>
  requires(sizeof...(Unused) == 0)
RINGKERNEL_HOST_DEVICE inline codec_result encode(const T&, std::uint8_t*, std::size_t, Unused...) noexcept {
  static_assert(!detail::codec_is_envelope<T>,
                RINGKERNEL_DETAIL_AN_ENVELOPE("ringkernel::encode_envelope", "ringkernel::encode"));
  static_assert(is_message_v<T> || detail::codec_is_envelope<T>, RINGKERNEL_DETAIL_NOT_A_MESSAGE("ringkernel::encode"));
  return {codec_status::invalid_input, 0};
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

/// decode into a T that is not a message: fails to compile, naming the fix (Unused: see above).
template <class T, class... Unused>
  requires(sizeof...(Unused) == 0)
RINGKERNEL_HOST_DEVICE inline codec_result decode(const std::uint8_t*, std::size_t, T&, Unused...) noexcept {
  static_assert(!detail::codec_is_envelope<T>,
                RINGKERNEL_DETAIL_AN_ENVELOPE("ringkernel::decode_envelope", "ringkernel::decode"));
  static_assert(is_message_v<T> || detail::codec_is_envelope<T>, RINGKERNEL_DETAIL_NOT_A_MESSAGE("ringkernel::decode"));
  return {codec_status::invalid_input, 0};
}

#undef RINGKERNEL_DETAIL_NOT_A_MESSAGE
#undef RINGKERNEL_DETAIL_AN_ENVELOPE

}  // namespace ringkernel
RINGKERNEL_DEPRECATED_USES_POP
