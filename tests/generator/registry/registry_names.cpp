// Copyright RingKernel authors.
// Registry checks (registry_checks.cmake): a registry of pinned.h under the name RK_REGISTRY (the
// header RK_REGISTRY_HEADER), compiled by the C++ compiler and by nvcc. Names such as `ringkernel`,
// `std` and `detail` must compile (the registry spells ::ringkernel:: and ::std::), and the type ids
// are pinned to literals: FNV-1a 32 of the qualified name, the vectors docs/generator.md gives.
// message_table() / kernel_table() are the host tables on the host (find points into them); under
// nvcc a kernel iterates both and follows receives and sends (compile only), and one
// __host__ __device__ router uses on_device in its device pass only.
#include RK_REGISTRY_HEADER

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace reg = ::ringkernel::registry::RK_REGISTRY;

static_assert(ringkernel::message_traits<app::AddRequest>::type_id == 0x518a9b04u, "\"app::AddRequest\"");
static_assert(ringkernel::message_traits<app::Ping>::type_id == 0xf30ce025u,
              "\"app::v1::Ping\": the inline namespace is part of the hashed name");
static_assert(ringkernel::message_traits<app::Outer::Inner>::type_id == 0xcc536595u, "\"app::Outer::Inner\"");
static_assert(ringkernel::message_traits<app::AddRequest>::kernel_id == 0x9dc3aa14u, "kernel \"Add\"");
static_assert(reg::message_count == 4 && reg::kernel_count == 4);
// contains_v ignores cv-qualifiers and references.
static_assert(reg::contains_v<const app::Outer::Inner&> && reg::contains_v<volatile app::Ping>);
static_assert(reg::contains_v<app::AddRequest&&> && !reg::contains_v<int> && !reg::contains_v<const int&>);
#if !defined(__CUDA_ARCH__)
static_assert(reg::find(0xf30ce025u) != nullptr && reg::find(0xf30ce025u)->type_id == 0xf30ce025u);
static_assert(reg::find_kernel(0x9dc3aa14u) != nullptr && reg::find_kernel(0x9dc3aa14u)->receive_count == 1);
// On the host message_table() and kernel_table() are the host tables, and find / find_kernel point into them.
static_assert(reg::message_table() == reg::messages && reg::kernel_table() == reg::kernels);
static_assert(reg::find(0xf30ce025u) - reg::message_table() == 2, "app::v1::Ping: the 3rd type id of 4");
static_assert(reg::find_kernel(0x9dc3aa14u) - reg::kernel_table() == 3, "kernel Add: the largest kernel id");
static_assert(reg::find_kernel(0x9dc3aa14u)->receives[0] == 0x518a9b04u, "kernel Add receives app::AddRequest");
#endif

// kernel_message_slot: the largest size and alignment over the registry's KernelMessage<T>, trivially
// copyable (a queue element), on the host and in device code.
template <class T>
using km = ringkernel::KernelMessage<T>;
constexpr std::size_t max_size = sizeof(km<app::AddRequest>) > sizeof(km<app::Ping>) ? sizeof(km<app::AddRequest>)
                                                                                        : sizeof(km<app::Ping>);
static_assert(sizeof(km<app::Outer>) <= max_size && sizeof(km<app::Outer::Inner>) <= max_size);
static_assert(reg::max_kernel_message_size == max_size && reg::max_kernel_message_alignment == 8);
static_assert(sizeof(reg::kernel_message_slot::bytes) == max_size && alignof(reg::kernel_message_slot) == 8);
static_assert(std::is_trivially_copyable_v<reg::kernel_message_slot>);

#if defined(RK_FOREIGN_MESSAGE)
// A message of another header, not in this registry: make_kernel_message_slot refuses it.
#include "stale.rk.h"
reg::kernel_message_slot foreign_slot() {
  return reg::make_kernel_message_slot(ringkernel::KernelMessage<stale::Ping>{});
}
#endif

#if defined(__CUDACC__)
struct Count {
  unsigned* out;
  template <class T>
  __device__ void operator()(const T&) const { ++*out; }
};

