// Copyright RingKernel authors.
// Test-only differential oracle: ringkernel::decode against the reference decoder
// (reference_decoder.h) on the same bytes. They must agree on ok versus error; on ok, on the size
// and on every value (bit for bit: floats by their bits, so NaN payloads and -0.0 count); and, when
// the first object is well-formed MessagePack, on the status (the first value in document order
// that breaks a rule of docs/wire-format.md §5 decides it). Used by the fuzz targets and by
// test_differential.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "codec_test_support.h"
#include "reference/reference_decoder.h"

namespace codec_reference {

namespace detail {

inline std::string hex_bytes(const std::uint8_t* data, std::size_t size) {
  return codec_test::hex(codec_test::bytes(data, data + size));
}

inline std::string describe(ringkernel::codec_status status, std::size_t size) {
  return std::string(ringkernel::to_string(status)) + " size " + std::to_string(size);
}

}  // namespace detail

/// Empty when ringkernel::decode<T> and the reference agree on `data`, else a report: the input in
/// hex, both results and, when both decoded, both messages re-encoded canonically.
template <class T>
std::string disagreement(const std::uint8_t* data, std::size_t size) {
  auto fast = std::make_unique<T>();
  auto slow = std::make_unique<T>();
  const ringkernel::codec_result got = ringkernel::decode(data, size, *fast);
  const reference_result want = reference_decode(data, size, *slow);
  const bool got_ok = got.status == codec_status::ok;
  const bool want_ok = want.status == codec_status::ok;
  std::string why;
  if (got_ok != want_ok) {
    why = "ok versus error";
  } else if (got_ok && got.size != want.size) {
    why = "sizes differ";
  } else if (got_ok && !codec_test::values_equal(*fast, *slow)) {
    why = "values differ";
  } else if (!got_ok && want.well_formed && got.status != want.status) {
    why = "statuses differ on well-formed MessagePack";
  }
  if (why.empty()) return why;
  std::string report = std::string(ringkernel::message_traits<T>::name) + ": " + why + "\n  input " +
                       detail::hex_bytes(data, size) + "\n  decode    " + detail::describe(got.status, got.size) +
                       "\n  reference " + detail::describe(want.status, want.size) +
                       (want.well_formed ? " (well-formed)" : " (not well-formed MessagePack)");
  if (got_ok && want_ok) {
    report += "\n  decode    re-encoded " + codec_test::hex(codec_test::encode_to_vector(*fast)) +
              "\n  reference re-encoded " + codec_test::hex(codec_test::encode_to_vector(*slow));
  }
  return report;
}

}  // namespace codec_reference
