// Copyright RingKernel authors.
// Compiled twice with -rdc=true (as translation units RK_UNIT=1 and 2) and device-linked by
// check_device_rdc.cmake (test codec.device_rdc_link): the codec's device functions of their own
// (byte_ops.h, RINGKERNEL_CODEC_DEVICE_OUTLINED / _NOINLINE) must be definable in every
// translation unit of a program built with relocatable device code, as every header function is.
#include <cstddef>
#include <cstdint>

#include "handwritten_traits.h"
#include "ringkernel/codec.h"
#include "ringkernel/envelope_codec.h"

#define RK_CONCAT_(a, b) a##b
#define RK_CONCAT(a, b) RK_CONCAT_(a, b)

__global__ void RK_CONCAT(codec_in_unit_, RK_UNIT)(const std::uint8_t* in, std::size_t size,
                                                 ringkernel::KernelMessage<codec_test::Point>* message,
                                                 codec_test::Telemetry64* telemetry, std::uint8_t* out,
                                                 ringkernel::codec_status* status) {
  status[0] = ringkernel::decode_envelope(in, size, *message).status;  // envelope elements, skip_value
  status[1] = ringkernel::decode(in, size, *telemetry).status;         // float and double other forms
  status[2] = ringkernel::encode(message->payload, out, 2).status;     // checked writer
  status[3] = ringkernel::encode_envelope(*message, out, 2).status;    // checked envelope writer
}
