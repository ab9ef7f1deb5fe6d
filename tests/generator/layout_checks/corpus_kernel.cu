// Copyright RingKernel authors.
// Compile-only check for sm_90: the corpus .rk.cuh files and the registry in device code (traits
// field(i), visit_fields, registry find/find_kernel/dispatch/dispatch_envelope inside a __global__
// kernel; dispatch_envelope decodes an envelope of each of the 41 types in device code).
#define RINGKERNEL_REGISTRY_USE_CUH
#include "corpus.registry.rk.h"

namespace {

namespace reg = ringkernel::registry::corpus;

struct SizeSum {
  std::uint64_t* out;
  template <class T>
  __device__ void operator()(const T& message) const {
    using traits = ringkernel::message_traits<T>;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; traits::field(i).name != nullptr; ++i) sum += traits::field(i).size;
    traits::visit_fields(message, [&](auto index, const auto& member) { sum += index.value + sizeof(member); });
    *out += sum;
  }
};

__global__ void corpus_dispatch_kernel(std::uint32_t type_id, const void* raw, std::uint64_t* out) {
  if (const ringkernel::message_info* info = reg::find(type_id)) {
    *out += info->size;
    if (const reg::kernel_info* kernel = reg::find_kernel(info->kernel_id)) *out += kernel->receive_count;
  }
  if (!reg::dispatch(type_id, raw, ringkernel::on_device(SizeSum{out}))) *out = ~std::uint64_t{0};
}

struct EnvelopeSum {
  std::uint64_t* out;
  template <class T>
  __device__ void operator()(const ringkernel::KernelMessage<T>& message) const {
    *out += message.header.sequence + ringkernel::message_traits<T>::type_id;
    SizeSum{out}(message.payload);
  }
};

__global__ void corpus_envelope_kernel(const std::uint8_t* in, std::size_t size, std::uint64_t* out) {
  const ringkernel::codec_result r = reg::dispatch_envelope(in, size, ringkernel::on_device(EnvelopeSum{out}));
  if (r.status != ringkernel::codec_status::ok) *out = r.size;
}

}  // namespace

void launch_corpus_dispatch_kernel(std::uint32_t type_id, const void* raw, std::uint64_t* out) {
  corpus_dispatch_kernel<<<1, 1>>>(type_id, raw, out);
}

void launch_corpus_envelope_kernel(const std::uint8_t* in, std::size_t size, std::uint64_t* out) {
  corpus_envelope_kernel<<<1, 1>>>(in, size, out);
}
