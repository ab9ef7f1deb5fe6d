// Copyright RingKernel authors.
// KernelMessage envelopes on a CUDA device (label gpu), random payloads and headers: encode_envelope
// on the device gives the host's bytes, and into a buffer too small the host's buffer_too_small and
// needed size with nothing written past the buffer (the checked writer); decode_envelope on the
// device gives the host's status, size and values for host bytes, for envelopes with an extra
// trailing element (skipped), cut by one byte, and read as another message type. Random ids lie in
// the valid ranges (sender >= 0, receiver >= -1); a few headers with a negative sender or a receiver
// below -1 check that encode and decode refuse them (value_out_of_range) on the device as on the
// host. In device code these paths are device functions of their own (docs/wire-format.md §1).
// Skips without a device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "codec_test_support.h"
#include "device_support.h"
#include "random_messages.h"
#include "ringkernel/envelope_codec.h"

namespace codec_test {
namespace {

template <class T>
using envelope = ringkernel::KernelMessage<T>;

constexpr std::uint8_t untouched = 0xa5;  // what the device buffers hold before a kernel writes

template <class T>
__global__ void encode_envelope_kernel(const envelope<T>* msgs, int count, std::uint8_t* out, std::size_t stride,
                                       std::size_t capacity, ringkernel::codec_result* results) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) results[i] = ringkernel::encode_envelope(msgs[i], out + static_cast<std::size_t>(i) * stride, capacity);
}

template <class T>
__global__ void decode_envelope_kernel(const std::uint8_t* in, const std::size_t* sizes, std::size_t stride, int count,
                                       envelope<T>* msgs, ringkernel::codec_result* results) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) {
    results[i] = ringkernel::decode_envelope(in + static_cast<std::size_t>(i) * stride, sizes[i], msgs[i]);
  }
}

