// Copyright RingKernel authors.
// libFuzzer target for HostBackendConfig::parse, the parser of the RINGKERNEL_HOST_DEVICES,
// _TOPOLOGY, _MEMORY and _NATIVE_ATOMICS variables (user text). The input is the four values
// separated by NUL bytes (an environment value cannot hold one); missing values are empty (unset).
// Sanitizers catch memory errors and undefined behaviour; the checks below catch wrong results:
// - parse returns or throws ringkernel::Error(errc::configuration) naming one of the variables,
//   with no control character or byte beyond ASCII in its message (the text is quoted there,
//   escaped);
// - an accepted configuration is valid (count 0..64, memory 1 B..1 PiB, pairs of distinct existing
//   ordinals, none twice, only with the pairs topology), links exactly the devices its topology
//   names (linked(a, b) for every two ordinals), and its canonical text parses back to it;
// - surrounding white space changes nothing (the same result, or an error from the same variable).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "ringkernel/error.h"
#include "ringkernel/host_backend.h"

namespace {

using ringkernel::HostBackendConfig;
using ringkernel::HostTopology;
using Values = std::array<std::string, 4>;

struct Outcome {
  std::optional<HostBackendConfig> config;  // set when accepted
  std::string variable;                     // the variable an error names
};

bool same(const HostBackendConfig& a, const HostBackendConfig& b) {
  return a.device_count == b.device_count && a.topology == b.topology && a.pairs == b.pairs &&
         a.memory_per_device == b.memory_per_device && a.native_atomics == b.native_atomics;
}

Outcome parse(const Values& v) {
  try {
    return {HostBackendConfig::parse(v[0], v[1], v[2], v[3]), {}};
  } catch (const ringkernel::Error& e) {
    if (e.code() != ringkernel::errc::configuration) std::abort();
    const std::string variable = e.call();
    if (variable != "RINGKERNEL_HOST_DEVICES" && variable != "RINGKERNEL_HOST_TOPOLOGY" &&
        variable != "RINGKERNEL_HOST_MEMORY" && variable != "RINGKERNEL_HOST_NATIVE_ATOMICS")
      std::abort();
    for (const char c : std::string_view(e.what()))
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
        std::abort();  // a raw control character or byte beyond ASCII
    return {std::nullopt, variable};
  }
}

void check_valid(const HostBackendConfig& c) {
  if (c.device_count < 0 || c.device_count > 64) std::abort();
  if (c.memory_per_device == 0 || c.memory_per_device > (std::size_t{1} << 50)) std::abort();
  if (c.topology != HostTopology::pairs && !c.pairs.empty()) std::abort();
  for (std::size_t i = 0; i < c.pairs.size(); ++i) {
    const auto [a, b] = c.pairs[i];
    if (a == b || a < 0 || b < 0 || a >= c.device_count || b >= c.device_count) std::abort();
    for (std::size_t j = 0; j < i; ++j) {
      const auto [x, y] = c.pairs[j];
      if ((a == x && b == y) || (a == y && b == x)) std::abort();  // listed twice
    }
  }
  for (int a = 0; a < c.device_count; ++a) {
    for (int b = 0; b < c.device_count; ++b) {
      bool listed = false;
      for (const auto& [x, y] : c.pairs) listed = listed || (a == x && b == y) || (a == y && b == x);
      const bool want = a != b && (c.topology == HostTopology::all || listed);
      if (c.linked(a, b) != want) std::abort();
    }
  }
  (void)c.describe();
}

Values canonical_text(const HostBackendConfig& c) {
  Values v{std::to_string(c.device_count), "", std::to_string(c.memory_per_device),
           c.native_atomics ? "1" : "0"};
  switch (c.topology) {
    case HostTopology::all: v[1] = "all"; break;
    case HostTopology::none: v[1] = "none"; break;
    case HostTopology::pairs:
      for (std::size_t i = 0; i < c.pairs.size(); ++i)
        v[1] += (i ? "," : "") + std::to_string(c.pairs[i].first) + "-" + std::to_string(c.pairs[i].second);
      break;
  }
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Values values;
  std::size_t field = 0;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      if (++field == values.size()) break;
    } else {
      values[field] += static_cast<char>(data[i]);
    }
  }
  const Outcome outcome = parse(values);
  if (outcome.config) {
    check_valid(*outcome.config);
    const Outcome again = parse(canonical_text(*outcome.config));
    if (!again.config || !same(*again.config, *outcome.config)) std::abort();
  }
  Values padded = values;
  for (std::string& v : padded) v = " \t" + v + "\r\n ";
  const Outcome blank = parse(padded);
  if (outcome.config.has_value() != blank.config.has_value()) std::abort();
  if (outcome.config ? !same(*outcome.config, *blank.config) : outcome.variable != blank.variable) std::abort();
  return 0;
}
