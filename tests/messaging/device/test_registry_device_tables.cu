// Copyright RingKernel authors.
// The generated registry's look-ups run in device code (label gpu), registry device_routes (see
// registry_device_support.h): find / find_kernel in a kernel, for every type id and kernel id of
// the host tables, return entries of the device tables (message_table() / kernel_table() in
// device code, at the host table's index) whose type id, name, kernel, kernel id, direction,
// priority, causal, format, size, alignment, field count, receive and send lists are the host
// table's (names read through the device tables' pointers); ids that no entry has give nullptr.
// The host-side checks of the tables run without a device too, then the test skips with the
// reason. Every output buffer is zeroed before the kernels write it (initcheck). One thread per
// id, no loop without a bound.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "registry_device_support.h"

namespace {

using namespace registry_device_support;

// ---------------------------------------------------------------------------------------------
// Table look-ups.

constexpr std::size_t name_capacity = 64;
constexpr std::size_t list_capacity = 8;

struct message_lookup {
  std::uint32_t found;
  std::int32_t index;  // into the table that find searched (message_table() on the device), -1 outside it
  std::uint32_t type_id, kernel_id, direction, priority, causal, format, size, alignment, field_count;
  std::uint32_t name_null, kernel_null;
  std::uint32_t kernel_found;  // find_kernel(kernel_id) of this message
  std::int32_t kernel_index;
  std::uint32_t unused;
  char name[name_capacity];
  char kernel[name_capacity];
  char kernel_name[name_capacity];  // find_kernel(kernel_id)->name
};

struct kernel_lookup {
  std::uint32_t found;
  std::int32_t index;
  std::uint32_t kernel_id, receive_count, send_count, receives_null, sends_null, name_null;
  std::uint32_t receives[list_capacity];
  std::uint32_t sends[list_capacity];
  char name[name_capacity];
};
static_assert(sizeof(message_lookup) == 64 + 3 * name_capacity &&
                  sizeof(kernel_lookup) == 32 + 8 * list_capacity + name_capacity,
              "no padding: every byte is written");

/// Copies a table's string through its pointer (at most name_capacity - 1 characters); 1 if null.
__device__ std::uint32_t copy_name(const char* from, char (&to)[name_capacity]) {
  if (from == nullptr) return 1;
  for (std::size_t i = 0; i + 1 < name_capacity && from[i] != '\0'; ++i) to[i] = from[i];
  return 0;
}

__device__ void copy_list(const std::uint32_t* from, std::uint32_t count, std::uint32_t (&to)[list_capacity]) {
  for (std::uint32_t i = 0; i < count && i < list_capacity; ++i) to[i] = from[i];
}

__global__ void look_up_messages(const std::uint32_t* ids, std::size_t count, message_lookup* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  message_lookup r{};
  r.index = -1;
  r.kernel_index = -1;
  if (const ringkernel::message_info* m = reg::find(ids[i])) {
    r.found = 1;
    const std::ptrdiff_t at = m - reg::message_table();
    if (at >= 0 && at < static_cast<std::ptrdiff_t>(reg::message_count)) r.index = static_cast<std::int32_t>(at);
    r.type_id = m->type_id;
    r.kernel_id = m->kernel_id;
    r.direction = static_cast<std::uint32_t>(m->direction);
    r.priority = m->priority;
    r.causal = m->causal ? 1 : 0;
    r.format = static_cast<std::uint32_t>(m->format);
    r.size = m->size;
    r.alignment = m->alignment;
    r.field_count = m->field_count;
    r.name_null = copy_name(m->name, r.name);
    r.kernel_null = copy_name(m->kernel, r.kernel);
    if (const reg::kernel_info* k = reg::find_kernel(m->kernel_id)) {
      r.kernel_found = 1;
      const std::ptrdiff_t kat = k - reg::kernel_table();
      if (kat >= 0 && kat < static_cast<std::ptrdiff_t>(reg::kernel_count)) {
        r.kernel_index = static_cast<std::int32_t>(kat);
      }
      copy_name(k->name, r.kernel_name);
    }
  }
  out[i] = r;
}

__global__ void look_up_kernels(const std::uint32_t* ids, std::size_t count, kernel_lookup* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= count) return;
  kernel_lookup r{};
  r.index = -1;
  if (const reg::kernel_info* k = reg::find_kernel(ids[i])) {
    r.found = 1;
    const std::ptrdiff_t at = k - reg::kernel_table();
    if (at >= 0 && at < static_cast<std::ptrdiff_t>(reg::kernel_count)) r.index = static_cast<std::int32_t>(at);
    r.kernel_id = k->kernel_id;
    r.receive_count = k->receive_count;
    r.send_count = k->send_count;
    r.receives_null = k->receives == nullptr ? 1 : 0;
    r.sends_null = k->sends == nullptr ? 1 : 0;
    if (k->receives != nullptr) copy_list(k->receives, k->receive_count, r.receives);
    if (k->sends != nullptr) copy_list(k->sends, k->send_count, r.sends);
    r.name_null = copy_name(k->name, r.name);
  }
  out[i] = r;
}

