// Copyright RingKernel authors.
// Decoding of format = map messages: entries of field name and value, in any order. In host code,
// keys in declaration order, what encoders write, take a straight-line path like an array's: each
// field's key is compared with its encoding as constant words (field_keys.h) and its value decoded.
// From the first other key on (in device code, from the first key), each key is looked up among the
// fields: in host code each field's name compare decodes that field's value; in device code the
// compares find the field's index first and a switch on it decodes the value (indexed_field_decoder
// says why). Unknown keys are skipped (bounded by
// the nesting limit); missing and repeated fields are errors. Both paths report the same status at
// the same offset for any input: the ordered one stops at the first key it does not expect and
// leaves that key to the lookup.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ringkernel/config.h"
#include "ringkernel/detail/byte_ops.h"
#include "ringkernel/detail/field_chunks.h"
#include "ringkernel/detail/field_codec.h"
#include "ringkernel/detail/field_keys.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

// The in-order key path is host code only. In device code it made nvcc take 25-42% longer on the
// codec's device test sources (a second decode path per field), for a speed-up not yet measured on
// a GPU (bench/RESULTS.md); device code looks every key up as before (and so does host code built
// with RINGKERNEL_CODEC_DEVICE_PATHS, byte_ops.h).
#if defined(__CUDA_ARCH__) || defined(RINGKERNEL_CODEC_DEVICE_PATHS)
#define RINGKERNEL_CODEC_MAP_KEYS_IN_ORDER 0
#else
#define RINGKERNEL_CODEC_MAP_KEYS_IN_ORDER 1
#endif

