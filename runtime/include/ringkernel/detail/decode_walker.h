// Copyright RingKernel authors.
// The walk behind ringkernel::describe_decode_failure (ringkernel/decode_diagnostic.h), host only:
// reads a message's bytes again the way the decoder reads them (message_codec.h,
// map_message_decoder.h, field_codec.h), keeping the path of the value being read
// (".tags[1].id"), and stops at the first value the decoder refuses, with the decoder's status and
// offset and what it found there. Every scalar, str and bin is read by the decoder's own
// decode_value, and headers, keys and skipped values by its reader, so the two stop at the same
// value; the caller checks that they did. Recursion follows the message type only (its depth is at
// most max_decode_depth, checked at compile time); skipped values go through the reader's skip_value
// (a fixed stack). Nothing is allocated but the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "ringkernel/detail/diagnostic_text.h"
#include "ringkernel/detail/field_codec.h"
#include "ringkernel/detail/field_type.h"
#include "ringkernel/detail/map_key_report.h"
#include "ringkernel/detail/map_message_decoder.h"
#include "ringkernel/detail/msgpack_reader.h"
#include "ringkernel/detail/value_diagnostic.h"
#include "ringkernel/message.h"
#include "ringkernel/status.h"

namespace ringkernel::detail {

/// Where the walk stopped: the decoder's status and offset, the path of the refused value from the
/// outermost message (".origin.y", "[1]", ".header.sender_id"; empty: the outermost value itself)
/// and what was found there.
struct decode_failure_site {
  codec_status status = codec_status::ok;
  std::size_t offset = 0;
  std::string path;
  std::string detail;
};

/// The index of T's field named by the `length` bytes at `key`; field_count when none is.
template <class T>
std::size_t field_named(const char* key, std::uint32_t length) {
  constexpr std::size_t n = message_traits<T>::field_count;
  if constexpr (n > 0) {
    for (std::size_t i = 0; i < n; ++i) {
      const char* name = field_name<T>(i);
      if (constexpr_strlen(name) == length && bytes_equal(key, name, length)) return i;
    }
  }
  return n;
}

class decode_walker {
 public:
  decode_walker(const std::uint8_t* in, std::size_t size) noexcept : in_(in), size_(size), r_(in, size) {}

  msgpack_reader& reader() noexcept { return r_; }
  const decode_failure_site& failure() const noexcept { return failure_; }

  /// Appends a segment to the path; returns what pop() takes to remove it.
  std::size_t push(const std::string& segment) {
    const std::size_t before = path_.size();
    path_ += segment;
    return before;
  }
  void pop(std::size_t before) { path_.resize(before); }

  /// Records the failure `status` at the reader's position (and the current path); returns false.
  bool fail(codec_status status, std::string detail) {
    failure_ = {status, r_.offset(), path_, std::move(detail)};
    return false;
  }
  /// The same at `offset` (where the decoder reports a value it read before it found the problem).
  bool fail_at(std::size_t offset, codec_status status, std::string detail) {
    r_.rewind(in_ + offset);
    return fail(status, std::move(detail));
  }

  /// Skips one value as the decoder skips an extra element or an unknown key's value, `budget`
  /// levels deep at most; on failure says where: "... in <where>, which decode skips".
  bool skip(std::uint32_t budget, const std::string& where) {
    const codec_status s = r_.skip_value<codec_max_depth>(budget);
    if (s == codec_status::ok) return true;
    std::string what;
    if (s == codec_status::nesting_too_deep) {
      what = concat(msgpack_item_text(in_ + r_.offset(), in_ + size_), " nested deeper than max_decode_depth (",
                    decimal(codec_max_depth), " levels in all)");
    } else if (s == codec_status::truncated_input) {
      what = truncation_text(in_, size_, r_.offset());
    } else {
      what = "the byte 0xc1, which MessagePack never uses";
    }
    return fail(s, concat(what, ", in ", where, ", which decode skips"));
  }

  /// A container header the reader refused with `s` where `expected` ("an envelope takes ...") was.
  bool refused_header(codec_status s, const std::string& expected) {
    const std::size_t at = r_.offset();
    if (s == codec_status::type_mismatch) return fail(s, concat(msgpack_item_text(in_ + at, in_ + size_), " where ", expected));
    if (s == codec_status::truncated_input) return fail(s, truncation_text(in_, size_, at));
    return fail(s, "the byte 0xc1, which MessagePack never uses");
  }

