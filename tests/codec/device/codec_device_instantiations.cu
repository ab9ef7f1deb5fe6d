// Copyright RingKernel authors.
// Compile-only check that the codec builds as device code with nvcc (-Werror all-warnings): one
// kernel per test message that encodes, decodes and uses max_encoded_size. Never launched.
#include <cstddef>
#include <cstdint>

#include "ringkernel/codec.h"
#if defined(CODEC_TEST_GENERATED_TRAITS)
#include "codec_messages.rk.h"
#else
#include "handwritten_traits.h"
#endif

namespace codec_nvcc_check {

template <class T>
__global__ void codec_round_trip(const T* in, T* out, std::uint8_t* scratch, ringkernel::codec_status* status) {
  static_assert(ringkernel::max_encoded_size<T> > 0);
  std::uint8_t* buffer = scratch + static_cast<std::size_t>(threadIdx.x) * ringkernel::max_encoded_size<T>;
  const ringkernel::codec_result e = ringkernel::encode(in[threadIdx.x], buffer, ringkernel::max_encoded_size<T>);
  const ringkernel::codec_result d = ringkernel::decode(buffer, e.size, out[threadIdx.x]);
  // A smaller capacity takes the checked writer.
  const ringkernel::codec_result small = ringkernel::encode(in[threadIdx.x], buffer, e.size / 2);
  status[threadIdx.x] = e.status != ringkernel::codec_status::ok ? e.status
                        : d.status != ringkernel::codec_status::ok ? d.status
                                                                    : small.status;
}

}  // namespace codec_nvcc_check

// Explicit instantiations: every message kind, both formats, nested and wide messages.
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Scalars>(const codec_test::Scalars*, codec_test::Scalars*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::ScalarsMap>(const codec_test::ScalarsMap*, codec_test::ScalarsMap*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Point>(const codec_test::Point*, codec_test::Point*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Tag>(const codec_test::Tag*, codec_test::Tag*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Arrays>(const codec_test::Arrays*, codec_test::Arrays*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::ArraysMap>(const codec_test::ArraysMap*, codec_test::ArraysMap*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Wide>(const codec_test::Wide*, codec_test::Wide*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Outer>(const codec_test::Outer*, codec_test::Outer*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Telemetry64>(const codec_test::Telemetry64*, codec_test::Telemetry64*, std::uint8_t*, ringkernel::codec_status*);
template __global__ void codec_nvcc_check::codec_round_trip<codec_test::Order128>(const codec_test::Order128*, codec_test::Order128*, std::uint8_t*, ringkernel::codec_status*);
