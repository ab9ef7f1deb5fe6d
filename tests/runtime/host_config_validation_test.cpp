// Copyright RingKernel authors.
// validate_host_config through configure_host_backend() (each rule, and that a refused configuration
// changes nothing), the 1 PiB bound of RINGKERNEL_HOST_MEMORY, and the wording of bad ordinals,
// signs and non-ASCII text in the variables.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "expect_error.h"
#include "host_fixture.h"
#include "ringkernel/device.h"
#include "ringkernel/host_backend.h"

namespace ringkernel {
namespace {

HostBackendConfig with_pairs(int count, std::vector<std::pair<int, int>> pairs,
                             HostTopology topology = HostTopology::pairs) {
  HostBackendConfig config;
  config.device_count = count;
  config.topology = topology;
  config.pairs = std::move(pairs);
  return config;
}

TEST(HostConfigValidation, EachRuleRefusesThroughConfigureHostBackend) {
  const auto ids = test::use_host_devices(3, HostTopology::none);
  HostBackendConfig negative, too_many, no_memory;
  negative.device_count = -1;
  too_many.device_count = 65;
  no_memory.memory_per_device = 0;
  const std::pair<HostBackendConfig, std::string> cases[] = {
      {negative, "host device count -1 is outside 0..64"},
      {too_many, "host device count 65 is outside 0..64"},
      {no_memory, "memory per host device must be > 0"},
      {with_pairs(2, {{0, 1}}, HostTopology::all), "pairs are given but the topology is not HostTopology::pairs"},
      {with_pairs(2, {{0, 1}}, HostTopology::none), "pairs are given but the topology is not HostTopology::pairs"},
      {with_pairs(2, {{1, 1}}), "pair 1-1 links a device to itself"},
      {with_pairs(3, {{0, 1}, {1, 2}, {1, 0}}), "pair 1-0 is listed twice"},
      {with_pairs(3, {{0, 2}, {0, 2}}), "pair 0-2 is listed twice"},
      // "pair -1-1" was ambiguous.
      {with_pairs(2, {{-1, 1}}), "pair (-1, 1) names a device outside the 2 host devices (ordinals 0..1)"},
      {with_pairs(2, {{0, -3}}), "pair (0, -3) names a device outside the 2 host devices (ordinals 0..1)"},
      {with_pairs(2, {{0, 2}}), "pair 0-2 names a device outside the 2 host devices (ordinals 0..1)"},
      // Each ordinal alone: the first one too large, the second one alone negative.
      {with_pairs(2, {{2, 0}}), "pair 2-0 names a device outside the 2 host devices (ordinals 0..1)"},
      {with_pairs(3, {{0, 1}, {7, 1}}), "pair 7-1 names a device outside the 3 host devices (ordinals 0..2)"},
      {with_pairs(2, {{0, -1}}), "pair (0, -1) names a device outside the 2 host devices (ordinals 0..1)"},
  };
  for (const auto& [config, message] : cases) {
    try {
      configure_host_backend(config);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::configuration) << e.what();
      EXPECT_EQ(e.call(), "configure_host_backend");
      EXPECT_EQ(e.detail(), message);
    }
  }
  // Refused before anything changed: the same devices.
  EXPECT_EQ(host_backend_config().device_count, 3);
  EXPECT_EQ(test::host_device_ids(), ids);
}

// The bound is 1 PiB, in every unit (only the fuzz target, not built by gcc, covered it).
TEST(HostConfigValidation, MemoryIsAtMostOnePebibyte) {
  constexpr std::size_t pib = std::size_t{1} << 50;
  for (const char* text : {"1048576G", "1073741824M", "1099511627776K", "1125899906842624", " 1048576g "})
    EXPECT_EQ(HostBackendConfig::parse("2", "", text).memory_per_device, pib) << text;
  for (const char* text : {"1048577G", "1073741825M", "1099511627777K", "1125899906842625", "9223372036854775807"})
    EXPECT_RK_ERROR(HostBackendConfig::parse("2", "", text), errc::configuration, "(at most 1 PiB)");
}

// Suffixes in lower case too; past long long (20 digits), a suffix without digits and no digits at
// all are refused with the syntax, so a program that configures the host backend from such a text
// keeps the configuration in effect (one taken as some size would replace it: 2 devices, that size).
TEST(HostConfigValidation, MemorySuffixesAndValuesPastLongLong) {
  EXPECT_EQ(HostBackendConfig::parse("2", "", "4k").memory_per_device, std::size_t{4} << 10);
  EXPECT_EQ(HostBackendConfig::parse("2", "", "2m").memory_per_device, std::size_t{2} << 20);
  EXPECT_EQ(HostBackendConfig::parse("2", "", "3g").memory_per_device, std::size_t{3} << 30);
  EXPECT_EQ(HostBackendConfig::parse("2", "", "5 K").memory_per_device, std::size_t{5} << 10);
  const test::RestoreHostConfig restore;
  configure_host_backend(HostBackendConfig::parse("3", "all", "7M"));
  const auto ids = test::host_device_ids();
  ASSERT_EQ(ids.size(), 3u);
  for (const char* text : {"99999999999999999999", "99999999999999999999K", "18446744073709551616", "K", "k", " M ",
                           "KK", "0k", "-4K"})
    EXPECT_RK_ERROR(configure_host_backend(HostBackendConfig::parse("2", "", text)), errc::configuration,
                    std::string("RINGKERNEL_HOST_MEMORY: bad configuration: \"") + text +
                        "\": expected a positive byte count with optional K, M or G suffix (at most 1 PiB)");
  EXPECT_EQ(host_backend_config().memory_per_device, std::size_t{7} << 20);
  EXPECT_EQ(host_backend_config().device_count, 3);
  EXPECT_EQ(test::host_device_ids(), ids);
}

// Ordinals outside the devices say which ordinals there are (they said "has a negative or too large
// ordinal", or for a leading minus "expected all, none or pairs").
TEST(HostConfigValidation, BadOrdinalsNameTheDevices) {
  const std::string outside = " names a device outside the 4 host devices (ordinals 0..3)";
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "0-99"), errc::configuration, "pair 0-99" + outside);
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "1-2,64-0"), errc::configuration, "pair 64-0" + outside);
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "0-99999999999"), errc::configuration, "pair 0-99999999999" + outside);
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "-1-2"), errc::configuration, "pair \"-1-2\"" + outside);
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "0--1"), errc::configuration, "pair \"0--1\"" + outside);
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", " -1 - 2 "), errc::configuration, "pair \"-1 - 2\"" + outside);
  EXPECT_RK_ERROR(HostBackendConfig::parse("0", "0-1"), errc::configuration,
                  "pair 0-1 names a device but there are no host devices (the count is 0)");
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "-"), errc::configuration, "expected all, none or pairs");
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "--1"), errc::configuration, "expected all, none or pairs");
}

