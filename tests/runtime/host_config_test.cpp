// Copyright RingKernel authors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "host_fixture.h"
#include "ringkernel/buffers.h"
#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/peer_memory.h"

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
  EXPECT_TRUE(c.native_atomics);
  EXPECT_EQ(c.describe(), "2 devices, topology all, 8192 MiB each");
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

// Values from a file written on Windows (CRLF) or a heredoc keep their line break; it is white space
// around the value like blanks (it was an error: "4\r" is no device count).
TEST(HostConfig, IgnoresSurroundingLineBreaks) {
  const auto c = HostBackendConfig::parse("4\r\n", "\n0-1 ,\t2-3\r", "\v64M\f", "0\r\n");
  EXPECT_EQ(c.device_count, 4);
  EXPECT_TRUE(c.linked(2, 3));
  EXPECT_EQ(c.memory_per_device, std::size_t{64} << 20);
  EXPECT_FALSE(c.native_atomics);
}

// The text is quoted in the message with control characters escaped: a raw carriage return made the
// terminal overwrite the start of the line, a newline split the message.
TEST(HostConfig, ErrorsEscapeControlCharactersOfTheText) {
  auto e = capture([] { HostBackendConfig::parse("4\r5", ""); });
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_DEVICES: bad configuration: \"4\\r5\": expected a device count from 0 to 64");
  e = capture([] { HostBackendConfig::parse("2", "0-1,x\ny\x1b"); });
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_TOPOLOGY: bad configuration: \"0-1,x\\ny\\x1b\": expected all, "
                         "none or pairs like 0-1,2-3 but found \"x\\ny\\x1b\"");
  e = capture([] { HostBackendConfig::parse("2", "", "1\"G\\"); });
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_MEMORY: bad configuration: \"1\\\"G\\\\\": expected a positive "
                         "byte count with optional K, M or G suffix (at most 1 PiB)");
}

// A pair the device count or the other pairs make invalid is reported with the variable's text, as
// every other bad value is (the text was missing).
TEST(HostConfig, PairErrorsQuoteTheTopology) {
  auto e = capture([] { HostBackendConfig::parse("2", "0-1, 0-5"); });
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_TOPOLOGY: bad configuration: \"0-1, 0-5\": pair 0-5 names a "
                         "device outside the 2 host devices (ordinals 0..1)");
  e = capture([] { HostBackendConfig::parse("3", "0-1,1-0"); });
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_TOPOLOGY: bad configuration: \"0-1,1-0\": pair 1-0 is listed twice");
  // With no devices there is no range of ordinals to name (it said "ordinals 0..-1").
  e = capture([] { HostBackendConfig::parse("0", "0-1"); });
  EXPECT_STREQ(e.what(), "ringkernel: RINGKERNEL_HOST_TOPOLOGY: bad configuration: \"0-1\": pair 0-1 names a device "
                         "but there are no host devices (the count is 0)");
}

// A stray comma is named as an empty pair (the message ended 'but found ""').
TEST(HostConfig, AnEmptyPairIsNamedAsSuch) {
  for (const char* topology : {"0-1,", ",0-1", "0-1,,2-3", "0-1, ,2-3"}) {
    const auto e = capture([&] { HostBackendConfig::parse("4", topology); });
    EXPECT_NE(std::string(e.what()).find("an empty pair (a comma at either end, or two in a row)"), std::string::npos)
        << e.what();
  }
}

TEST(HostConfig, ParsesNativeAtomics) {
  EXPECT_TRUE(HostBackendConfig::parse("2", "", "", "").native_atomics);
  EXPECT_TRUE(HostBackendConfig::parse("2", "", "", " 1 ").native_atomics);
  const auto c = HostBackendConfig::parse("3", "0-1", "1M", "\t0");
  EXPECT_FALSE(c.native_atomics);
  EXPECT_EQ(c.describe(), "3 devices, topology 0-1, 1 MiB each, no native atomics");
  for (const char* bad : {"yes", "true", "2", "01", "0 1", "-0"}) {
    const auto e = capture([&] { HostBackendConfig::parse("2", "", "", bad); });
    EXPECT_EQ(e.code(), errc::configuration) << bad;
    EXPECT_EQ(e.call(), "RINGKERNEL_HOST_NATIVE_ATOMICS") << bad;
    EXPECT_NE(std::string(e.what()).find("\"" + std::string(bad) + "\": expected 1"), std::string::npos)
        << e.what();
  }
}

