// Copyright RingKernel authors.
// What the registry's device tests (test_registry_device_tables.cu, test_registry_device_dispatch.cu;
// label gpu) share. Both run the generated registry device_routes in device code
// (messaging_messages.h and registry_device_messages.h: 8 messages, 7 kernels, every direction,
// several priorities, causal and map messages, kernels without receives or without sends).
// Here: a type id that the registry lacks; a checksum of a message's values, the visitor that
// records what it got (Recorder) and the routing cases' types, the same code on the host and the
// device; and the device plumbing (skipping, with the reason, without a CUDA device; copies to and
// from the device; every output buffer zeroed before the kernels write it, for initcheck).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "cuda_test_devices.h"
#include "device_routes.registry.rk.h"
#include "ringkernel/device.h"
#include "ringkernel/envelope_codec.h"
#include "ringkernel/kernel_message.h"

#include "cuda_check.h"

namespace registry_device_support {

namespace reg = ringkernel::registry::device_routes;
using ringkernel::codec_result;
using ringkernel::codec_status;
using ringkernel::KernelMessage;

/// A type id and a kernel id that the registry lacks (checked on the host).
inline constexpr std::uint32_t unknown_type_id = 0xdeadbeefu;

// ---------------------------------------------------------------------------------------------
// A checksum of a message's values: FNV-1a 64 over every field, field by field through
// message_traits (nested messages and arrays element by element, so padding never counts), and over
// every header field of a KernelMessage; the same code on the host and the device.

struct checksum {
  std::uint64_t value = 0xcbf29ce484222325ull;
  __host__ __device__ void add_bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) {
      value ^= b[i];
      value *= 0x100000001b3ull;
    }
  }
  template <class F>
  __host__ __device__ void add(const F& v);
};

struct field_adder {
  checksum* sum;
  template <std::size_t I, class F>
  __host__ __device__ void operator()(ringkernel::field_index<I>, const F& v) const {
    const std::uint32_t index = I;  // which field, so that two fields' values cannot trade places
    sum->add_bytes(&index, sizeof index);
    sum->add(v);
  }
};

template <class F>
__host__ __device__ void checksum::add(const F& v) {
  if constexpr (std::is_array_v<F>) {
    for (std::size_t i = 0; i < std::extent_v<F>; ++i) add(v[i]);
  } else if constexpr (ringkernel::is_message_v<F>) {
    ringkernel::message_traits<F>::visit_fields(v, field_adder{this});
  } else {
    static_assert(std::is_scalar_v<F>, "fields are scalars, arrays or messages");
    add_bytes(&v, sizeof v);
  }
}

template <class T>
__host__ __device__ std::uint64_t payload_checksum(const T& payload) {
  checksum c;
  c.add(payload);
  return c.value;
}

template <class T>
__host__ __device__ std::uint64_t message_checksum(const KernelMessage<T>& m) {
  checksum c;
  c.add(m.header.sequence);
  c.add(m.header.timestamp_us);
  c.add(m.header.type_id);
  c.add(m.header.sender_id);
  c.add(m.header.receiver_id);
  c.add(m.header.type);
  c.add(m.header.flags);
  c.add(m.header.reserved);
  if constexpr (KernelMessage<T>::causal) c.add(m.header.hlc.bits);
  c.add(m.payload);
  return c.value;
}

// ---------------------------------------------------------------------------------------------
// Routing cases: what the visitor saw and what the call returned.

struct visit_record {
  std::uint32_t calls;
  std::uint32_t type_id;  // message_traits<T>::type_id of the T of the last call
  std::uint64_t checksum;  // payload_checksum (dispatch) or message_checksum (the others) of it
};

/// The visitor of every case: accepts each message type of the registry, raw (`dispatch`) or as a
/// KernelMessage<T> (`dispatch_kernel_message`, `dispatch_envelope`).
struct Recorder {
  visit_record* record;
  template <class M>
  __host__ __device__ void operator()(const M& m) const {
    ++record->calls;
    if constexpr (ringkernel::is_kernel_message_v<M>) {
      record->type_id = ringkernel::message_traits<typename M::payload_type>::type_id;
      record->checksum = message_checksum(m);
    } else {
      record->type_id = ringkernel::message_traits<M>::type_id;
      record->checksum = payload_checksum(m);
    }
  }
};

enum class route : std::uint32_t { dispatch = 0, kernel_message = 1, envelope = 2 };

/// One case as the code under test gets it (`in`: host or device bytes).
struct case_view {
  route how;
  std::uint32_t type_id;  // dispatch's type id
  const std::uint8_t* in;
  std::size_t size;  // dispatch_kernel_message's and dispatch_envelope's size
};

struct outcome {
  std::uint32_t dispatched;  // dispatch's result (1: true)
  std::uint32_t status;      // codec_status of the other two
  std::uint64_t size;        // codec_result::size
  visit_record visit;
};
static_assert(sizeof(outcome) == 32 && sizeof(case_view) == 24, "no padding: every byte is written");

template <class Visitor>
__host__ __device__ void run_case(const case_view& c, Visitor&& visitor, outcome& out) {
  switch (c.how) {
    case route::dispatch:
      out.dispatched = reg::dispatch(c.type_id, c.in, visitor) ? 1u : 0u;
      break;
    case route::kernel_message: {
      const codec_result r = reg::dispatch_kernel_message(c.in, c.size, visitor);
      out.status = static_cast<std::uint32_t>(r.status);
      out.size = r.size;
      break;
    }
    case route::envelope: {
      const codec_result r = reg::dispatch_envelope(c.in, c.size, visitor);
      out.status = static_cast<std::uint32_t>(r.status);
      out.size = r.size;
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Device plumbing.

struct cuda_free {
  void operator()(void* p) const { cudaFree(p); }
};
using device_ptr = std::unique_ptr<void, cuda_free>;

/// Skips the test, saying why, without a CUDA device; else makes the first one current.
#define REQUIRE_CUDA_DEVICE()                      \
  RINGKERNEL_REQUIRE_CUDA_DEVICES(cuda_devices_, 1); \
  CUDA_CHECK(cudaSetDevice(cuda_devices_.front().ordinal))

template <class T>
void to_device(const std::vector<T>& from, device_ptr& to) {
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, from.size() * sizeof(T)));
  to.reset(p);
  CUDA_CHECK(cudaMemcpy(p, from.data(), from.size() * sizeof(T), cudaMemcpyHostToDevice));
}

/// A zeroed device array of n T, for a kernel's results.
template <class T>
void zeroed_on_device(std::size_t n, device_ptr& to) {
  void* p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  to.reset(p);
  CUDA_CHECK(cudaMemset(p, 0, n * sizeof(T)));
}

template <class T>
void from_device(const device_ptr& from, std::vector<T>& to) {
  CUDA_CHECK(cudaMemcpy(to.data(), from.get(), to.size() * sizeof(T), cudaMemcpyDeviceToHost));
}

inline constexpr unsigned threads_per_block = 128;
inline unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + threads_per_block - 1) / threads_per_block);
}

}  // namespace registry_device_support