/// Ids near and between the table's keys that no entry has (by the host's find).
template <class Find>
std::vector<std::uint32_t> absent_ids(const std::vector<std::uint32_t>& present, Find find) {
  std::vector<std::uint32_t> candidates = {0u, 1u, 0xffffffffu, unknown_type_id};
  for (const std::uint32_t id : present) {
    candidates.push_back(id - 1);
    candidates.push_back(id + 1);
    candidates.push_back(id ^ 0x80000000u);
  }
  std::vector<std::uint32_t> absent;
  for (const std::uint32_t id : candidates) {
    if (find(id) == nullptr) absent.push_back(id);
  }
  return absent;
}

// ---------------------------------------------------------------------------------------------

TEST(RegistryDevice, FindAndFindKernelReadTheDeviceTablesWhichMatchTheHostTables) {
  std::vector<std::uint32_t> type_ids, kernel_ids;
  for (const ringkernel::message_info& m : reg::messages) {
    ASSERT_LT(std::strlen(m.name), name_capacity);
    ASSERT_LT(std::strlen(m.kernel), name_capacity);
    type_ids.push_back(m.type_id);
  }
  for (const reg::kernel_info& k : reg::kernels) {
    ASSERT_LT(std::strlen(k.name), name_capacity);
    ASSERT_LE(k.receive_count, list_capacity);
    ASSERT_LE(k.send_count, list_capacity);
    kernel_ids.push_back(k.kernel_id);
  }
  const std::vector<std::uint32_t> absent_types = absent_ids(type_ids, [](std::uint32_t id) { return reg::find(id); });
  const std::vector<std::uint32_t> absent_kernels =
      absent_ids(kernel_ids, [](std::uint32_t id) { return reg::find_kernel(id); });
  ASSERT_GT(absent_types.size(), 4u);
  ASSERT_GT(absent_kernels.size(), 4u);
  // What the tables below are compared on differs between entries: a table that repeated one
  // entry, or the defaults, would not pass.
  bool kernel_without_receives = false, kernel_without_sends = false;
  for (const reg::kernel_info& k : reg::kernels) {
    kernel_without_receives = kernel_without_receives || (k.receive_count == 0 && k.receives == nullptr);
    kernel_without_sends = kernel_without_sends || (k.send_count == 0 && k.sends == nullptr);
  }
  EXPECT_TRUE(kernel_without_receives && kernel_without_sends);
  EXPECT_EQ(reg::find(0x1234u), &reg::messages[0]) << "Drain's explicit id is the smallest";

  REQUIRE_CUDA_DEVICE();
  std::vector<std::uint32_t> all_types = type_ids, all_kernels = kernel_ids;
  all_types.insert(all_types.end(), absent_types.begin(), absent_types.end());
  all_kernels.insert(all_kernels.end(), absent_kernels.begin(), absent_kernels.end());
  device_ptr types_device, kernels_device, message_results, kernel_results;
  to_device(all_types, types_device);
  to_device(all_kernels, kernels_device);
  zeroed_on_device<message_lookup>(all_types.size(), message_results);
  zeroed_on_device<kernel_lookup>(all_kernels.size(), kernel_results);
  ASSERT_FALSE(HasFatalFailure());
  look_up_messages<<<blocks_for(all_types.size()), threads_per_block>>>(
      static_cast<const std::uint32_t*>(types_device.get()), all_types.size(),
      static_cast<message_lookup*>(message_results.get()));
  CUDA_CHECK(cudaGetLastError());
  look_up_kernels<<<blocks_for(all_kernels.size()), threads_per_block>>>(
      static_cast<const std::uint32_t*>(kernels_device.get()), all_kernels.size(),
      static_cast<kernel_lookup*>(kernel_results.get()));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<message_lookup> messages(all_types.size());
  std::vector<kernel_lookup> kernels(all_kernels.size());
  from_device(message_results, messages);
  from_device(kernel_results, kernels);
  ASSERT_FALSE(HasFatalFailure());

  for (std::size_t i = 0; i < reg::message_count; ++i) {
    const ringkernel::message_info& want = reg::messages[i];
    const message_lookup& got = messages[i];
    SCOPED_TRACE(want.name);
    ASSERT_EQ(got.found, 1u) << "find(" << want.type_id << ") is nullptr on the device";
    EXPECT_EQ(got.index, static_cast<std::int32_t>(i))
        << "not the host table's entry of message_table() in device code";
    EXPECT_EQ(got.type_id, want.type_id);
    EXPECT_EQ(got.name_null, 0u);
    EXPECT_STREQ(got.name, want.name);
    EXPECT_EQ(got.kernel_null, 0u);
    EXPECT_STREQ(got.kernel, want.kernel);
    EXPECT_EQ(got.kernel_id, want.kernel_id);
    EXPECT_EQ(got.direction, static_cast<std::uint32_t>(want.direction));
    EXPECT_EQ(got.priority, want.priority);
    EXPECT_EQ(got.causal, want.causal ? 1u : 0u);
    EXPECT_EQ(got.format, static_cast<std::uint32_t>(want.format));
    EXPECT_EQ(got.size, want.size);
    EXPECT_EQ(got.alignment, want.alignment);
    EXPECT_EQ(got.field_count, want.field_count);
    const reg::kernel_info* kernel = reg::find_kernel(want.kernel_id);
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(got.kernel_found, 1u);
    EXPECT_EQ(got.kernel_index, static_cast<std::int32_t>(kernel - reg::kernels));
    EXPECT_STREQ(got.kernel_name, kernel->name);
    EXPECT_STREQ(got.kernel_name, want.kernel);
  }
  for (std::size_t i = reg::message_count; i < all_types.size(); ++i) {
    EXPECT_EQ(messages[i].found, 0u) << "find(" << all_types[i]
                                     << ") on the device: an entry for an id the registry lacks";
  }
  for (std::size_t i = 0; i < reg::kernel_count; ++i) {
    const reg::kernel_info& want = reg::kernels[i];
    const kernel_lookup& got = kernels[i];
    SCOPED_TRACE(want.name);
    ASSERT_EQ(got.found, 1u) << "find_kernel(" << want.kernel_id << ") is nullptr on the device";
    EXPECT_EQ(got.index, static_cast<std::int32_t>(i))
        << "not the host table's entry of kernel_table() in device code";
    EXPECT_EQ(got.kernel_id, want.kernel_id);
    EXPECT_EQ(got.name_null, 0u);
    EXPECT_STREQ(got.name, want.name);
    EXPECT_EQ(got.receive_count, want.receive_count);
    EXPECT_EQ(got.send_count, want.send_count);
    EXPECT_EQ(got.receives_null, want.receives == nullptr ? 1u : 0u);
    EXPECT_EQ(got.sends_null, want.sends == nullptr ? 1u : 0u);
    for (std::uint32_t j = 0; j < want.receive_count; ++j) {
      EXPECT_EQ(got.receives[j], want.receives[j]) << "receives[" << j << "]";
    }
    for (std::uint32_t j = 0; j < want.send_count; ++j) EXPECT_EQ(got.sends[j], want.sends[j]) << "sends[" << j << "]";
  }
  for (std::size_t i = reg::kernel_count; i < all_kernels.size(); ++i) {
    EXPECT_EQ(kernels[i].found, 0u) << "find_kernel(" << all_kernels[i]
                                    << ") on the device: an entry for an id the registry lacks";
  }
}


}  // namespace