__global__ void route(std::uint32_t type_id, const void* raw, const std::uint8_t* in, std::size_t size,
                      unsigned* out) {
  if (const ringkernel::message_info* info = reg::find(type_id)) {
    if (const reg::kernel_info* kernel = reg::find_kernel(info->kernel_id)) *out += kernel->send_count;
  }
  reg::dispatch(type_id, raw, ringkernel::on_device(Count{out}));
  reg::dispatch_kernel_message(raw, size, ringkernel::on_device(Count{out}));
  reg::dispatch_envelope(in, size, ringkernel::on_device(Count{out}));
}

__global__ void route_slot(const reg::kernel_message_slot* in, reg::kernel_message_slot* out, unsigned* count) {
  *out = reg::make_kernel_message_slot(km<app::Ping>::create_data(0, 1, app::Ping{7}));
  if (in->type_id() != 0) reg::dispatch_kernel_message(*in, ringkernel::on_device(Count{count}));
}

// Both tables iterated in device code through message_table() / kernel_table(), and a kernel's
// receives and sends followed (the device tables' lists); find's pointer is into message_table().
__global__ void receivers(std::uint32_t type_id, std::uint32_t* out) {
  for (std::size_t i = 0; i < reg::message_count; ++i) {
    if (reg::message_table()[i].type_id == type_id) out[0] = static_cast<std::uint32_t>(i);
  }
  if (const ringkernel::message_info* m = reg::find(type_id)) out[1] = static_cast<std::uint32_t>(m - reg::message_table());
  for (std::size_t i = 0; i < reg::kernel_count; ++i) {
    const reg::kernel_info& k = reg::kernel_table()[i];
    for (std::uint32_t j = 0; j < k.receive_count; ++j) {
      if (k.receives[j] == type_id) out[2] = k.kernel_id;
    }
    for (std::uint32_t j = 0; j < k.send_count; ++j) {
      if (k.sends[j] == type_id) out[3] = k.kernel_id;
    }
  }
}

void launch_receivers(std::uint32_t type_id, std::uint32_t* out) { receivers<<<1, 1>>>(type_id, out); }

// One router for host and device code (docs/generator.md, "The generated API"): on_device is
// __device__ only, so the device pass wraps the visitor and the host pass passes it as it is.
struct HostDeviceCount {
  unsigned n = 0;
  template <class T>
  __host__ __device__ void operator()(const km<T>&) { ++n; }
};

__host__ __device__ inline unsigned route_anywhere(const reg::kernel_message_slot& slot) {
  HostDeviceCount count;
#if RINGKERNEL_IS_DEVICE_CODE
  reg::dispatch_kernel_message(slot, ringkernel::on_device(count));
#else
  reg::dispatch_kernel_message(slot, count);
#endif
  return count.n;
}

__global__ void route_anywhere_kernel(const reg::kernel_message_slot* in, unsigned* out) { *out = route_anywhere(*in); }

void launch_route_anywhere(const reg::kernel_message_slot* in, unsigned* out) {
  route_anywhere_kernel<<<1, 1>>>(in, out);
}
unsigned route_anywhere_on_host(const reg::kernel_message_slot& slot) { return route_anywhere(slot); }

void launch_route_slot(const reg::kernel_message_slot* in, reg::kernel_message_slot* out, unsigned* count) {
  route_slot<<<1, 1>>>(in, out, count);
}

void launch_route(std::uint32_t type_id, const void* raw, const std::uint8_t* in, std::size_t size, unsigned* out) {
  route<<<1, 1>>>(type_id, raw, in, size, out);
}
#endif

int main() {
  int calls = 0;
  const auto count = [&](const auto&) { ++calls; };
  const app::Ping ping{42};
  reg::dispatch(ringkernel::message_traits<app::Ping>::type_id, &ping, count);
  ringkernel::KernelMessage<app::Outer::Inner> inner{};
  inner.header.type_id = 0xcc536595u;
  reg::dispatch_kernel_message(&inner, sizeof inner, count);
  const std::uint8_t bytes[1] = {0};
  reg::dispatch_envelope(bytes, sizeof bytes, count);
  const reg::kernel_message_slot slot = reg::make_kernel_message_slot(inner);
  reg::dispatch_kernel_message(slot, count);
  return calls == 3 ? 0 : 1;
}
