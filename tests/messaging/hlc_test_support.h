// Copyright RingKernel authors.
// Puts a HybridLogicalClock at the end of its range for the tests of exhaustion. No public call gets
// there in a test's time: wall times and remote stamps beyond hlc_timestamp::max_remote_physical_us
// are refused, so only the 2^44 carries of the last 2^32 us reach the largest stamp (hlc.h). The
// clock is a standard-layout class whose first word is its last stamp, and a standard-layout object
// is pointer-interconvertible with its first member; set_last_stamp checks through last() that the
// word it wrote is that one, so a reordered member list fails here, not in the tests built on it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "ringkernel/hlc.h"

namespace hlc_test_support {

// Sets the clock's last stamp to `last` (single-threaded: no caller may use the clock meanwhile).
inline void set_last_stamp(ringkernel::HybridLogicalClock& clock, ringkernel::hlc_timestamp last) {
  static_assert(std::is_standard_layout_v<ringkernel::HybridLogicalClock>);
  *reinterpret_cast<std::uint64_t*>(&clock) = last.bits;
  ASSERT_EQ(clock.last(), last) << "the clock's first word is no longer its last stamp";
}

}  // namespace hlc_test_support
