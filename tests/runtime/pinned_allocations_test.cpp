// Copyright RingKernel authors.
// A backend's table of its pinned allocations (runtime/src/pinned_allocations.h) on addresses it was
// told of, which it never dereferences: which addresses lie in an allocation, and that removing one
// gives back the tag it was added with (the CUDA backend's: the context that frees it), once.
#include "pinned_allocations.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using ringkernel::detail::PinnedAllocations;

void* at(std::uintptr_t address) { return reinterpret_cast<void*>(address); }

TEST(PinnedAllocations, AnAddressIsInsideFromItsStartUpToItsEnd) {
  PinnedAllocations table;
  table.add(at(0x1000), 256);
  table.add(at(0x1100), 16);  // right after the first: adjacent blocks of one size
  EXPECT_FALSE(table.contains(at(0xfff)));
  EXPECT_TRUE(table.contains(at(0x1000)));
  EXPECT_TRUE(table.contains(at(0x10ff)));
  EXPECT_TRUE(table.contains(at(0x1100)));
  EXPECT_TRUE(table.contains(at(0x110f)));
  EXPECT_FALSE(table.contains(at(0x1110))) << "the byte after the second allocation";
}

TEST(PinnedAllocations, RemovingGivesBackTheTagOnceAndOnlyForAStart) {
  PinnedAllocations table;
  int context_a = 0, context_b = 0;
  table.add(at(0x2000), 64, &context_a);
  table.add(at(0x3000), 64, &context_b);
  table.add(at(0x4000), 64);
  EXPECT_FALSE(table.remove(at(0x2001)).has_value()) << "an address inside is not a start";
  EXPECT_TRUE(table.contains(at(0x2001)));
  const auto b = table.remove(at(0x3000));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->tag, &context_b);
  EXPECT_EQ(b->bytes, 64u);
  EXPECT_FALSE(table.remove(at(0x3000)).has_value()) << "removed twice";
  EXPECT_FALSE(table.contains(at(0x3000)));
  const auto untagged = table.remove(at(0x4000));
  ASSERT_TRUE(untagged.has_value());
  EXPECT_EQ(untagged->tag, nullptr);
  const auto a = table.remove(at(0x2000));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->tag, &context_a);
}

TEST(PinnedAllocations, TakeAllEmptiesTheTable) {
  PinnedAllocations table;
  table.add(at(0x5000), 8);
  table.add(at(0x6000), 8);
  std::vector<void*> all = table.take_all();
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<void*>{at(0x5000), at(0x6000)}));
  EXPECT_FALSE(table.contains(at(0x5000)));
  EXPECT_TRUE(table.take_all().empty());
}

}  // namespace
