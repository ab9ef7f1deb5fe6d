// Copyright RingKernel authors.
// What a message's encoding lacks, in words, for decode diagnostics (ringkernel/decode_diagnostic.h),
// host only: the fields a map message has no key for and the keys it does have (quoted and escaped:
// the bytes are anyone's; at most map_keys_shown of them), or the fields after a short array
// message's last element. Reads the map again with the codec's own reader; the decoder has read it
// completely before it reports missing_field, so this walk ends where the decoder's did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ringkernel/detail/diagnostic_text.h"
#include "ringkernel/detail/field_codec.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/map_message_decoder.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

/// Keys listed in a missing_field report of a map message; the others are counted.
inline constexpr std::uint32_t map_keys_shown = 8;

/// The names of T's fields [first, last) that `missing(i)` selects, quoted and comma-separated.
template <class T, class Missing>
std::string field_names_text(std::size_t first, std::size_t last, Missing missing) {
  std::string out;
  for (std::size_t i = first; i < last; ++i) {
    if (!missing(i)) continue;
    if (!out.empty()) out += ", ";
    const char* name = field_name<T>(i);
    out += quoted_bytes(name, constexpr_strlen(name));
  }
  return out;
}

/// The first field of T that `seen` lacks (T has one).
template <class T>
std::size_t first_missing_field(const field_set<message_traits<T>::field_count>& seen) {
  std::size_t i = 0;
  while (i < message_traits<T>::field_count && seen.test(i)) ++i;
  return i;
}

/// The keys of the map at `map_at` (a map message at nesting `depth`, read completely by the
/// decoder): the first map_keys_shown quoted, then how many more; "none" for an empty map.
inline std::string map_keys_text(const std::uint8_t* in, std::size_t size, std::size_t map_at, std::uint32_t depth) {
  msgpack_reader r(in + map_at, size - map_at);
  std::uint32_t count = 0;
  if (r.read_map_header(count) != codec_status::ok) return {};
  std::string out;
  std::uint32_t i = 0;
  for (; i < count; ++i) {
    const char* key = nullptr;
    std::uint32_t length = 0;
    if (r.read_str(key, length) != codec_status::ok) break;
    if (i < map_keys_shown) {
      if (i > 0) out += ", ";
      out += quoted_bytes(key, length);
    }
    if (r.skip_value<codec_max_depth>(codec_max_depth - (depth + 1)) != codec_status::ok) break;
  }
  if (i == 0) return "none";
  if (i > map_keys_shown) out += concat(" and ", decimal(i - map_keys_shown), " more");
  return out;
}

/// missing_field of a map message of type T at `map_at`: `the map at byte 12 has no key "y"; keys
/// present: "x", "z"` (every missing field named).
template <class T>
std::string missing_map_fields_text(const std::uint8_t* in, std::size_t size, std::size_t map_at, std::uint32_t depth,
                                    const field_set<message_traits<T>::field_count>& seen) {
  constexpr std::size_t n = message_traits<T>::field_count;
  std::size_t missing = 0;
  for (std::size_t i = 0; i < n; ++i) missing += seen.test(i) ? 0u : 1u;
  return concat("the map at byte ", decimal(map_at), missing == 1 ? " has no key " : " has no keys ",
                field_names_text<T>(0, n, [&](std::size_t i) { return !seen.test(i); }), "; keys present: ",
                map_keys_text(in, size, map_at, depth));
}

/// missing_field of an array message of type T with `count` elements (fewer than its fields).
template <class T>
std::string missing_array_fields_text(std::uint32_t count) {
  constexpr std::size_t n = message_traits<T>::field_count;
  return concat("an array of ", count_text(count, "element", "elements"), " where ", message_traits<T>::name, " has ",
                decimal(n), " fields; missing: ", field_names_text<T>(count, n, [](std::size_t) { return true; }));
}

}  // namespace ringkernel::detail
