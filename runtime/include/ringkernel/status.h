// Copyright RingKernel authors.
// Status codes returned by device-capable runtime code (device code never throws).
#pragma once

#include <cstdint>

#include "ringkernel/config.h"

namespace ringkernel {

/// Result of a MessagePack encode or decode (DESIGN.md §5, docs/wire-format.md).
enum class codec_status : std::uint8_t {
  ok = 0,
  buffer_too_small = 1,     // encode: the output capacity cannot hold the encoding (msgpack::unpack:
                            // msgpack-c could not allocate its temporary buffer)
  truncated_input = 2,      // decode: the input ends inside a value; a registry's
                            // dispatch_kernel_message: fewer bytes than the KernelMessage<T>
  type_mismatch = 3,        // decode: a msgpack type that cannot represent the field (e.g. str for an int)
  value_out_of_range = 4,   // decode: a value the field type cannot hold (300 for a uint8_t, NUL in a str);
                            // encode_envelope: a header field not sendable (envelope_header_problem)
  wrong_length = 5,         // decode: str longer than its char[N], bin or array length other than N
  nesting_too_deep = 6,     // decode: arrays/maps nested deeper than ringkernel::max_decode_depth
  duplicate_field = 7,      // decode: a map names the same field twice
  missing_field = 8,        // decode: an array with fewer elements than fields, a map without a field
  invalid_input = 9,        // decode: bytes that are not MessagePack (the never-used byte 0xc1);
                            // a registry's dispatch_kernel_message: a raw message not aligned
                            // for its KernelMessage<T>
  wrong_message_type = 10,  // envelope: a valid type id of another message type (decode: try another
                            // decoder, ringkernel::peek_envelope_type_id names it; a registry's
                            // dispatch: no message of the registry has it); encode: a header
                            // type_id other than T's
};

RINGKERNEL_HOST_DEVICE constexpr const char* to_string(codec_status s) noexcept {
  switch (s) {
    case codec_status::ok: return "ok";
    case codec_status::buffer_too_small: return "buffer too small";
    case codec_status::truncated_input: return "truncated input";
    case codec_status::type_mismatch: return "type mismatch";
    case codec_status::value_out_of_range: return "value out of range";
    case codec_status::wrong_length: return "wrong array/str/bin length";
    case codec_status::nesting_too_deep: return "nesting too deep";
    case codec_status::duplicate_field: return "duplicate field";
    case codec_status::missing_field: return "missing field";
    case codec_status::invalid_input: return "invalid input (the byte 0xc1, or a misaligned raw message)";
    case codec_status::wrong_message_type: return "wrong message type";
  }
  return "unknown status";
}

}  // namespace ringkernel
