// Copyright RingKernel authors.
// Compile-only check (nvcc, -Werror all-warnings) of messages of more than 32 fields
// (tests/codec/messages/many_fields.h): in host code, nvcc's host pass, they encode
// and decode through chunk functions (ringkernel/detail/field_chunks.h); in device code as one
// function, as every other message. Never launched.
#include <cstddef>
#include <cstdint>

#include "many_fields.rk.h"
#include "ringkernel/codec.h"

namespace codec_nvcc_check {

template <class T>
__host__ __device__ ringkernel::codec_status many_fields_round_trip(const T& in, T& out, std::uint8_t* buffer) {
  const ringkernel::codec_result e = ringkernel::encode(in, buffer, ringkernel::max_encoded_size<T>);
  const ringkernel::codec_result d = ringkernel::decode(buffer, e.size, out);
  const ringkernel::codec_result small = ringkernel::encode(in, buffer, e.size / 2);  // the checked writer
  return e.status != ringkernel::codec_status::ok ? e.status
         : d.status != ringkernel::codec_status::ok ? d.status
                                                     : small.status;
}

template <class T>
__global__ void many_fields_kernel(const T* in, T* out, std::uint8_t* scratch, ringkernel::codec_status* status) {
  std::uint8_t* buffer = scratch + static_cast<std::size_t>(threadIdx.x) * ringkernel::max_encoded_size<T>;
  status[threadIdx.x] = many_fields_round_trip(in[threadIdx.x], out[threadIdx.x], buffer);
}

}  // namespace codec_nvcc_check

template __global__ void codec_nvcc_check::many_fields_kernel<codec_test::ManyFields>(const codec_test::ManyFields*, codec_test::ManyFields*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::many_fields_kernel<codec_test::ManyFieldsMap>(const codec_test::ManyFieldsMap*, codec_test::ManyFieldsMap*, std::uint8_t*, ringkernel::codec_status*);
template ringkernel::codec_status codec_nvcc_check::many_fields_round_trip<codec_test::ManyFields>(const codec_test::ManyFields&, codec_test::ManyFields&, std::uint8_t*);
template ringkernel::codec_status codec_nvcc_check::many_fields_round_trip<codec_test::ManyFieldsMap>(const codec_test::ManyFieldsMap&, codec_test::ManyFieldsMap&, std::uint8_t*);