TEST(HostConfig, NativeAtomicsFromEnvironment) {
  const char* old = std::getenv("RINGKERNEL_HOST_NATIVE_ATOMICS");  // NOLINT(concurrency-mt-unsafe)
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  ::setenv("RINGKERNEL_HOST_NATIVE_ATOMICS", "0", 1);  // NOLINT(concurrency-mt-unsafe)
  EXPECT_FALSE(HostBackendConfig::from_environment().native_atomics);
  ::setenv("RINGKERNEL_HOST_NATIVE_ATOMICS", "no", 1);  // NOLINT(concurrency-mt-unsafe)
  EXPECT_EQ(capture([] { HostBackendConfig::from_environment(); }).call(), "RINGKERNEL_HOST_NATIVE_ATOMICS");
  ::unsetenv("RINGKERNEL_HOST_NATIVE_ATOMICS");  // NOLINT(concurrency-mt-unsafe)
  EXPECT_TRUE(HostBackendConfig::from_environment().native_atomics);
  if (saved) ::setenv("RINGKERNEL_HOST_NATIVE_ATOMICS", saved->c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
}

// A bad variable is reported by every call until code replaces the configuration; it used to be
// thrown by configure_host_backend() itself, so no program could recover from it. Run in a
// fresh process (threadsafe death test): the registry reads the environment once, at first use.
TEST(HostConfig, CodeReplacesABadEnvironment) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const char* old = std::getenv("RINGKERNEL_HOST_DEVICES");  // NOLINT(concurrency-mt-unsafe)
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  ::setenv("RINGKERNEL_HOST_DEVICES", "four", 1);  // NOLINT(concurrency-mt-unsafe)
  EXPECT_EXIT(
      {
        const auto call = [](auto&& f) -> std::string {
          try {
            f();
          } catch (const Error& e) {
            return e.call();
          }
          return "no error";
        };
        if (call([] { devices(); }) != "RINGKERNEL_HOST_DEVICES") std::exit(10);
        if (call([] { DeviceBuffer b(0, 16); }) != "RINGKERNEL_HOST_DEVICES") std::exit(11);
        // The diagnosis does not throw: the host backend's status says what is wrong.
        std::vector<BackendStatus> statuses;
        if (call([&] { statuses = backend_statuses(); }) != "no error") std::exit(14);
        const auto host = std::find_if(statuses.begin(), statuses.end(),
                                       [](const BackendStatus& s) { return s.backend == Backend::host; });
        if (host == statuses.end() || host->available ||
            host->note.find("RINGKERNEL_HOST_DEVICES: bad configuration: \"four\"") == std::string::npos) {
          std::exit(15);
        }
        HostBackendConfig config;
        config.device_count = 3;
        const auto replaced = call([&] { configure_host_backend(config); });
        if (replaced != "no error") {
          std::fprintf(stderr, "configure_host_backend threw from %s\n", replaced.c_str());
          std::exit(12);
        }
        std::exit(devices(Backend::host).size() == 3 && host_backend_config().device_count == 3 ? 0 : 13);
      },
      ::testing::ExitedWithCode(0), "");
  if (saved) ::setenv("RINGKERNEL_HOST_DEVICES", saved->c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
  else ::unsetenv("RINGKERNEL_HOST_DEVICES");  // NOLINT(concurrency-mt-unsafe)
}

TEST(HostConfig, DescribeSaysWhatIsConfigured) {
  HostBackendConfig c;
  c.topology = HostTopology::pairs;
  c.memory_per_device = 100;
  EXPECT_EQ(c.describe(), "2 devices, topology none, 100 bytes each") << "was \"topology , 0 MiB each\"";
  EXPECT_EQ(HostBackendConfig::parse("1", "", "1536K").describe(), "1 device, topology all, 1536 KiB each")
      << "was \"1 MiB each\"";
  EXPECT_EQ(HostBackendConfig::parse("1", "", "2047K").describe(), "1 device, topology all, 2047 KiB each");
  EXPECT_EQ(HostBackendConfig::parse("1", "", "3M").describe(), "1 device, topology all, 3 MiB each");
  c.memory_per_device = std::numeric_limits<std::size_t>::max();  // from code: no limit
  EXPECT_EQ(c.describe(), "2 devices, topology none, unlimited memory each");
  c.memory_per_device = (std::size_t{3} << 30) + 5;  // a GPU-sized figure: MiB, rounded down
  EXPECT_EQ(c.describe(), "2 devices, topology none, 3072 MiB each");
  c.device_count = 4;
  c.pairs = {{0, 1}, {2, 3}};  // listed in their order, separated by commas
  EXPECT_EQ(c.describe(), "4 devices, topology 0-1,2-3, 3072 MiB each");
  c.pairs = {{3, 2}, {0, 1}, {1, 2}};
  EXPECT_EQ(c.describe(), "4 devices, topology 3-2,0-1,1-2, 3072 MiB each");
  EXPECT_EQ(HostBackendConfig::parse("4", "0-1, 2-3").describe(), "4 devices, topology 0-1,2-3, 8192 MiB each");
}

TEST(HostConfig, WithoutNativeAtomicsLinksStayButAtomicsAreNotNative) {
  const test::RestoreHostConfig restore;
  HostBackendConfig config;
  config.device_count = 3;
  config.topology = HostTopology::pairs;
  config.pairs = {{0, 1}};
  config.native_atomics = false;
  configure_host_backend(config);
  EXPECT_FALSE(host_backend_config().native_atomics);
  const auto host = devices(Backend::host);
  ASSERT_EQ(host.size(), 3u);
  for (const auto& d : host) {
    EXPECT_FALSE(d.has(Capability::host_native_atomics)) << d.id;
    EXPECT_TRUE(d.has(Capability::unified_memory | Capability::managed_memory)) << d.id;
  }
  EXPECT_EQ(to_string(host[0].capabilities), "peer-to-peer|unified-memory|managed-memory");
  PeerMemory peers;
  const int a = host[0].id, b = host[1].id, c = host[2].id;
  for (const auto& [src, dst] : {std::pair{a, b}, std::pair{b, a}}) {
    const auto cap = peers.capability(src, dst);
    EXPECT_EQ(cap.access, AccessType::virtual_link);
    EXPECT_TRUE(cap.peer_access_supported);
    EXPECT_FALSE(cap.native_atomics);
    EXPECT_EQ(cap.performance_rank, 1);
  }
  EXPECT_FALSE(peers.capability(a, c).native_atomics);
  EXPECT_FALSE(peers.capability(a, c).peer_access_supported);
  EXPECT_TRUE(peers.capability(a, a).native_atomics) << "a device's own memory";
  EXPECT_FALSE(peers.topology().at(static_cast<std::size_t>(a), static_cast<std::size_t>(b)).native_atomics);
  // Peer access and direct copies are unaffected.
  EXPECT_TRUE(peers.can_access_peer(a, b));
  peers.enable_peer_access(a, b);
  DeviceBuffer x(a, 64), y(b, 64);
  EXPECT_EQ(peers.copy_peer(y, 0, x, 0, 64).path, CopyPath::direct_peer);
}

TEST(HostConfig, ApiConfigIsValidatedAndApplied) {
  HostBackendConfig bad;
  bad.device_count = 2;
  bad.topology = HostTopology::pairs;
  bad.pairs = {{0, 5}};
  const auto e = capture([&] { configure_host_backend(bad); });
  EXPECT_EQ(e.call(), "configure_host_backend");
  HostBackendConfig no_topology;  // a value outside the enum was taken for "pairs" with no pairs
  no_topology.topology = static_cast<HostTopology>(7);
  const auto t = capture([&] { configure_host_backend(no_topology); });
  EXPECT_EQ(t.code(), errc::configuration);
  EXPECT_NE(std::string(t.what()).find("topology 7 is no HostTopology (all, none, pairs)"), std::string::npos)
      << t.what();
  const auto ids = test::use_host_devices(3, HostTopology::none);
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(host_backend_config().device_count, 3);
  for (int id : ids) EXPECT_FALSE(device(id).has(Capability::peer_to_peer));
  for (int id : ids) EXPECT_TRUE(device(id).has(Capability::host_native_atomics)) << "the default";
  EXPECT_TRUE(test::use_host_devices(0, HostTopology::all).empty());
}

}  // namespace
}  // namespace ringkernel
