// Copyright RingKernel authors.
// Decoding bytes produced by Python's msgpack (python_fixtures.py runs at build time): float64 for
// float fields, float32 for double fields, array16 headers, maps in another key order with a key
// this version does not know.
#include <gtest/gtest.h>

#include "codec_test_support.h"
#include "python_codec_fixtures.h"
#include "python_fixture_check.h"

namespace codec_test {
namespace {

#define CODEC_TEST_PYTHON_CASE(name, type) CODEC_TEST_PYTHON_FIXTURE_TEST(PythonMsgpack, name, type)
CODEC_TEST_PYTHON_CASES(CODEC_TEST_PYTHON_CASE)
#undef CODEC_TEST_PYTHON_CASE

}  // namespace
}  // namespace codec_test
