// Copyright RingKernel authors.
// Compile-only check (target codec_map_device_nvcc_check, under the memory and time limit of
// limited_compile.sh) of device code that made nvcc's cicc run out of memory: the decode of map
// messages with many fields, and a decode followed by an encode into a local buffer, in both
// formats (map_device_messages.h says why). Never launched.
#include <cstddef>
#include <cstdint>

#include "map_device_messages.rk.h"
#include "ringkernel/codec.h"

namespace codec_device_check {

template <class T>
__global__ void decode_kernel(const std::uint8_t* in, std::size_t size, T* out, ringkernel::codec_status* status) {
  *status = ringkernel::decode(in, size, *out).status;
}

template <class T>
__global__ void encode_kernel(const T* in, std::uint8_t* out, std::size_t capacity, std::size_t* size) {
  *size = ringkernel::encode(*in, out, capacity).size;
}

/// Decodes, then encodes into a buffer of the kernel's own: only the size leaves it.
template <class T>
__global__ void decode_encode_local_kernel(const std::uint8_t* in, std::size_t size, std::size_t* encoded_size) {
  T msg{};
  if (ringkernel::decode(in, size, msg).status != ringkernel::codec_status::ok) return;
  std::uint8_t buffer[ringkernel::max_encoded_size<T>];
  *encoded_size = ringkernel::encode(msg, buffer, sizeof buffer).size;
}

}  // namespace codec_device_check

namespace check = codec_device_check;
using check::DeviceMixedMap;
using check::DeviceTelemetry;
using check::DeviceTelemetryArray;
using ringkernel::codec_status;
template __global__ void check::decode_kernel<DeviceTelemetry>(const std::uint8_t*, std::size_t, DeviceTelemetry*,
                                                               codec_status*);
template __global__ void check::encode_kernel<DeviceTelemetry>(const DeviceTelemetry*, std::uint8_t*, std::size_t,
                                                               std::size_t*);
template __global__ void check::decode_encode_local_kernel<DeviceTelemetry>(const std::uint8_t*, std::size_t,
                                                                            std::size_t*);
template __global__ void check::decode_encode_local_kernel<DeviceTelemetryArray>(const std::uint8_t*, std::size_t,
                                                                                 std::size_t*);
template __global__ void check::decode_kernel<DeviceMixedMap>(const std::uint8_t*, std::size_t, DeviceMixedMap*,
                                                              codec_status*);
template __global__ void check::encode_kernel<DeviceMixedMap>(const DeviceMixedMap*, std::uint8_t*, std::size_t,
                                                              std::size_t*);
template __global__ void check::decode_encode_local_kernel<DeviceMixedMap>(const std::uint8_t*, std::size_t,
                                                                           std::size_t*);