RINGKERNEL_DEPRECATED_USES_PUSH  // a [[deprecated]] T or F warns only where the user names it (config.h)
namespace ringkernel::detail {

/// Which fields a map has given so far (format = map).
template <std::size_t N>
struct field_set {
  std::uint64_t words[(N + 63) / 64 + 1] = {};  // +1: no zero-length array when N == 0
  RINGKERNEL_HOST_DEVICE bool test(std::size_t i) const noexcept { return (words[i / 64] >> (i % 64)) & 1u; }
  RINGKERNEL_HOST_DEVICE void set(std::size_t i) noexcept { words[i / 64] |= std::uint64_t{1} << (i % 64); }
  /// Sets fields [0, n) (of none so far).
  RINGKERNEL_HOST_DEVICE void set_first(std::size_t n) noexcept {
    std::size_t w = 0;
    for (; w < n / 64; ++w) words[w] = ~std::uint64_t{0};
    if (n % 64 != 0) words[w] = (std::uint64_t{1} << (n % 64)) - 1;
  }
  RINGKERNEL_HOST_DEVICE bool all() const noexcept {
    if constexpr (N >= 64) {  // (nvcc: `w < 0u` would be a pointless comparison, an error here)
      for (std::size_t w = 0; w < N / 64; ++w) {
        if (words[w] != ~std::uint64_t{0}) return false;
      }
    }
    if constexpr (N % 64 != 0) return words[N / 64] == (std::uint64_t{1} << (N % 64)) - 1;
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

/// Device code's lookup (and RINGKERNEL_CODEC_DEVICE_PATHS'): sets `*index` to the index of the
/// field that the key just read names; leaves it at field_count when none does. Name compares only.
template <class T>
struct field_name_matcher {
  const char* key;
  std::uint32_t key_length;
  std::size_t* index;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, F&) const noexcept {
    if (*index == message_traits<T>::field_count && key_length == field_name_length<T, I> &&
        bytes_equal(key, message_traits<T>::field(I).name, key_length)) {
      *index = I;
    }
  }
};

/// Decodes the value of field `index` (field_name_matcher's; a repeated one is an error): in device
/// code the fields' decoders are the arms of one switch on the index. Each decoder inside
/// keyed_field_decoder's chain of name compares instead made nvcc's cicc copy decoders, to carry
/// what a compare had learnt about the key (names of one length and prefix: c0, c1, ...) past them
/// to the next compare: a map of 2 float and 16 or 30 int32 fields ran it out of memory (> 9 GB),
/// 1 float and 16 int32 took 141-198 s and 2 GB (tests/codec/device/map_device_messages.h).
template <class T>
struct indexed_field_decoder {
  msgpack_reader* r;
  std::size_t index;
  msgpack_reader::mark key_start;
  field_set<message_traits<T>::field_count>* seen;
  std::uint32_t depth;
  codec_status* status;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, F& value) const noexcept {
    if (index != I) return;
    if (seen->test(I)) {  // (I constant: the field set stays in registers)
      *status = r->fail_at(key_start, codec_status::duplicate_field);
      return;
    }
    seen->set(I);
    *status = decode_value(*r, value, depth);
  }
};

/// Decodes field I when the fields before it were (`*next == I`) and its own key comes next; the
/// first key of another field, an unknown key or any other bytes stop it, the reader at that key.
template <class T>
struct ordered_field_decoder {
  msgpack_reader* r;
  std::uint32_t* next;  // fields decoded so far, all in declaration order
  codec_status* status;
  std::uint32_t depth;
  template <std::size_t I, class F>
  RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE void operator()(field_index<I>, F& value) const noexcept {
    if (*status != codec_status::ok || *next != I ||
        !r->consume_matching<field_key_size<T, I>>(
            [](const std::uint8_t* p) RINGKERNEL_CODEC_LAMBDA_INLINE { return is_field_key<T, I>(p); })) {
      return;
    }
    *next = I + 1;
    *status = decode_value(*r, value, depth);
  }
};

/// The ordered path over the fields of chunk Begin (chunked messages).
template <std::size_t Begin, class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_CHUNK codec_status decode_ordered_field_chunk(msgpack_reader& r, T& msg,
                                                                                   std::uint32_t& next,
                                                                                   std::uint32_t depth) noexcept {
  msgpack_reader local = r;
  std::uint32_t decoded = next;
  codec_status status = codec_status::ok;
  visit_field_range<Begin>(msg, ordered_field_decoder<T>{&local, &decoded, &status, depth});
  r = local;
  next = decoded;
  return status;
}

/// Decodes the map's leading entries whose keys are T's fields in declaration order; `next`: how
/// many. Only for a map of at least field_count entries (a shorter one lacks a field anyway, and the
/// lookup reports it), so that it reads no entry beyond the map.
template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_INLINE codec_status decode_ordered_fields(msgpack_reader& r, T& msg, std::uint32_t& next,
                                                                                std::uint32_t depth) noexcept {
  codec_status status = codec_status::ok;
  if constexpr (split_into_chunks<T>) {
    for_each_field_chunk<T>([&](auto chunk) RINGKERNEL_CODEC_LAMBDA_INLINE {
      constexpr std::size_t begin = decltype(chunk)::value;
      status = decode_ordered_field_chunk<begin>(r, msg, next, depth);
      return status == codec_status::ok && next == begin + field_chunk_size;
    });
  } else {
    message_traits<T>::visit_fields(msg, ordered_field_decoder<T>{&r, &next, &status, depth});
  }
  return status;
}

/// The names of T's fields with their lengths: map keys are looked up in it at run time when T's
/// fields are decoded in chunks (no per-field code for the lookup).
template <class T>
struct field_name_table {
  struct entry {
    const char* name;
    std::uint32_t length;
  };
  entry entries[message_traits<T>::field_count];
};

template <class T>
inline constexpr field_name_table<T> field_names = [] {
  field_name_table<T> table{};
  for (std::size_t i = 0; i < message_traits<T>::field_count; ++i) {
    const char* name = field_name<T>(i);
    table.entries[i] = {name, static_cast<std::uint32_t>(constexpr_strlen(name))};
  }
  return table;
}();

/// The index of the field named `key`, tried first at `expected`; field_count when there is none.
template <class T>
RINGKERNEL_HOST_DEVICE std::size_t find_field(const char* key, std::uint32_t length, std::size_t expected) noexcept {
  constexpr std::size_t count = message_traits<T>::field_count;
  const auto& names = field_names<T>.entries;
  if (expected < count && names[expected].length == length && bytes_equal(key, names[expected].name, length)) {
    return expected;
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (names[i].length == length && bytes_equal(key, names[i].name, length)) return i;
  }
  return count;
}

/// Decodes map entries from entry `next` on while their keys name fields of chunk Begin (format =
/// map, chunked messages), each as decode_map_message does; stops before the first key that names
/// none of them (the reader back at that key) or after the last entry. `next` counts the entries
/// read. One call per run of keys in one chunk: a map in declaration order takes one per chunk.
template <std::size_t Begin, class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_CHUNK codec_status decode_map_entries(msgpack_reader& r, T& msg,
                                                                           field_set<message_traits<T>::field_count>& seen,
                                                                           std::uint32_t& next, std::uint32_t count,
                                                                           std::uint32_t depth) noexcept {
  msgpack_reader local = r;
  field_set<message_traits<T>::field_count> seen_here = seen;
  codec_status status = codec_status::ok;
  std::uint32_t i = next;
  for (; i < count; ++i) {
    const msgpack_reader::mark key_start = local.position();
    const char* key = nullptr;
    std::uint32_t key_length = 0;
    if (status = local.read_str(key, key_length); status != codec_status::ok) break;
    bool matched = false;
    visit_field_range<Begin>(msg, keyed_field_decoder<T>{&local, key, key_length, key_start, &seen_here, depth,
                                                         &matched, &status});
    if (!matched) {
      local.rewind(key_start);
      break;
    }
    if (status != codec_status::ok) break;
  }
  r = local;
  seen = seen_here;
  next = i;
  return status;
}


template <class T>
RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_FOLD_INLINE codec_status decode_map_message(msgpack_reader& r, T& msg, std::uint32_t depth) noexcept {
  using traits = message_traits<T>;
  const msgpack_reader::mark start = r.position();
  std::uint32_t count = 0;
  if (const codec_status s = r.read_map_header(count); s != codec_status::ok) return s;
  std::uint32_t i = 0;  // entries read
  // (Not for a message without fields: nvcc calls `count >= 0u` pointless, an error under
  // -Werror=all-warnings.)
  if constexpr (RINGKERNEL_CODEC_MAP_KEYS_IN_ORDER != 0 && traits::field_count > 0) {
    if (count >= traits::field_count) {
      if (const codec_status s = decode_ordered_fields(r, msg, i, depth + 1); s != codec_status::ok) return s;
    }
  }
  field_set<traits::field_count> seen;
  seen.set_first(i);
  if constexpr (split_into_chunks<T>) {
    while (i < count) {
      // The chunk of the field that the next key names, looked up where declaration order puts it
      // first; that chunk then decodes entries as long as their keys are its fields.
      const msgpack_reader::mark key_start = r.position();
      const char* key = nullptr;
      std::uint32_t key_length = 0;
      if (const codec_status s = r.read_str(key, key_length); s != codec_status::ok) return s;
      const std::size_t index = find_field<T>(key, key_length, i);
      codec_status status = codec_status::ok;
      if (index == traits::field_count) {  // unknown key
        status = r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1));
        ++i;
      } else {
        r.rewind(key_start);
        with_field_chunk_of<T>(index, [&](auto chunk) RINGKERNEL_CODEC_LAMBDA_INLINE {
          status = decode_map_entries<decltype(chunk)::value>(r, msg, seen, i, count, depth + 1);
        });
      }
      if (status != codec_status::ok) return status;
    }
  } else {
    for (; i < count; ++i) {
      const msgpack_reader::mark key_start = r.position();
      const char* key = nullptr;
      std::uint32_t key_length = 0;
      if (const codec_status s = r.read_str(key, key_length); s != codec_status::ok) return s;
      codec_status status = codec_status::ok;
      if constexpr (RINGKERNEL_CODEC_MAP_KEYS_IN_ORDER == 0) {  // device code: the index, then its decoder
        std::size_t index = traits::field_count;
        traits::visit_fields(msg, field_name_matcher<T>{key, key_length, &index});
        if (index == traits::field_count) {
          status = r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1));
        } else {
          traits::visit_fields(msg, indexed_field_decoder<T>{&r, index, key_start, &seen, depth + 1, &status});
        }
      } else {
        bool matched = false;
        traits::visit_fields(msg, keyed_field_decoder<T>{&r, key, key_length, key_start, &seen, depth + 1,
                                                         &matched, &status});
        if (!matched) status = r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1));
      }
      if (status != codec_status::ok) return status;
    }
  }
  if (!seen.all()) return r.fail_at(start, codec_status::missing_field);
  return codec_status::ok;
}

}  // namespace ringkernel::detail
RINGKERNEL_DEPRECATED_USES_POP
