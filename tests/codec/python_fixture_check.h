// Copyright RingKernel authors.
// The check of one Python msgpack fixture (python_fixtures.py): its bytes decode, all of them, to
// the values Python encoded.
#pragma once

#include <gtest/gtest.h>

#include "codec_test_support.h"

namespace codec_test {

template <class T>
void expect_decodes_to(const bytes& wire, const T& expected) {
  T decoded{};
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), decoded);
  ASSERT_EQ(r.status, ringkernel::codec_status::ok) << ringkernel::to_string(r.status) << " at " << r.size;
  EXPECT_EQ(r.size, wire.size());
  EXPECT_TRUE(values_equal(decoded, expected)) << hex(wire);
}

/// One test per fixture: TEST(suite, case name).
#define CODEC_TEST_PYTHON_FIXTURE_TEST(suite, name, type)                                        \
  TEST(suite, name) {                                                                              \
    expect_decodes_to<type>(python_fixtures::name##_bytes, python_fixtures::name##_expected()); \
  }

}  // namespace codec_test
