// Copyright RingKernel authors.
// Memory sizes as text, both ways. memory_text: a size as people read it: whole MiB where that is
// exact or the size is 1 GiB or more (a GPU's memory, rounded down by under 0.1 %), else KiB or bytes
// where those are exact, so that small sizes are not rounded to nothing or to a size they are not
// ("1 MiB" for 2047 KiB); the largest size_t (a host device without a limit) is "unlimited".
// parse_memory_text: a size as RINGKERNEL_HOST_MEMORY and ringkernel-info --bytes take it.
#pragma once

#include <charconv>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace ringkernel::detail {

inline std::string memory_text(std::size_t bytes) {
  constexpr std::size_t kib = 1024, mib = kib * 1024, gib = mib * 1024;
  if (bytes == std::numeric_limits<std::size_t>::max()) return "unlimited memory";
  if (bytes % mib == 0 || bytes >= gib) return std::to_string(bytes / mib) + " MiB";
  if (bytes % kib == 0) return std::to_string(bytes / kib) + " KiB";
  return std::to_string(bytes) + " bytes";
}

// White space around a value is not part of it: blanks, and the line breaks a value read from a
// file keeps (CRLF).
inline bool memory_text_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

inline std::string_view trim_space(std::string_view s) {
  while (!s.empty() && memory_text_is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && memory_text_is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// The largest size parse_memory_text accepts: 1 PiB.
inline constexpr std::size_t max_memory_text = std::size_t{1} << 50;
/// What parse_memory_text accepts, for error messages.
inline constexpr const char* memory_text_syntax =
    "a positive byte count with optional K, M or G suffix (at most 1 PiB)";

/// A byte count: decimal digits with an optional suffix K, M or G (KiB, MiB, GiB; lower case too),
/// white space around it ignored, no sign; from 1 byte to 1 PiB. nullopt for anything else.
inline std::optional<std::size_t> parse_memory_text(std::string_view text) {
  std::string_view digits = trim_space(text);
  if (digits.empty()) return std::nullopt;
  int shift = 0;
  switch (digits.back()) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    default: break;
  }
  if (shift != 0) digits = trim_space(digits.substr(0, digits.size() - 1));
  long long value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) return std::nullopt;
  if (value <= 0 || static_cast<unsigned long long>(value) > max_memory_text >> shift) return std::nullopt;
  return static_cast<std::size_t>(value) << shift;
}

}  // namespace ringkernel::detail
