// Copyright RingKernel authors.
// A float 64 decoded into a float and a float 32 into a double on the device give the host's bits
// (label gpu). Compiled with --use_fast_math (-ftz=true: cvt.f32.f64 would flush subnormals) and on
// a GPU whose conversions return one canonical NaN: the cases of float_conversion_cases.h, then
// random values over every exponent near float's range, each compared with the host's result.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "device_support.h"
#include "float_conversion_cases.h"
#include "random_messages.h"
#include "ringkernel/detail/float_conversion.h"
#include "ringkernel/detail/msgpack_reader.h"

namespace codec_test {
namespace {

struct device_result {
  ringkernel::codec_status status;
  std::uint64_t bits;  // the float's bits in the low 32 for read_float
};

constexpr std::size_t float64_size = 9;
constexpr std::size_t float32_size = 5;

__global__ void read_float_kernel(const std::uint8_t* in, int count, device_result* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  ringkernel::detail::msgpack_reader reader(in + static_cast<std::size_t>(i) * float64_size, float64_size);
  float value = 1.0f;
  out[i].status = reader.read_float(value);
  out[i].bits = __float_as_uint(value);
}

__global__ void read_double_kernel(const std::uint8_t* in, int count, device_result* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= count) return;
  ringkernel::detail::msgpack_reader reader(in + static_cast<std::size_t>(i) * float32_size, float32_size);
  double value = 1.0;
  out[i].status = reader.read_double(value);
  out[i].bits = static_cast<std::uint64_t>(__double_as_longlong(value));
}

/// Each value as a MessagePack float of `size` bytes (9: float 64, 5: float 32), back to back.
std::vector<std::uint8_t> wire(const std::vector<std::uint64_t>& values, std::size_t size) {
  std::vector<std::uint8_t> out;
  for (const std::uint64_t v : values) {
    out.push_back(size == float64_size ? 0xcb : 0xca);
    for (int shift = static_cast<int>(size - 2) * 8; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
  }
  return out;
}

/// Decodes every value on the device: read_float for float 64 input, read_double for float 32.
void decode_on_the_device(const std::vector<std::uint64_t>& values, std::size_t size, std::vector<device_result>& results) {
  const std::vector<std::uint8_t> in = wire(values, size);
  const int count = static_cast<int>(values.size());
  device_buffer<std::uint8_t> d_in(in.size());
  device_buffer<device_result> d_out(values.size());
  CODEC_CUDA_OK(cudaMemcpy(d_in.ptr, in.data(), in.size(), cudaMemcpyHostToDevice));
  if (size == float64_size) {
    read_float_kernel<<<(count + 255) / 256, 256>>>(d_in.ptr, count, d_out.ptr);
  } else {
    read_double_kernel<<<(count + 255) / 256, 256>>>(d_in.ptr, count, d_out.ptr);
  }
  CODEC_CUDA_OK(cudaGetLastError());
  CODEC_CUDA_OK(cudaDeviceSynchronize());
  results.resize(values.size());
  CODEC_CUDA_OK(cudaMemcpy(results.data(), d_out.ptr, results.size() * sizeof(device_result), cudaMemcpyDeviceToHost));
}

TEST_F(CodecDevice, Float64IntoAFloatFieldGivesTheHostsBits) {
  std::vector<std::uint64_t> values;
  for (const narrowing_case& c : narrowing_cases) values.push_back(c.wire);
  std::vector<device_result> results;
  ASSERT_NO_FATAL_FAILURE(decode_on_the_device(values, float64_size, results));
  for (std::size_t i = 0; i < narrowing_case_count; ++i) {
    const narrowing_case& c = narrowing_cases[i];
    SCOPED_TRACE(::testing::Message() << std::hex << "float 64 0x" << c.wire);
    EXPECT_EQ(results[i].status, c.fits ? ringkernel::codec_status::ok : ringkernel::codec_status::value_out_of_range);
    if (c.fits) EXPECT_EQ(results[i].bits, c.bits) << std::hex << "got 0x" << results[i].bits << ", want 0x" << c.bits;
  }
}

TEST_F(CodecDevice, Float32IntoADoubleFieldGivesTheHostsBits) {
  std::vector<std::uint64_t> values;
  for (const widening_case& c : widening_cases) values.push_back(c.wire);
  std::vector<device_result> results;
  ASSERT_NO_FATAL_FAILURE(decode_on_the_device(values, float32_size, results));
  for (std::size_t i = 0; i < widening_case_count; ++i) {
    const widening_case& c = widening_cases[i];
    SCOPED_TRACE(::testing::Message() << std::hex << "float 32 0x" << c.wire);
    EXPECT_EQ(results[i].status, ringkernel::codec_status::ok);
    EXPECT_EQ(results[i].bits, c.bits) << std::hex << "got 0x" << results[i].bits << ", want 0x" << c.bits;
  }
}

// Random bit patterns: every sign, exponents from double subnormals through float's range and
// beyond, NaN payloads; the host's result (checked against its IEEE conversion) is the expectation.
TEST_F(CodecDevice, RandomFloatsConvertOnTheDeviceAsOnTheHost) {
  std::mt19937_64 rng(random_test_seed());
  std::vector<std::uint64_t> doubles;
  std::vector<std::uint64_t> floats;
  for (int i = 0; i < (1 << 20); ++i) {
    const std::uint64_t exponent = i % 8 == 0 ? rng() % 0x800 : 0x340 + rng() % 0x141;  // mostly near float
    doubles.push_back((rng() & 0x800fffffffffffffull) | exponent << 52);
    floats.push_back(rng() & 0xffffffffu);
  }
  std::vector<device_result> narrowed;
  std::vector<device_result> widened;
  ASSERT_NO_FATAL_FAILURE(decode_on_the_device(doubles, float64_size, narrowed));
  ASSERT_NO_FATAL_FAILURE(decode_on_the_device(floats, float32_size, widened));
  int mismatches = 0;
  for (std::size_t i = 0; i < doubles.size() && mismatches < 20; ++i) {
    const ringkernel::detail::narrowed_float host = ringkernel::detail::narrow_double_bits(doubles[i]);
    const bool same = host.fits ? narrowed[i].status == ringkernel::codec_status::ok && narrowed[i].bits == host.bits
                                : narrowed[i].status == ringkernel::codec_status::value_out_of_range;
    if (!same) ++mismatches;
    EXPECT_TRUE(same) << std::hex << "float 64 0x" << doubles[i] << ": device 0x" << narrowed[i].bits << ", host 0x" << host.bits;
  }
  for (std::size_t i = 0; i < floats.size() && mismatches < 20; ++i) {
    const std::uint64_t host = ringkernel::detail::widen_float_bits(static_cast<std::uint32_t>(floats[i]));
    const bool same = widened[i].status == ringkernel::codec_status::ok && widened[i].bits == host;
    if (!same) ++mismatches;
    EXPECT_TRUE(same) << std::hex << "float 32 0x" << floats[i] << ": device 0x" << widened[i].bits << ", host 0x" << host;
  }
}

}  // namespace
}  // namespace codec_test