template <class T>
std::vector<envelope<T>> random_envelopes(int count) {
  random_filler random(random_test_seed() ^ ringkernel::message_traits<T>::type_id ^ 0xe17e'10beu);
  std::vector<envelope<T>> msgs;
  for (int i = 0; i < count; ++i) {
    T payload{};
    random.fill(payload);
    std::int32_t sender = 0;
    std::int32_t receiver = 0;
    random.fill(sender);
    random.fill(receiver);
    // Into the valid ranges without overflow: [INT32_MIN, -1] onto [0, INT32_MAX] for the sender,
    // [INT32_MIN, -2] onto [0, INT32_MAX - 1] for the receiver (-1, broadcast, stays).
    if (sender < 0) sender = -1 - sender;
    if (receiver < ringkernel::broadcast_receiver) receiver = -2 - receiver;
    envelope<T> m = envelope<T>::create(sender, receiver,
                                        static_cast<ringkernel::MessageType>(i % ringkernel::message_type_count), payload);
    random.fill(m.header.sequence);
    random.fill(m.header.timestamp_us);
    msgs.push_back(m);
  }
  return msgs;
}

template <class T>
bytes host_envelope(const envelope<T>& m) {
  bytes out(ringkernel::max_envelope_encoded_size<T>);
  const ringkernel::codec_result r = ringkernel::encode_envelope(m, out.data(), out.size());
  out.resize(r.status == ringkernel::codec_status::ok ? r.size : 0);
  return out;
}

/// Encodes every envelope on the device into `capacity` bytes of its own stride-sized slot.
template <class T>
void encode_on_device(const std::vector<envelope<T>>& msgs, std::size_t capacity) {
  const int count = static_cast<int>(msgs.size());
  constexpr std::size_t stride = ringkernel::max_envelope_encoded_size<T>;
  device_buffer<envelope<T>> d_msgs(msgs.size());
  device_buffer<std::uint8_t> d_out(msgs.size() * stride);
  device_buffer<ringkernel::codec_result> d_results(msgs.size());
  CODEC_CUDA_OK(cudaMemcpy(d_msgs.ptr, msgs.data(), msgs.size() * sizeof(envelope<T>), cudaMemcpyHostToDevice));
  CODEC_CUDA_OK(cudaMemset(d_out.ptr, untouched, msgs.size() * stride));
  encode_envelope_kernel<<<(count + 63) / 64, 64>>>(d_msgs.ptr, count, d_out.ptr, stride, capacity, d_results.ptr);
  CODEC_CUDA_OK(cudaGetLastError());
  CODEC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<std::uint8_t> out(msgs.size() * stride);
  std::vector<ringkernel::codec_result> results(msgs.size());
  CODEC_CUDA_OK(cudaMemcpy(out.data(), d_out.ptr, out.size(), cudaMemcpyDeviceToHost));
  CODEC_CUDA_OK(cudaMemcpy(results.data(), d_results.ptr, results.size() * sizeof results[0], cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) {
    const auto slot = out.begin() + static_cast<long>(static_cast<std::size_t>(i) * stride);
    bytes host(stride);
    const ringkernel::codec_result expected = ringkernel::encode_envelope(msgs[i], host.data(), capacity);
    ASSERT_EQ(results[i].status, expected.status) << "envelope " << i << ", capacity " << capacity;
    ASSERT_EQ(results[i].size, expected.size) << "envelope " << i << ", capacity " << capacity;
    if (expected.status == ringkernel::codec_status::ok) {
      EXPECT_EQ(hex(bytes(slot, slot + static_cast<long>(expected.size))), hex(host_envelope(msgs[i]))) << i;
    }
    EXPECT_TRUE(std::all_of(slot + static_cast<long>(capacity), slot + static_cast<long>(stride),
                            [](std::uint8_t b) { return b == untouched; }))
        << "envelope " << i << ": bytes written past the capacity of " << capacity;
  }
}

/// Decodes inputs[i] as an envelope of U on the device and on the host; status, size and (on
/// success) values must agree.
template <class U>
void decode_on_device(const std::vector<bytes>& inputs) {
  const int count = static_cast<int>(inputs.size());
  std::size_t stride = 1;
  for (const bytes& b : inputs) stride = std::max(stride, b.size());
  std::vector<std::uint8_t> in(inputs.size() * stride);
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::copy(inputs[i].begin(), inputs[i].end(), in.begin() + static_cast<long>(i * stride));
    sizes.push_back(inputs[i].size());
  }
  device_buffer<std::uint8_t> d_in(in.size());
  device_buffer<std::size_t> d_sizes(sizes.size());
  device_buffer<envelope<U>> d_msgs(inputs.size());
  device_buffer<ringkernel::codec_result> d_results(inputs.size());
  CODEC_CUDA_OK(cudaMemcpy(d_in.ptr, in.data(), in.size(), cudaMemcpyHostToDevice));
  CODEC_CUDA_OK(cudaMemcpy(d_sizes.ptr, sizes.data(), sizes.size() * sizeof(std::size_t), cudaMemcpyHostToDevice));
  CODEC_CUDA_OK(cudaMemset(d_msgs.ptr, 0, inputs.size() * sizeof(envelope<U>)));
  decode_envelope_kernel<<<(count + 63) / 64, 64>>>(d_in.ptr, d_sizes.ptr, stride, count, d_msgs.ptr, d_results.ptr);
  CODEC_CUDA_OK(cudaGetLastError());
  CODEC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<envelope<U>> back(inputs.size());
  std::vector<ringkernel::codec_result> results(inputs.size());
  CODEC_CUDA_OK(cudaMemcpy(back.data(), d_msgs.ptr, back.size() * sizeof(envelope<U>), cudaMemcpyDeviceToHost));
  CODEC_CUDA_OK(cudaMemcpy(results.data(), d_results.ptr, results.size() * sizeof results[0], cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) {
    envelope<U> host{};
    const ringkernel::codec_result expected = ringkernel::decode_envelope(inputs[i].data(), inputs[i].size(), host);
    EXPECT_EQ(results[i].status, expected.status) << "input " << i << ": " << hex(inputs[i]);
    EXPECT_EQ(results[i].size, expected.size) << "input " << i;
    if (expected.status == ringkernel::codec_status::ok) {
      EXPECT_TRUE(back[i].header.sequence == host.header.sequence && back[i].header.timestamp_us == host.header.timestamp_us &&
                  back[i].header.sender_id == host.header.sender_id &&
                  back[i].header.receiver_id == host.header.receiver_id && back[i].header.type == host.header.type &&
                  back[i].header.type_id == host.header.type_id)
          << "header of input " << i;
      EXPECT_TRUE(values_equal(back[i].payload, host.payload)) << "payload of input " << i;
    }
  }
}

/// The envelope with one more element after the payload: a map {"x": [1, 2]} (skipped on decode).
bytes with_extra_element(bytes b) {
  b[0] = static_cast<std::uint8_t>(b[0] + 1);  // fixarray of 8 -> of 9 elements
  const std::uint8_t extra[] = {0x81, 0xa1, 'x', 0x92, 0x01, 0x02};
  b.insert(b.end(), std::begin(extra), std::end(extra));
  return b;
}

/// Headers encode_envelope refuses with value_out_of_range: a negative sender, a receiver below -1.
template <class T>
std::vector<envelope<T>> refused_envelopes(const envelope<T>& valid) {
  constexpr std::int32_t min = std::numeric_limits<std::int32_t>::min();
  const std::int32_t ids[][2] = {{-1, 0}, {min, 1}, {-1, -1}, {0, -2}, {1, min}};
  std::vector<envelope<T>> msgs;
  for (const auto& id : ids) {
    envelope<T> m = valid;
    m.header.sender_id = id[0];
    m.header.receiver_id = id[1];
    bytes out(ringkernel::max_envelope_encoded_size<T>);
    const ringkernel::codec_result r = ringkernel::encode_envelope(m, out.data(), out.size());
    EXPECT_EQ(r.status, ringkernel::codec_status::value_out_of_range) << "sender " << id[0] << ", receiver " << id[1];
    EXPECT_EQ(r.size, 0u) << "sender " << id[0] << ", receiver " << id[1];
    msgs.push_back(m);
  }
  return msgs;
}

template <class T, class Other>
void envelopes_on_the_device(int count) {
  SCOPED_TRACE(::testing::Message() << "RINGKERNEL_TEST_SEED=" << random_test_seed());
  const std::vector<envelope<T>> msgs = random_envelopes<T>(count);
  // The device must refuse what the host refuses (encode_on_device compares status and size).
  std::vector<envelope<T>> with_refused = msgs;
  for (const envelope<T>& m : refused_envelopes(msgs.front())) with_refused.push_back(m);
  encode_on_device(with_refused, ringkernel::max_envelope_encoded_size<T>);
  encode_on_device(with_refused, 12);  // inside the header: the checked writer runs out
  std::vector<bytes> inputs;
  for (const envelope<T>& m : msgs) {
    const bytes b = host_envelope(m);
    ASSERT_FALSE(b.empty()) << "random envelope refused: sender " << m.header.sender_id << ", receiver "
                            << m.header.receiver_id;
    ASSERT_EQ(b[0], 0x98) << "an envelope is a fixarray of 8 elements";
    inputs.push_back(b);
    inputs.push_back(with_extra_element(b));
    inputs.push_back(bytes(b.begin(), b.end() - 1));
  }
  // Sender 1 and receiver 2 are one byte each (offsets 6 and 7): as -1 and -2 they are refused on
  // decode at that byte (value_out_of_range), on the device as on the host.
  envelope<T> small_ids = msgs.front();
  small_ids.header.sender_id = 1;
  small_ids.header.receiver_id = 2;
  const bytes valid = host_envelope(small_ids);
  ASSERT_TRUE(valid.size() > 7 && valid[6] == 0x01 && valid[7] == 0x02) << hex(valid);
  for (const auto& [at, value] : {std::pair<std::size_t, std::uint8_t>{6, 0xff}, {7, 0xfe}}) {
    bytes b = valid;
    b[at] = value;
    envelope<T> host{};
    const ringkernel::codec_result r = ringkernel::decode_envelope(b.data(), b.size(), host);
    EXPECT_EQ(r.status, ringkernel::codec_status::value_out_of_range) << hex(b);
    EXPECT_EQ(r.size, at) << hex(b);
    inputs.push_back(b);
  }
  decode_on_device<T>(inputs);
  decode_on_device<Other>(inputs);  // wrong_message_type at the type id
}

TEST_F(CodecDevice, EnvelopesEncodeAndDecodeOnTheDeviceAsOnTheHost) {
  envelopes_on_the_device<Telemetry64, Order128>(1024);
  envelopes_on_the_device<ScalarsMap, Arrays>(1024);
  envelopes_on_the_device<Arrays, ScalarsMap>(1024);
}

}  // namespace
}  // namespace codec_test
