// Copyright RingKernel authors.
// Checks the generated traits of every corpus message against what the compiler laid out: field(i)
// against the visited members' offsets and sizes, visit_fields order, registry entries. Included by
// the .rk.h test and by the .rk.cuh test (two executables: the types differ in spelling).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>
#include <vector>

#include "corpus.registry.rk.h"

namespace layout_checks {

namespace reg = ringkernel::registry::corpus;

struct VisitedField {
  std::size_t index;
  std::size_t offset;
  std::size_t size;
};

template <class T>
void checkMessage() {
  using traits = ringkernel::message_traits<T>;
  static_assert(traits::is_message);
  EXPECT_EQ(sizeof(T), traits::size);
  EXPECT_EQ(alignof(T), traits::alignment);
  T value{};
  const auto* base = reinterpret_cast<const unsigned char*>(&value);
  std::vector<VisitedField> visited;
  traits::visit_fields(value, [&](auto index, auto& member) {
    const auto* at = reinterpret_cast<const unsigned char*>(&member);
    visited.push_back({decltype(index)::value, static_cast<std::size_t>(at - base), sizeof(member)});
  });
  ASSERT_EQ(visited.size(), traits::field_count);
  for (std::size_t i = 0; i < visited.size(); ++i) {
    const ringkernel::field_descriptor d = traits::field(i);
    ASSERT_NE(d.name, nullptr) << "field " << i;
    SCOPED_TRACE(d.name);
    EXPECT_EQ(visited[i].index, i);
    EXPECT_EQ(d.offset, visited[i].offset);
    EXPECT_EQ(d.size, visited[i].size);
    std::size_t elements = 1;
    for (std::uint32_t r = 0; r < d.rank; ++r) elements *= d.extents[r];
    EXPECT_EQ(d.element_size * elements, d.size);
    if (d.kind == ringkernel::field_kind::message) {
      const ringkernel::message_info* nested = reg::find(d.message_type_id);
      ASSERT_NE(nested, nullptr) << "nested message missing from the registry";
      EXPECT_EQ(nested->size, d.element_size);
    } else {
      EXPECT_EQ(d.message_type_id, 0u);
    }
    if (d.kind != ringkernel::field_kind::enumeration) {
      EXPECT_EQ(d.kind, d.underlying);
    }
  }
  EXPECT_EQ(traits::field(traits::field_count).name, nullptr);
  std::size_t constVisits = 0;
  traits::visit_fields(static_cast<const T&>(value), [&](auto, const auto&) { ++constVisits; });
  EXPECT_EQ(constVisits, traits::field_count);
  const ringkernel::message_info* info = reg::find(traits::type_id);
  ASSERT_NE(info, nullptr);
  EXPECT_STREQ(info->name, traits::name);
  EXPECT_EQ(info->size, traits::size);
  EXPECT_TRUE(reg::contains_v<T>);
  EXPECT_TRUE(reg::contains_v<const T>);
}

/// Runs checkMessage<T> for every message of the registry; dispatch supplies the type T. The storage
/// is only used to select T, the checks run on a value-initialised T.
inline void checkAllMessages() {
  alignas(64) static const unsigned char storage[4096] = {};
  ASSERT_EQ(std::size(reg::messages), reg::message_count);
  for (const ringkernel::message_info& info : reg::messages) {
    SCOPED_TRACE(info.name);
    ASSERT_LE(info.size, sizeof storage);
    const bool known = reg::dispatch(info.type_id, storage, [](const auto& message) {
      checkMessage<std::remove_cvref_t<decltype(message)>>();
    });
    EXPECT_TRUE(known);
  }
}

}  // namespace layout_checks
