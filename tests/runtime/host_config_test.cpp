// Copyright RingKernel authors.
#include <gtest/gtest.h>

#include "host_fixture.h"
#include "ringkernel/error.h"

namespace ringkernel {
namespace {

template <class F>
Error capture(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no ringkernel::Error thrown";
  return Error(errc::invalid_state, "none", no_device, "none");
}

TEST(HostConfig, DefaultsWhenUnset) {
  const auto c = HostBackendConfig::parse("", "");
  EXPECT_EQ(c.device_count, 2);
  EXPECT_EQ(c.topology, HostTopology::all);
  EXPECT_TRUE(c.linked(0, 1));
  EXPECT_FALSE(c.linked(1, 1));
}

TEST(HostConfig, ParsesCountTopologyAndMemory) {
  const auto c = HostBackendConfig::parse("4", " 0-1, 3-2 ", "64M");
  EXPECT_EQ(c.device_count, 4);
  ASSERT_EQ(c.topology, HostTopology::pairs);
  EXPECT_TRUE(c.linked(1, 0));
  EXPECT_TRUE(c.linked(2, 3));
  EXPECT_FALSE(c.linked(0, 2));
  EXPECT_EQ(c.memory_per_device, std::size_t{64} << 20);
  EXPECT_EQ(HostBackendConfig::parse("3", "none").topology, HostTopology::none);
  EXPECT_FALSE(HostBackendConfig::parse("3", "none").linked(0, 1));
}

TEST(HostConfig, RejectsBadValuesNamingVariableAndText) {
  auto e = capture([] { HostBackendConfig::parse("four", ""); });
  EXPECT_EQ(e.code(), errc::configuration);
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_DEVICES: bad configuration: \"four\": expected a device count from 0 to 64");
  e = capture([] { HostBackendConfig::parse("65", ""); });
  EXPECT_EQ(e.call(), "RINGKERNEL_HOST_DEVICES");
  e = capture([] { HostBackendConfig::parse("2", "0-1,x"); });
  EXPECT_NE(std::string(e.what()).find("found \"x\""), std::string::npos) << e.what();
  e = capture([] { HostBackendConfig::parse("2", "0-2"); });
  EXPECT_NE(std::string(e.what()).find("pair 0-2 names a device outside the 2 host devices"), std::string::npos) << e.what();
  e = capture([] { HostBackendConfig::parse("2", "1-1"); });
  EXPECT_NE(std::string(e.what()).find("links a device to itself"), std::string::npos);
  e = capture([] { HostBackendConfig::parse("3", "0-1,1-0"); });
  EXPECT_NE(std::string(e.what()).find("pair 1-0 is listed twice"), std::string::npos);
  e = capture([] { HostBackendConfig::parse("2", "", "12X"); });
  EXPECT_EQ(e.call(), "RINGKERNEL_HOST_MEMORY");
  e = capture([] { HostBackendConfig::parse("2", "", "0"); });
  EXPECT_EQ(e.code(), errc::configuration);
}

TEST(HostConfig, ApiConfigIsValidatedAndApplied) {
  HostBackendConfig bad;
  bad.device_count = 2;
  bad.topology = HostTopology::pairs;
  bad.pairs = {{0, 5}};
  const auto e = capture([&] { configure_host_backend(bad); });
  EXPECT_EQ(e.call(), "configure_host_backend");
  const auto ids = test::use_host_devices(3, HostTopology::none);
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(host_backend_config().device_count, 3);
  for (int id : ids) EXPECT_FALSE(device(id).has(Capability::peer_to_peer));
  EXPECT_TRUE(test::use_host_devices(0, HostTopology::all).empty());
}

}  // namespace
}  // namespace ringkernel
