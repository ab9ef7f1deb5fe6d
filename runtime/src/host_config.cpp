// Copyright RingKernel authors.
// HostBackendConfig: parsing of RINGKERNEL_HOST_DEVICES / _TOPOLOGY / _MEMORY / _NATIVE_ATOMICS
// and validation.
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>

#include "memory_text.h"
#include "ringkernel/error.h"
#include "registry.h"
#include "ringkernel/host_backend.h"

namespace ringkernel {

namespace {

constexpr int max_host_devices = 64;

// The user's text in double quotes, with `"` and `\` escaped and control characters and bytes
// beyond ASCII spelled as escapes (\r, \n, \t, \xNN), so a message stays on one line, is valid
// UTF-8 whatever the variable held, and shows what it held.
std::string quoted(std::string_view text) {
  std::string q = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': q += "\\\""; break;
      case '\\': q += "\\\\"; break;
      case '\n': q += "\\n"; break;
      case '\r': q += "\\r"; break;
      case '\t': q += "\\t"; break;
      default:
        if (byte < 0x20 || byte >= 0x7f) {
          constexpr char hex[] = "0123456789abcdef";
          q += "\\x";
          q += hex[byte >> 4];
          q += hex[byte & 0xf];
        } else {
          q += c;
        }
    }
  }
  return q + "\"";
}

[[noreturn]] void fail(const char* variable, std::string_view text, const std::string& why) {
  throw Error(errc::configuration, variable, no_device, quoted(text) + ": " + why);
}

// White space around a value (and around each pair) is not part of it (memory_text.h).
using detail::trim_space;

bool parse_int(std::string_view s, long long& out) {
  s = trim_space(s);
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && end == s.data() + s.size();
}

// Where the ordinals of `count` host devices lie, after "names a device ".
std::string ordinal_range(int count) {
  return count == 0 ? "but there are no host devices (the count is 0)"
                    : "outside the " + std::to_string(count) + " host devices (ordinals 0.." +
                          std::to_string(count - 1) + ")";
}

std::pair<int, int> parse_pair(std::string_view token, std::string_view whole, int device_count) {
  const std::string_view t = trim_space(token);
  if (t.empty()) {
    fail("RINGKERNEL_HOST_TOPOLOGY", whole, "an empty pair (a comma at either end, or two in a row)");
  }
  // The dash between the ordinals, not a minus sign in front of the first ("-1-2").
  const auto dash = t.find('-', 1);
  long long a = 0, b = 0;
  if (dash == std::string_view::npos || !parse_int(t.substr(0, dash), a) || !parse_int(t.substr(dash + 1), b))
    fail("RINGKERNEL_HOST_TOPOLOGY", whole,
         "expected all, none or pairs like 0-1,2-3 but found " + quoted(token));
  // A minus sign is a negative ordinal, "-0" too (as a device count is refused).
  const bool negative = t.front() == '-' || trim_space(t.substr(dash + 1)).front() == '-';
  if (negative || a >= device_count || b >= device_count) {
    const std::string name = negative ? quoted(t) : std::to_string(a) + "-" + std::to_string(b);
    fail("RINGKERNEL_HOST_TOPOLOGY", whole, "pair " + name + " names a device " + ordinal_range(device_count));
  }
  return {static_cast<int>(a), static_cast<int>(b)};
}

}  // namespace

namespace detail {

void validate_host_config(const HostBackendConfig& config, const char* source) {
  if (config.device_count < 0 || config.device_count > max_host_devices)
    throw Error(errc::configuration, source, no_device,
                "host device count " + std::to_string(config.device_count) +
                    " is outside 0.." + std::to_string(max_host_devices));
  if (config.memory_per_device == 0)
    throw Error(errc::configuration, source, no_device, "memory per host device must be > 0");
  if (config.topology != HostTopology::all && config.topology != HostTopology::none &&
      config.topology != HostTopology::pairs)
    throw Error(errc::configuration, source, no_device,
                "topology " + std::to_string(static_cast<int>(config.topology)) +
                    " is no HostTopology (all, none, pairs)");
  if (config.topology != HostTopology::pairs && !config.pairs.empty())
    throw Error(errc::configuration, source, no_device,
                "pairs are given but the topology is not HostTopology::pairs");
  const auto bad = [&](const std::string& why) {
    throw Error(errc::configuration, source, no_device, why);
  };
  // Pair ordinals must exist and be distinct, no pair twice.
  for (std::size_t i = 0; i < config.pairs.size(); ++i) {
    const auto [a, b] = config.pairs[i];
    // "-1-1" would be ambiguous: a negative ordinal is spelled as the pair it is.
    const std::string name = a < 0 || b < 0 ? "(" + std::to_string(a) + ", " + std::to_string(b) + ")"
                                            : std::to_string(a) + "-" + std::to_string(b);
    if (a == b) bad("pair " + name + " links a device to itself");
    if (a < 0 || b < 0 || a >= config.device_count || b >= config.device_count)
      bad("pair " + name + " names a device " + ordinal_range(config.device_count));
    for (std::size_t j = 0; j < i; ++j) {
      const auto [c, d] = config.pairs[j];
      if ((a == c && b == d) || (a == d && b == c)) bad("pair " + name + " is listed twice");
    }
  }
}

}  // namespace detail

