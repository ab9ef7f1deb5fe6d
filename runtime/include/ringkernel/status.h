// Copyright RingKernel authors.
// Status codes returned by device-capable runtime code (device code never throws).
#pragma once

#include <cstdint>

#include "ringkernel/config.h"

namespace ringkernel {

/// Result of a MessagePack encode or decode (DESIGN.md §5, docs/wire-format.md).
enum class codec_status : std::uint8_t {
  ok = 0,
  buffer_too_small,   // encode: the output capacity cannot hold the encoding
  truncated_input,    // decode: the input ends inside a value
  type_mismatch,      // decode: a msgpack type that cannot represent the field
  value_out_of_range, // decode: a number that does not fit the field type
  wrong_length,       // decode: array/map/str/bin length differs from what the field allows
  nesting_too_deep,   // decode: nested messages/arrays deeper than the decoder's limit
  unknown_field,      // decode: a map key that names no field (only when unknown keys are rejected)
  duplicate_field,    // decode: a map key given twice
  missing_field,      // decode: a map lacks a field that has no default
  invalid_input,      // decode: bytes that are not valid MessagePack (e.g. reserved 0xc1)
};

RINGKERNEL_HOST_DEVICE constexpr const char* to_string(codec_status s) {
  switch (s) {
    case codec_status::ok: return "ok";
    case codec_status::buffer_too_small: return "buffer too small";
    case codec_status::truncated_input: return "truncated input";
    case codec_status::type_mismatch: return "type mismatch";
    case codec_status::value_out_of_range: return "value out of range";
    case codec_status::wrong_length: return "wrong array/map/string length";
    case codec_status::nesting_too_deep: return "nesting too deep";
    case codec_status::unknown_field: return "unknown field";
    case codec_status::duplicate_field: return "duplicate field";
    case codec_status::missing_field: return "missing field";
    case codec_status::invalid_input: return "invalid MessagePack";
  }
  return "unknown status";
}

}  // namespace ringkernel
