// Copyright RingKernel authors.
// Encoding and decoding of a whole message through its generated message_traits: a fold over
// visit_fields, as an array of the fields (format = array) or a map from field name to value
// (format = map; decoded in map_message_decoder.h). Forward compatibility: extra trailing array
// elements and unknown map keys are skipped (bounded by the nesting limit); missing fields and
// repeated map keys are errors.
// Messages of more than max_unchunked_fields fields go through host functions of field_chunk_size
// fields each (field_chunks.h); the others compile into their caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ringkernel/config.h"
#include "ringkernel/detail/field_chunks.h"
#include "ringkernel/detail/field_codec.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/map_message_decoder.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/detail/msgpack_writer.h"
#include "ringkernel/detail/msgpack_tags.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel::detail {

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

/// The visitor that encodes T's fields into `w`: values (format = array), names and values (map).
template <class T, class Writer>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE auto field_encoder_for(Writer& w) noexcept {
  if constexpr (message_traits<T>::format == wire_format::map) {
    return named_field_encoder<T, Writer>{&w};
  } else {
    return field_encoder<Writer>{&w};
  }
}

/// Encodes the fields of chunk Begin with an unchecked writer that starts at `cursor`; returns where
/// it ended (one pointer in and out of the call instead of the whole writer).
template <std::size_t Begin, class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_CHUNK std::uint8_t* encode_field_chunk_at(const T& msg, std::uint8_t* cursor) noexcept {
  msgpack_writer<false> w(cursor, 0);  // capacity: not looked at by unchecked writers
  visit_field_range<Begin>(msg, field_encoder_for<T>(w));
  return w.cursor();
}

/// Encodes the fields of chunk Begin with any writer.
template <std::size_t Begin, class T, class Writer>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_CHUNK Writer encode_field_chunk(const T& msg, Writer w) noexcept {
  visit_field_range<Begin>(msg, field_encoder_for<T>(w));
  return w;
}

template <class T, class Writer>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE void encode_message(const T& msg, Writer& w) noexcept {
  using traits = message_traits<T>;
  if constexpr (traits::format == wire_format::map) {
    w.write_map_header(static_cast<std::uint32_t>(traits::field_count));
  } else {
    w.write_array_header(static_cast<std::uint32_t>(traits::field_count));
  }
  if constexpr (split_into_chunks<T> && std::is_same_v<Writer, msgpack_writer<false>>) {
    std::uint8_t* cursor = w.cursor();
    for_each_field_chunk<T>([&](auto chunk) RINGKERNEL_CODEC_LAMBDA_INLINE {
      cursor = encode_field_chunk_at<decltype(chunk)::value>(msg, cursor);
      return true;
    });
    w.resume_at(cursor);
  } else if constexpr (split_into_chunks<T>) {
    for_each_field_chunk<T>([&](auto chunk) RINGKERNEL_CODEC_LAMBDA_INLINE {
      w = encode_field_chunk<decltype(chunk)::value>(msg, w);
      return true;
    });
  } else {
    traits::visit_fields(msg, field_encoder_for<T>(w));
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

/// Decodes the fields of chunk Begin (format = array).
template <std::size_t Begin, class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_CHUNK codec_status decode_field_chunk(msgpack_reader& r, T& msg,
                                                                           std::uint32_t depth) noexcept {
  msgpack_reader local = r;
  codec_status status = codec_status::ok;
  visit_field_range<Begin>(msg, field_decoder{&local, &status, depth});
  r = local;
  return status;
}

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
  if constexpr (split_into_chunks<T>) {
    for_each_field_chunk<T>([&](auto chunk) RINGKERNEL_CODEC_LAMBDA_INLINE {
      status = decode_field_chunk<decltype(chunk)::value>(r, msg, depth + 1);
      return status == codec_status::ok;
    });
  } else {
    traits::visit_fields(msg, field_decoder{&r, &status, depth + 1});
  }
  for (std::uint32_t extra = static_cast<std::uint32_t>(traits::field_count);
       status == codec_status::ok && extra < count; ++extra) {
    status = r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1));
  }
  return status;
}

template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void copy_fields(const T& source, T& target) noexcept;

/// Copies one decoded field value with its own width; nested messages (and arrays of them) field
/// by field, so that no padding byte of the decoder's uninitialised temporary reaches the target.
/// (A whole-struct copy would load wide words right after the decoder's narrow stores, and stall on
/// store-to-load forwarding: that copy alone cost more than decoding a 64-byte message.)
template <class F>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void copy_field_value(const F& from, F& to) noexcept {
  if constexpr (is_message_v<std::remove_all_extents_t<F>>) {
    if constexpr (std::is_array_v<F>) {
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) copy_field_value(from[i], to[i]);
    } else {
      copy_fields(from, to);
    }
  } else {
    const auto* src = reinterpret_cast<const unsigned char*>(&from);
    auto* dst = reinterpret_cast<unsigned char*>(&to);
    // Arrays go in 8-byte pieces: loads no wider than the decoder's stores forward from them.
    std::size_t done = 0;
    for (; done + 8 <= sizeof(F); done += 8) {
      std::uint64_t piece;
      copy_bytes(&piece, src + done, 8);
      copy_bytes(dst + done, &piece, 8);
    }
    if constexpr (sizeof(F) % 8 != 0) copy_bytes(dst + done, src + done, sizeof(F) % 8);
  }
}

/// Copies each field of a decoded message into the caller's message (the target's field at the
/// source field's offset).
template <class T>
struct field_copier {
  const T* source;
  T* target;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, const F& value) const noexcept {
    const auto offset = reinterpret_cast<const unsigned char*>(&value) - reinterpret_cast<const unsigned char*>(source);
    copy_field_value(value, *reinterpret_cast<F*>(reinterpret_cast<unsigned char*>(target) + offset));
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
RINGKERNEL_DEPRECATED_USES_POP