  /// One value of C++ type F at nesting `depth`, as decode_value reads it.
  template <class F>
  bool value(F& v, std::uint32_t depth) {
    constexpr wire_shape shape = shape_of<F>();
    if constexpr (shape == wire_shape::message) {
      return message(v, depth);
    } else if constexpr (shape == wire_shape::array) {
      const std::size_t start = r_.offset();
      std::uint32_t count = 0;
      if (const codec_status s = r_.read_array_header(count); s != codec_status::ok) return refused<F>(s);
      if (count != std::extent_v<F>) {
        r_.rewind(in_ + start);
        return refused<F>(codec_status::wrong_length);
      }
      for (std::size_t i = 0; i < std::extent_v<F>; ++i) {
        const std::size_t mark = push(concat("[", decimal(i), "]"));
        if (!value(v[i], depth + 1)) return false;
        pop(mark);
      }
      return true;
    } else {
      const codec_status s = decode_value(r_, v, depth);
      return s == codec_status::ok || refused<F>(s);
    }
  }

  /// A message of type T at nesting `depth` (its fields at depth + 1), as decode_message reads it.
  template <class T>
  bool message(T& msg, std::uint32_t depth) {
    if constexpr (message_traits<T>::format == wire_format::map) {
      return map_message(msg, depth);
    } else {
      return array_message(msg, depth);
    }
  }

 private:
  template <class F>
  bool refused(codec_status s) {
    return fail(s, value_failure_text<F>(s, in_, size_, r_.offset()));
  }

  /// Field `index` of `msg`, its name added to the path.
  template <class T>
  bool field(T& msg, std::size_t index, std::uint32_t depth) {
    const std::size_t mark = push(concat(".", field_name<T>(index)));
    bool ok = true;
    message_traits<T>::visit_fields(msg, [&](auto i, auto& member) {
      if (decltype(i)::value == index) ok = value(member, depth);
    });
    if (ok) pop(mark);
    return ok;
  }

  template <class T>
  bool array_message(T& msg, std::uint32_t depth) {
    constexpr std::size_t n = message_traits<T>::field_count;
    const std::size_t start = r_.offset();
    std::uint32_t count = 0;
    if (const codec_status s = r_.read_array_header(count); s != codec_status::ok) return refused<T>(s);
    if constexpr (n > 0) {
      if (count < n) {
        push(concat(".", field_name<T>(count)));
        return fail_at(start, codec_status::missing_field, missing_array_fields_text<T>(count));
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (!field(msg, i, depth + 1)) return false;
      }
    }
    for (std::uint32_t extra = static_cast<std::uint32_t>(n); extra < count; ++extra) {
      if (!skip(codec_max_depth - (depth + 1), concat("extra element ", decimal(extra), " (after ", message_traits<T>::name,
                                                      "'s ", decimal(n), " fields)"))) {
        return false;
      }
    }
    return true;
  }

  template <class T>
  bool map_message(T& msg, std::uint32_t depth) {
    constexpr std::size_t n = message_traits<T>::field_count;
    const std::size_t start = r_.offset();
    std::uint32_t count = 0;
    if (const codec_status s = r_.read_map_header(count); s != codec_status::ok) return refused<T>(s);
    field_set<n> seen;
    std::size_t first_key_at[n + 1] = {};  // +1: no zero-length array
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t key_at = r_.offset();
      const char* key = nullptr;
      std::uint32_t length = 0;
      if (const codec_status s = r_.read_str(key, length); s != codec_status::ok) {
        // (Only type_mismatch, truncated_input and invalid_input come from read_str.)
        return fail(s, s == codec_status::type_mismatch
                           ? concat("map key ", decimal(i), " is ", msgpack_item_text(in_ + key_at, in_ + size_), ", not a str")
                           : concat("map key ", decimal(i), ": ", value_failure_text<char[1]>(s, in_, size_, key_at)));
      }
      const std::size_t index = field_named<T>(key, length);
      if (index == n) {
        if (!skip(codec_max_depth - (depth + 1),
                  concat("the value of unknown key ", quoted_bytes(key, length), " (at byte ", decimal(key_at), ")"))) {
          return false;
        }
        continue;
      }
      if (seen.test(index)) {
        push(concat(".", field_name<T>(index)));
        return fail_at(key_at, codec_status::duplicate_field,
                       concat("the key ", quoted_bytes(key, length), " again, first at byte ", decimal(first_key_at[index])));
      }
      seen.set(index);
      first_key_at[index] = key_at;
      if (!field(msg, index, depth + 1)) return false;
    }
    if (!seen.all()) {
      push(concat(".", field_name<T>(first_missing_field<T>(seen))));
      return fail_at(start, codec_status::missing_field, missing_map_fields_text<T>(in_, size_, start, depth, seen));
    }
    return true;
  }

  const std::uint8_t* in_;
  std::size_t size_;
  msgpack_reader r_;
  std::string path_;
  decode_failure_site failure_;
};

}  // namespace ringkernel::detail
