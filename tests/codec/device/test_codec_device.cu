// Copyright RingKernel authors.
// Codec on a CUDA device (label gpu): messages encoded by device threads decode on the host to the
// same values with the same bytes as host encoding; host-encoded bytes decode on the device; a
// truncated input fails on the device with the host's status; random messages of every test type
// (random_messages.h) give the same bytes, values and statuses on both. Skips visibly without a
// device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codec_test_support.h"
#include "device_support.h"
#include "random_messages.h"

namespace codec_test {
namespace {

template <class T>
__global__ void encode_kernel(const T* msgs, int count, std::uint8_t* out, std::size_t stride,
                              ringkernel::codec_result* results) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) results[i] = ringkernel::encode(msgs[i], out + static_cast<std::size_t>(i) * stride, stride);
}

template <class T>
__global__ void decode_kernel(const std::uint8_t* in, const std::size_t* sizes, std::size_t stride, int count, T* msgs,
                              ringkernel::codec_result* results) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) results[i] = ringkernel::decode(in + static_cast<std::size_t>(i) * stride, sizes[i], msgs[i]);
}

template <class T>
void encode_on_device_decode_on_host(const std::vector<T>& msgs) {
  const int count = static_cast<int>(msgs.size());
  constexpr std::size_t stride = ringkernel::max_encoded_size<T>;
  device_buffer<T> d_msgs(msgs.size());
  device_buffer<std::uint8_t> d_out(msgs.size() * stride);
  device_buffer<ringkernel::codec_result> d_results(msgs.size());
  CODEC_CUDA_OK(cudaMemcpy(d_msgs.ptr, msgs.data(), msgs.size() * sizeof(T), cudaMemcpyHostToDevice));
  encode_kernel<<<(count + 63) / 64, 64>>>(d_msgs.ptr, count, d_out.ptr, stride, d_results.ptr);
  CODEC_CUDA_OK(cudaGetLastError());  // a refused launch is reported here, not by the synchronize
  CODEC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<std::uint8_t> out(msgs.size() * stride);
  std::vector<ringkernel::codec_result> results(msgs.size());
  CODEC_CUDA_OK(cudaMemcpy(out.data(), d_out.ptr, out.size(), cudaMemcpyDeviceToHost));
  CODEC_CUDA_OK(cudaMemcpy(results.data(), d_results.ptr, results.size() * sizeof results[0], cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) {
    ASSERT_EQ(results[i].status, ringkernel::codec_status::ok) << i;
    const bytes device_bytes(out.begin() + static_cast<long>(i * stride),
                             out.begin() + static_cast<long>(i * stride + results[i].size));
    EXPECT_EQ(hex(device_bytes), hex(encode_to_vector(msgs[i]))) << "device and host bytes differ, message " << i;
    T back{};
    const ringkernel::codec_result r = ringkernel::decode(device_bytes.data(), device_bytes.size(), back);
    ASSERT_EQ(r.status, ringkernel::codec_status::ok) << i;
    EXPECT_TRUE(values_equal(back, msgs[i])) << i;
  }
}

template <class T>
void decode_on_device_from_host_bytes(const std::vector<T>& msgs, std::size_t cut = 0) {
  const int count = static_cast<int>(msgs.size());
  constexpr std::size_t stride = ringkernel::max_encoded_size<T>;
  std::vector<std::uint8_t> in(msgs.size() * stride);
  std::vector<std::size_t> sizes(msgs.size());
  std::vector<ringkernel::codec_result> expected(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    const bytes b = encode_to_vector(msgs[i]);
    std::copy(b.begin(), b.end(), in.begin() + static_cast<long>(i * stride));
    sizes[i] = b.size() - cut;
    T host{};
    expected[i] = ringkernel::decode(b.data(), sizes[i], host);
  }
  device_buffer<std::uint8_t> d_in(in.size());
  device_buffer<std::size_t> d_sizes(sizes.size());
  device_buffer<T> d_msgs(msgs.size());
  device_buffer<ringkernel::codec_result> d_results(msgs.size());
  CODEC_CUDA_OK(cudaMemcpy(d_in.ptr, in.data(), in.size(), cudaMemcpyHostToDevice));
  CODEC_CUDA_OK(cudaMemcpy(d_sizes.ptr, sizes.data(), sizes.size() * sizeof(std::size_t), cudaMemcpyHostToDevice));
  CODEC_CUDA_OK(cudaMemset(d_msgs.ptr, 0, msgs.size() * sizeof(T)));
  decode_kernel<<<(count + 63) / 64, 64>>>(d_in.ptr, d_sizes.ptr, stride, count, d_msgs.ptr, d_results.ptr);
  CODEC_CUDA_OK(cudaGetLastError());
  CODEC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<T> back(msgs.size());
  std::vector<ringkernel::codec_result> results(msgs.size());
  CODEC_CUDA_OK(cudaMemcpy(back.data(), d_msgs.ptr, back.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CODEC_CUDA_OK(cudaMemcpy(results.data(), d_results.ptr, results.size() * sizeof results[0], cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(results[i].status, expected[i].status) << i;
    EXPECT_EQ(results[i].size, expected[i].size) << i;
    if (cut == 0) EXPECT_TRUE(values_equal(back[i], msgs[i])) << i;
  }
}

template <class T>
std::vector<T> variants(T base, int count) {
  std::vector<T> v(static_cast<std::size_t>(count), base);
  return v;
}

TEST_F(CodecDevice, EncodeOnDeviceDecodeOnHost) {
  std::vector<Telemetry64> telemetry;
  std::vector<Order128> orders;
  for (int i = 0; i < 256; ++i) {
    Telemetry64 t = sample_telemetry();
    t.sequence = static_cast<std::uint64_t>(i) << (i % 64);
    t.status = -i * 1000;
    telemetry.push_back(t);
    Order128 o = sample_order();
    o.price_ticks = static_cast<std::int64_t>(i) * -123456789;
    orders.push_back(o);
  }
  encode_on_device_decode_on_host(telemetry);
  encode_on_device_decode_on_host(orders);
  encode_on_device_decode_on_host(variants(sample_scalars<Scalars>(), 3));
  encode_on_device_decode_on_host(variants(sample_scalars<ScalarsMap>(), 3));
  encode_on_device_decode_on_host(variants(sample_arrays<Arrays>(), 3));
  encode_on_device_decode_on_host(variants(sample_arrays<ArraysMap>(), 3));
}

TEST_F(CodecDevice, DecodeOnDeviceFromHostBytes) {
  decode_on_device_from_host_bytes(variants(sample_telemetry(), 100));
  decode_on_device_from_host_bytes(variants(sample_order(), 100));
  decode_on_device_from_host_bytes(variants(sample_scalars<ScalarsMap>(), 5));
  decode_on_device_from_host_bytes(variants(sample_arrays<ArraysMap>(), 5));
}

TEST_F(CodecDevice, TruncatedInputFailsOnTheDeviceLikeOnTheHost) {
  decode_on_device_from_host_bytes(variants(sample_order(), 4), 1);
  decode_on_device_from_host_bytes(variants(sample_arrays<ArraysMap>(), 4), 7);
}

/// Random messages of type T (random_messages.h), the same on every run of one seed.
template <class T>
std::vector<T> random_messages(int count) {
  random_filler random(random_test_seed() ^ ringkernel::message_traits<T>::type_id);
  std::vector<T> msgs(static_cast<std::size_t>(count));
  for (T& m : msgs) random.fill(m);
  return msgs;
}

/// Device and host compile the codec separately (nvcc for the device): random values over every
/// MessagePack width class, float bit pattern and string length must give the same bytes, the same
/// values and the same statuses on both.
template <class T>
void random_messages_on_the_device(int count) {
  SCOPED_TRACE(::testing::Message() << "seed " << (random_test_seed() ^ ringkernel::message_traits<T>::type_id)
                                    << " (RINGKERNEL_TEST_SEED=" << random_test_seed() << ")");
  const std::vector<T> msgs = random_messages<T>(count);
  encode_on_device_decode_on_host(msgs);
  decode_on_device_from_host_bytes(msgs);
  decode_on_device_from_host_bytes(msgs, 1);
}

TEST_F(CodecDevice, RandomMessagesEncodeAndDecodeOnTheDeviceAsOnTheHost) {
  random_messages_on_the_device<Scalars>(4096);
  random_messages_on_the_device<ScalarsMap>(4096);
  random_messages_on_the_device<Arrays>(4096);
  random_messages_on_the_device<ArraysMap>(4096);
  random_messages_on_the_device<Outer>(4096);
  random_messages_on_the_device<Telemetry64>(4096);
  random_messages_on_the_device<Order128>(4096);
  random_messages_on_the_device<Wide>(512);
}

}  // namespace
}  // namespace codec_test