// No sign: "+3" was refused but "-0" taken for 0 devices; so a "-0" ordinal.
TEST(HostConfigValidation, SignsAreRefused) {
  for (const char* count : {"-0", " -0 ", "+3", "-1"})
    EXPECT_RK_ERROR(HostBackendConfig::parse(count, ""), errc::configuration, "expected a device count from 0 to 64");
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "-0-1"), errc::configuration, "pair \"-0-1\" names a device outside");
  EXPECT_RK_ERROR(HostBackendConfig::parse("4", "1--0"), errc::configuration, "pair \"1--0\" names a device outside");
  EXPECT_EQ(HostBackendConfig::parse("0", "").device_count, 0);
}

// Bytes beyond ASCII are escaped too: a message held whatever the variable did, invalid UTF-8 included.
TEST(HostConfigValidation, BytesBeyondAsciiAreEscaped) {
  try {
    (void)HostBackendConfig::parse("2", "0-1,\xc3\xa9\xff");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("but found \"\\xc3\\xa9\\xff\""), std::string::npos) << what;
    for (const char c : what) EXPECT_LT(static_cast<unsigned char>(c), 0x80) << what;
  }
  EXPECT_RK_ERROR(HostBackendConfig::parse("\x7f" "2", ""), errc::configuration, "\"\\x7f2\"");
}

}  // namespace
}  // namespace ringkernel