bool HostBackendConfig::linked(int a, int b) const noexcept {
  if (a == b) return false;
  switch (topology) {
    case HostTopology::all: return true;
    case HostTopology::none: return false;
    case HostTopology::pairs:
      return std::any_of(pairs.begin(), pairs.end(), [&](const auto& p) {
        return (p.first == a && p.second == b) || (p.first == b && p.second == a);
      });
  }
  return false;
}

HostBackendConfig HostBackendConfig::parse(std::string_view devices, std::string_view topology,
                                           std::string_view memory,
                                           std::string_view native_atomics) {
  HostBackendConfig config;
  if (!trim_space(devices).empty()) {
    long long n = 0;
    // No sign: "+3" does not parse, and "-0" is refused as well.
    if (!parse_int(devices, n) || trim_space(devices).front() == '-' || n < 0 || n > max_host_devices)
      fail("RINGKERNEL_HOST_DEVICES", devices,
           "expected a device count from 0 to " + std::to_string(max_host_devices));
    config.device_count = static_cast<int>(n);
  }
  const std::string_view topo = trim_space(topology);
  if (topo.empty() || topo == "all") {
    config.topology = HostTopology::all;
  } else if (topo == "none") {
    config.topology = HostTopology::none;
  } else {
    config.topology = HostTopology::pairs;
    std::size_t start = 0;
    while (start <= topo.size()) {
      const auto comma = std::min(topo.find(',', start), topo.size());
      config.pairs.push_back(parse_pair(topo.substr(start, comma - start), topology, config.device_count));
      start = comma + 1;
    }
  }
  if (!trim_space(memory).empty()) {
    const auto bytes = detail::parse_memory_text(memory);
    if (!bytes) fail("RINGKERNEL_HOST_MEMORY", memory, std::string("expected ") + detail::memory_text_syntax);
    config.memory_per_device = *bytes;
  }
  const std::string_view atomics = trim_space(native_atomics);
  if (atomics == "0") {
    config.native_atomics = false;
  } else if (!atomics.empty() && atomics != "1") {
    fail("RINGKERNEL_HOST_NATIVE_ATOMICS", native_atomics,
         "expected 1 (links have native atomics) or 0 (they have none)");
  }
  // Only the pairs can be invalid here (the count and the memory were checked above): say so with
  // the variable's text, as for every other bad value.
  try {
    detail::validate_host_config(config, "RINGKERNEL_HOST_TOPOLOGY");
  } catch (const Error& e) {
    fail("RINGKERNEL_HOST_TOPOLOGY", topology, e.detail());
  }
  return config;
}

HostBackendConfig HostBackendConfig::from_environment() {
  const auto env = [](const char* name) -> std::string_view {
    const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read once at start-up
    return v ? std::string_view(v) : std::string_view();
  };
  return parse(env("RINGKERNEL_HOST_DEVICES"), env("RINGKERNEL_HOST_TOPOLOGY"),
               env("RINGKERNEL_HOST_MEMORY"), env("RINGKERNEL_HOST_NATIVE_ATOMICS"));
}

std::string HostBackendConfig::describe() const {
  std::string s = std::to_string(device_count) + " device" + (device_count == 1 ? "" : "s") +
                  ", topology ";
  switch (topology) {
    case HostTopology::all: s += "all"; break;
    case HostTopology::none: s += "none"; break;
    case HostTopology::pairs:
      if (pairs.empty()) s += "none";  // no pair links nothing
      for (std::size_t i = 0; i < pairs.size(); ++i)
        s += (i ? "," : "") + std::to_string(pairs[i].first) + "-" + std::to_string(pairs[i].second);
      break;
  }
  s += ", " + detail::memory_text(memory_per_device) + " each";
  if (!native_atomics) s += ", no native atomics";
  return s;
}

}  // namespace ringkernel
