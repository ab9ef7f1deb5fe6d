// Copyright RingKernel authors.
// Compiled to PTX by check_device_outlining.cmake (test codec.device_outlining): kernels that decode
// the envelopes of two message types, decode float fields and encode into a small buffer. The
// paths every such kernel shares (the envelope's elements, skipping unknown values, the float
// forms other than the field's own, the checked writer) must be calls to one device function each,
// not a copy per message type and field: nvcc inlines whatever it may, and those copies took it
// minutes for a registry of 38 types (byte_ops.h, RINGKERNEL_CODEC_DEVICE_NOINLINE).
#include <cstddef>
#include <cstdint>

#include "handwritten_traits.h"
#include "ringkernel/codec.h"
#include "ringkernel/envelope_codec.h"

namespace outlining {

__global__ void decode_two_envelopes(const std::uint8_t* in, std::size_t size,
                                     ringkernel::KernelMessage<codec_test::Telemetry64>* a,
                                     ringkernel::KernelMessage<codec_test::Order128>* b, ringkernel::codec_status* status) {
  status[0] = ringkernel::decode_envelope(in, size, *a).status;
  status[1] = ringkernel::decode_envelope(in, size, *b).status;
}

__global__ void decode_floats(const std::uint8_t* in, std::size_t size, codec_test::Scalars* out,
                              ringkernel::codec_status* status) {
  status[0] = ringkernel::decode(in, size, *out).status;
}

__global__ void encode_small(const codec_test::Telemetry64* in, std::uint8_t* out, std::size_t capacity,
                             ringkernel::codec_status* status) {
  status[0] = ringkernel::encode(*in, out, capacity).status;
}

}  // namespace outlining
