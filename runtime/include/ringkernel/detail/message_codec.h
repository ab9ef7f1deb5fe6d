// Copyright RingKernel authors.
// Encoding and decoding of a whole message through its generated message_traits: a fold over
// visit_fields, as an array of the fields (format = array) or a map from field name to value
// (format = map). Forward compatibility: extra trailing array elements and unknown map keys are
// skipped (bounded by the nesting limit); missing fields and repeated map keys are errors.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/field_codec.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

#ifndef RINGKERNEL_CODEC_MAX_DEPTH
/// Deepest array/map nesting the decoder follows (messages, arrays and skipped unknown values).
#define RINGKERNEL_CODEC_MAX_DEPTH 32
#endif

namespace ringkernel::detail {

inline constexpr std::uint32_t codec_max_depth = RINGKERNEL_CODEC_MAX_DEPTH;

template <class Writer>
struct field_encoder {
  Writer* w;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, const F& value) const noexcept {
    encode_value(value, *w);
  }
};

template <class T, class Writer>
struct named_field_encoder {
  Writer* w;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, const F& value) const noexcept {
    w->write_str(message_traits<T>::field(I).name, static_cast<std::uint32_t>(field_name_length<T, I>));
    encode_value(value, *w);
  }
};

template <class T, class Writer>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE void encode_message(const T& msg, Writer& w) noexcept {
  using traits = message_traits<T>;
  if constexpr (traits::format == wire_format::map) {
    w.write_map_header(static_cast<std::uint32_t>(traits::field_count));
    traits::visit_fields(msg, named_field_encoder<T, Writer>{&w});
  } else {
    w.write_array_header(static_cast<std::uint32_t>(traits::field_count));
    traits::visit_fields(msg, field_encoder<Writer>{&w});
  }
}

/// Decodes fields in order until the first failure (format = array).
struct field_decoder {
  msgpack_reader* r;
  codec_status* status;
  std::uint32_t depth;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, F& value) const noexcept {
    if (*status == codec_status::ok) *status = decode_value(*r, value, depth);
  }
};

/// Which fields a map has given so far (format = map).
template <std::size_t N>
struct field_set {
  std::uint64_t words[(N + 63) / 64 + 1] = {};  // +1: no zero-length array when N == 0
  RINGKERNEL_HOST_DEVICE bool test(std::size_t i) const noexcept { return (words[i / 64] >> (i % 64)) & 1u; }
  RINGKERNEL_HOST_DEVICE void set(std::size_t i) noexcept { words[i / 64] |= std::uint64_t{1} << (i % 64); }
  RINGKERNEL_HOST_DEVICE bool all() const noexcept {
    for (std::size_t i = 0; i < N; ++i) {
      if (!test(i)) return false;
    }
    return true;
  }
};

/// Decodes the value of the field whose name equals the key just read (format = map).
template <class T>
struct keyed_field_decoder {
  msgpack_reader* r;
  const char* key;
  std::uint32_t key_length;
  msgpack_reader::mark key_start;
  field_set<message_traits<T>::field_count>* seen;
  std::uint32_t depth;
  bool* matched;
  codec_status* status;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, F& value) const noexcept {
    if (*matched || key_length != field_name_length<T, I> ||
        !bytes_equal(key, message_traits<T>::field(I).name, key_length)) {
      return;
    }
    *matched = true;
    if (seen->test(I)) {
      *status = r->fail_at(key_start, codec_status::duplicate_field);
      return;
    }
    seen->set(I);
    *status = decode_value(*r, value, depth);
  }
};

template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE codec_status decode_array_message(msgpack_reader& r, T& msg, std::uint32_t depth) noexcept {
  using traits = message_traits<T>;
  // What encoders write, a fixarray of exactly the fields, is one byte compare; anything else goes
  // through the general header (other widths, extra elements, errors).
  constexpr bool fixarray = traits::field_count < 16;
  std::uint32_t count = static_cast<std::uint32_t>(traits::field_count);
  if (!fixarray || !r.consume(static_cast<std::uint8_t>(tag::fixarray | (traits::field_count & 0x0fu)))) {
    const msgpack_reader::mark start = r.position();
    if (const codec_status s = r.read_array_header(count); s != codec_status::ok) return s;
    // (Not compared for a message without fields: nvcc calls `count < 0u` pointless, an error
    // under -Werror=all-warnings.)
    if constexpr (traits::field_count > 0) {
      if (count < traits::field_count) return r.fail_at(start, codec_status::missing_field);
    }
  }
  codec_status status = codec_status::ok;
  traits::visit_fields(msg, field_decoder{&r, &status, depth + 1});
  for (std::uint32_t extra = static_cast<std::uint32_t>(traits::field_count);
       status == codec_status::ok && extra < count; ++extra) {
    status = r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1));
  }
  return status;
}

template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE codec_status decode_map_message(msgpack_reader& r, T& msg, std::uint32_t depth) noexcept {
  using traits = message_traits<T>;
  const msgpack_reader::mark start = r.position();
  std::uint32_t count = 0;
  if (const codec_status s = r.read_map_header(count); s != codec_status::ok) return s;
  field_set<traits::field_count> seen;
  for (std::uint32_t i = 0; i < count; ++i) {
    const msgpack_reader::mark key_start = r.position();
    const char* key = nullptr;
    std::uint32_t key_length = 0;
    if (const codec_status s = r.read_str(key, key_length); s != codec_status::ok) return s;
    bool matched = false;
    codec_status status = codec_status::ok;
    traits::visit_fields(msg, keyed_field_decoder<T>{&r, key, key_length, key_start, &seen, depth + 1,
                                                     &matched, &status});
    if (!matched) status = r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1));
    if (status != codec_status::ok) return status;
  }
  if (!seen.all()) return r.fail_at(start, codec_status::missing_field);
  return codec_status::ok;
}

/// Copies each field of a decoded message into the caller's message with the field's own width.
/// (A whole-struct copy would load wide words right after the decoder's narrow stores, and stall on
/// store-to-load forwarding: that copy alone cost more than decoding a 64-byte message.)
template <class T>
struct field_copier {
  const T* source;
  T* target;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, const F& value) const noexcept {
    const auto offset = reinterpret_cast<const unsigned char*>(&value) - reinterpret_cast<const unsigned char*>(source);
    unsigned char* to = reinterpret_cast<unsigned char*>(target) + offset;
    const auto* from = reinterpret_cast<const unsigned char*>(&value);
    // Arrays go in 8-byte pieces: loads no wider than the decoder's stores forward from them.
    std::size_t done = 0;
    for (; done + 8 <= sizeof(F); done += 8) {
      std::uint64_t piece;
      copy_bytes(&piece, from + done, 8);
      copy_bytes(to + done, &piece, 8);
    }
    if constexpr (sizeof(F) % 8 != 0) copy_bytes(to + done, from + done, sizeof(F) % 8);
  }
};

template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void copy_fields(const T& source, T& target) noexcept {
  message_traits<T>::visit_fields(source, field_copier<T>{&source, &target});
}

template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE codec_status decode_message(msgpack_reader& r, T& msg, std::uint32_t depth) noexcept {
  if constexpr (message_traits<T>::format == wire_format::map) {
    return decode_map_message(r, msg, depth);
  } else {
    return decode_array_message(r, msg, depth);
  }
}

}  // namespace ringkernel::detail
