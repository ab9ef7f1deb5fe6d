// Copyright RingKernel authors.
// Decoding bytes produced by Python's msgpack (python_fixtures.py runs at build time): float64 for
// float fields, float32 for double fields, array16 headers, maps in another key order with a key
// this version does not know.
#include <gtest/gtest.h>

#include "codec_test_support.h"
#include "python_fixtures.h"

namespace codec_test {
namespace {

template <class T>
void expect_decodes_to(const bytes& wire, const T& expected) {
  T decoded{};
  const ringkernel::codec_result r = ringkernel::decode(wire.data(), wire.size(), decoded);
  ASSERT_EQ(r.status, ringkernel::codec_status::ok) << ringkernel::to_string(r.status) << " at " << r.size;
  EXPECT_EQ(r.size, wire.size());
  EXPECT_TRUE(values_equal(decoded, expected)) << hex(wire);
}

#define CODEC_TEST_PYTHON_CASE(name, type)                                               \
  TEST(PythonMsgpack, name) {                                                            \
    expect_decodes_to<type>(python_fixtures::name##_bytes, python_fixtures::name##_expected()); \
  }
CODEC_TEST_PYTHON_CASES(CODEC_TEST_PYTHON_CASE)
#undef CODEC_TEST_PYTHON_CASE

}  // namespace
}  // namespace codec_test
