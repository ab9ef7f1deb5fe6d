// Copyright RingKernel authors.
// Random messages of every test type through the encoder and decoder, checked against msgpack-c
// (random_message_checks.h says what is checked).
#include <gtest/gtest.h>

#include "random_message_checks.h"

namespace codec_test {
namespace {

template <class T>
class RandomMessages : public ::testing::Test {};
using MessageTypes = ::testing::Types<Scalars, ScalarsMap, Arrays, ArraysMap, Outer, Telemetry64, Order128, Wide>;
TYPED_TEST_SUITE(RandomMessages, MessageTypes);

TYPED_TEST(RandomMessages, EncodeLikeMsgpackCAndDecodeBitForBit) { random_checks::check_random_messages<TypeParam>(); }

}  // namespace
}  // namespace codec_test
