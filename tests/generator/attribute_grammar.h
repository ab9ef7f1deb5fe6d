// Copyright RingKernel authors.
// Random [[ringkernel::message(...)]] argument lists from a token grammar, for the robustness test
// of the attribute parser (test_attribute_random.cpp). Each case is a whole header: a fixed prelude
// of constants and macros, then one annotated struct. The grammar mixes pieces of known meaning
// (valid keys and values: literals in every base with separators and suffixes, constants, macros,
// string literals) with pieces the front end must refuse (bad values, unknown and repeated keys,
// stray tokens, unbalanced brackets, invalid literal spellings, a truncated file, arguments taken
// from a macro's parameters), and separates tokens by comments, line breaks and backslash-newlines.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model.h"

namespace ringkernel::gen::testing {

/// The options that the pieces of known meaning stand for (a key the case does not give, or gives
/// through a piece of unknown meaning, is nullopt).
struct IntendedOptions {
  std::optional<std::uint32_t> id;
  std::optional<std::string> kernel;
  std::optional<Direction> direction;
  std::optional<unsigned> priority;
  std::optional<bool> causal;
  std::optional<WireFormat> format;
};

struct AttributeCase {
  std::string source;     // the whole header
  std::string arguments;  // the attribute's argument text as generated
  /// Byte range [regionBegin, regionEnd) of the source that holds the attribute (and the macro
  /// definition that spells it): at least one error must be reported inside it.
  std::size_t regionBegin = 0;
  std::size_t regionEnd = 0;
  /// A piece the front end must refuse (a bad value, an unknown or repeated key, a stray token, ...).
  bool mustFail = false;
  /// Only pieces of known meaning: the front end must accept the case with exactly `intended`
  /// (keys not given: their defaults).
  bool exact = true;
  IntendedOptions intended;
  /// Keys given more than once or through a piece of unknown meaning: no value is expected for them.
  std::vector<std::string> unknownKeys;
};

class AttributeGrammar {
 public:
  explicit AttributeGrammar(std::uint64_t seed) : rng_(seed) {}

  AttributeCase next();

  /// The constants and macros every case's values may name (the first lines of every source).
  static const char* prelude();

 private:
  struct Value {
    std::string text;
    enum class Kind { Known, Bad, Odd } kind = Kind::Known;
  };

  bool chance(unsigned percent) { return pick(100) < percent; }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  template <class T, std::size_t N>
  const T& oneOf(const T (&items)[N]) { return items[pick(N)]; }

  /// Between two tokens: nothing, a space, a line break, a comment or a backslash-newline.
  std::string gap();
  std::string integerLiteral(std::uint64_t value);
  std::uint32_t randomId();
  Value idValue(AttributeCase& c);
  Value priorityValue(AttributeCase& c);
  Value kernelValue(AttributeCase& c);
  Value wordValue(const std::string& key, AttributeCase& c);
  /// One `key = value` (or `causal`, or a broken entry); records its meaning in `c`.
  std::string entry(AttributeCase& c, std::vector<std::string>& keysSeen);
  std::string stray();

  std::mt19937_64 rng_;
  bool inMacro_ = false;  // the arguments go into a #define: no line breaks or // comments
};

}  // namespace ringkernel::gen::testing
