// Copyright RingKernel authors.
#include "attribute_grammar.h"

#include <algorithm>
#include <utility>

namespace ringkernel::gen::testing {
namespace {

constexpr const char* kKeys[] = {"id", "kernel", "direction", "priority", "causal", "format"};

/// Literal spellings C++ refuses that a lenient reader could take for a number: repeated or mixed
/// suffixes, digit separators that do not stand between two digits.
constexpr const char* kInvalidLiterals[] = {
    "5uu", "5lL", "5Ll", "5lul", "7lll", "3zz", "4lz", "9ulu", "0x'10", "0b'1", "1'u",
    "0'x10", "0x1'", "12'", "0X'F", "1'0'u", "0'b1"};

/// Values no key accepts (a string here is no kernel name either).
constexpr const char* kBadValues[] = {
    "'A'", "'\\n'", "\"s t r\"", "FN(3)", "VA(1)", "VA()", "EMPTY", "EXPR", "SELF_ID", "1.5",
    "1e3", "0x1p3", "0x", "0b", "08", "0b102", "5_km", "nosuch", "Ids::kNope", "(5)",
    "((0x10))", "[5]", "{5}", "Ids::", "::", "Ids::kA::x", "__VA_ARGS__", "__LINE__", "true",
    "u8\"x\"", "R\"x(5)x\"", "5 5", "ID_MACRO 1", "+5", "~0", "sizeof(int)", "\\u0035",
    "FN", "VA", "0x1G", "99999999999999999999999999999999999999999"};

/// Tokens the grammar has no place for (a backslash is followed by more than white space: before a
/// line break it would join two lines, no token at all).
constexpr const char* kStrays[] = {
    "#", "##", "@", "$", "`", "\\ x", "<:", ":>", "<%", "%>", "%:", "%:%:", "(", ")", "[", "]",
    "{", "}", "((", "))", "(()", "[[", "]]", "?", ";", "...", "->", "::", "\\u00e9", "\xc3\xa9",
    "\\U0001F600", "\"", "'", "=", "==", "__VA_ARGS__", "#define", "R\"(", ".5", "<::>"};

std::string digitsOf(std::uint64_t value, unsigned base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value % base]);
    value /= base;
  } while (value != 0);
  return text;
}

}  // namespace

const char* AttributeGrammar::prelude() {
  return "namespace Ids { enum E : unsigned { kA = 17, kB = 0x4001, kZero = 0 }; }\n"
         "constexpr unsigned kPrio = 7;\n"
         "constexpr unsigned kBig = 300;\n"
         "constexpr int kNeg = -3;\n"
         "#define ID_MACRO 0x1234\n"
         "#define PRIO_MACRO (42)\n"
         "#define KERNEL_MACRO \"Macro_k\"\n"
         "#define CHAIN_ID ID_MACRO\n"
         "#define SELF_ID SELF_ID\n"
         "#define FN(x) x\n"
         "#define VA(...) __VA_ARGS__\n"
         "#define EMPTY\n"
         "#define EXPR 1 + 2\n"
         "#define SPLIT_ID \\\n0x4\\\n2\n"
         "#define SPLIT_KERNEL \"Sp\\\nlit\"\n";
}

std::string AttributeGrammar::gap() {
  const std::size_t r = pick(100);
  if (r < 35) return "";
  if (r < 60) return " ";
  if (r < 70) return inMacro_ ? " " : "\n";
  if (r < 80) return "/* c */";
  if (r < 85) return "/* two\nlines */";
  if (r < 90) return inMacro_ ? "/**/" : "// comment\n";
  return "\\\n";
}

/// `text` with a backslash-newline spliced in after one of its characters (C++ joins the lines
/// before it reads tokens, so the meaning does not change).
static std::string spliced(std::string text, std::size_t at) {
  return text.insert(std::clamp<std::size_t>(at, 1, text.size()), "\\\n");
}

std::string AttributeGrammar::integerLiteral(std::uint64_t value) {
  static constexpr unsigned kBases[] = {10, 16, 8, 2};
  static constexpr const char* kSuffixes[] = {"u",  "U",  "l",   "L",   "ul",  "Ul", "uL", "UL",
                                              "lu", "LU", "ll",  "LL",  "ull", "ULL", "llu",
                                              "LLU", "uLL", "z", "Z",  "uz",  "zu", "UZ", "Zu"};
  const unsigned base = oneOf(kBases);
  std::string digits = digitsOf(value, base, chance(50));
  for (std::size_t i = digits.size() - 1; i > 0; --i) {
    if (chance(12)) digits.insert(i, "'");
  }
  std::string text = base == 16  ? (chance(50) ? "0x" : "0X") + digits
                     : base == 2 ? (chance(50) ? "0b" : "0B") + digits
                     : base == 8 && value != 0 ? "0" + digits
                                               : digits;
  if (chance(40)) text += oneOf(kSuffixes);
  if (chance(6)) text = spliced(text, 1 + pick(text.size()));
  return text;
}

std::uint32_t AttributeGrammar::randomId() {
  static constexpr std::uint32_t kEdges[] = {1, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x4001};
  const std::size_t r = pick(10);
  if (r < 3) return oneOf(kEdges);
  if (r < 6) return static_cast<std::uint32_t>(1 + pick(1000));
  return static_cast<std::uint32_t>(1 + pick(0xFFFFFFFFu));
}

AttributeGrammar::Value AttributeGrammar::idValue(AttributeCase& c) {
  static const std::pair<const char*, std::uint32_t> kNames[] = {
      {"Ids::kA", 17}, {"::Ids::kB", 0x4001}, {"ID_MACRO", 0x1234}, {"CHAIN_ID", 0x1234},
      {"kPrio", 7},    {"kBig", 300},         {"SPLIT_ID", 0x42}};
  static constexpr const char* kBad[] = {"0", "0x0", "00", "0b0", "0'0", "Ids::kZero", "0x1'0000'0000",
                                         "4294967296", "-1", "-0x10", "- 5", "kNeg", "KERNEL_MACRO"};
  const std::size_t r = pick(100);
  if (r < 45) {
    const std::uint32_t id = randomId();
    c.intended.id = id;
    return {integerLiteral(id)};
  }
  if (r < 57) {
    const auto& [name, id] = oneOf(kNames);
    c.intended.id = id;
    return {name};
  }
  if (r < 70) return {oneOf(kBad), Value::Kind::Bad};
  if (r < 82) return {oneOf(kBadValues), Value::Kind::Bad};
  if (r < 92) return {oneOf(kInvalidLiterals), Value::Kind::Bad};
  return {stray() + " " + stray(), Value::Kind::Odd};
}

AttributeGrammar::Value AttributeGrammar::priorityValue(AttributeCase& c) {
  static const std::pair<const char*, unsigned> kNames[] = {{"kPrio", 7}, {"PRIO_MACRO", 42}, {"Ids::kA", 17}};
  static constexpr const char* kBad[] = {"256", "0x100", "0400", "kBig", "Ids::kB", "-1", "kNeg",
                                         "0b1'0000'0000", "18446744073709551616"};
  const std::size_t r = pick(100);
  if (r < 45) {
    static constexpr unsigned kEdges[] = {0, 1, 127, 128, 255};
    const unsigned priority = chance(30) ? oneOf(kEdges) : static_cast<unsigned>(pick(256));
    c.intended.priority = priority;
    return {integerLiteral(priority)};
  }
  if (r < 55) {
    const auto& [name, priority] = oneOf(kNames);
    c.intended.priority = priority;
    return {name};
  }
  if (r < 70) return {oneOf(kBad), Value::Kind::Bad};
  if (r < 82) return {oneOf(kBadValues), Value::Kind::Bad};
  if (r < 92) return {oneOf(kInvalidLiterals), Value::Kind::Bad};
  return {stray() + " " + stray(), Value::Kind::Odd};
}

AttributeGrammar::Value AttributeGrammar::kernelValue(AttributeCase& c) {
  static constexpr const char kChars[] = "ABCXYZabcxyz0189_.:-";
  static constexpr const char* kBad[] = {
      "\"\"", "\"a b\"", "\"a\\\"b\"", "u8\"Add\"", "L\"Add\"", "u\"Add\"", "U\"Add\"",
      "R\"x(Add)x\"", "Add", "5", "\"Add\" \"More\"", "\"A\\x41\"", "\"Add\"_s", "\"Add\"s",
      "\"x\xe2\x80\xaey\"", "\"zero\xe2\x80\x8bwidth\"", "\"tab\\t\"", "ID_MACRO", "FN(\"a\")",
      "(\"Add\")", "\"unterminated", ("\"no\xc2\xa0" "break\""),  // split: \xa0b would be one hex escape
      "Ids::kA", "\"a/b\"", "\"a\\\\b\"", "\"Add\"\"\""};
  const std::size_t r = pick(100);
  if (r < 50) {
    std::string name;
    const std::size_t length = chance(5) ? 200 + pick(200) : 1 + pick(12);
    for (std::size_t i = 0; i < length; ++i) name += kChars[pick(sizeof kChars - 1)];
    // Printable non-ASCII characters in UTF-8 are kernel-name characters too (docs/generator.md);
    // format characters (U+202E, U+200B) and space separators (U+00A0) are among the bad values above.
    const bool utf8 = chance(10);
    if (utf8) name += chance(50) ? "\xc3\xa9" : "\xe2\x82\xac";  // e-acute, euro sign
    c.intended.kernel = name;
    const std::string text = "\"" + name + "\"";
    return {chance(6) && !utf8 ? spliced(text, 1 + pick(text.size() - 1)) : text};
  }
  if (r < 58) {
    const bool split = chance(50);
    c.intended.kernel = split ? "Split" : "Macro_k";
    return {split ? "SPLIT_KERNEL" : "KERNEL_MACRO"};
  }
  if (r < 80) return {oneOf(kBad), Value::Kind::Bad};
  if (r < 92) return {oneOf(kBadValues), Value::Kind::Bad};
  return {stray() + " " + stray(), Value::Kind::Odd};
}

AttributeGrammar::Value AttributeGrammar::wordValue(const std::string& key, AttributeCase& c) {
  static const std::pair<const char*, Direction> kDirections[] = {
      {"input", Direction::Input}, {"output", Direction::Output},
      {"kernel_to_kernel", Direction::KernelToKernel}, {"bidirectional", Direction::Bidirectional}};
  static const std::pair<const char*, WireFormat> kFormats[] = {{"array", WireFormat::Array},
                                                                {"map", WireFormat::Map}};
  static constexpr const char* kBad[] = {"sideways", "Input", "\"input\"", "5", "in put", "inputs",
                                         "kernel-to-kernel", "Direction::input", "json", "\"map\"",
                                         "Map", "maps", "1", "yes", "\"true\"", "TRUE", "FN(input)"};
  const std::size_t r = pick(100);
  std::string word;
  if (r < 60 && key == "direction") {
    const auto& [text, direction] = oneOf(kDirections);
    c.intended.direction = direction;
    word = text;
  } else if (r < 60 && key == "format") {
    const auto& [text, format] = oneOf(kFormats);
    c.intended.format = format;
    word = text;
  } else if (r < 60) {
    c.intended.causal = chance(50);
    word = *c.intended.causal ? "true" : "false";
  } else if (r < 90) {
    return {oneOf(kBad), Value::Kind::Bad};
  } else {
    return {stray() + " " + stray(), Value::Kind::Odd};
  }
  return {chance(6) ? spliced(word, 1 + pick(word.size() - 1)) : word};
}

std::string AttributeGrammar::stray() { return oneOf(kStrays); }

std::string AttributeGrammar::entry(AttributeCase& c, std::vector<std::string>& keysSeen) {
  static constexpr const char* kUnknownKeys[] = {"ids", "priorty", "Id", "kernal", "idd", "x", "causal_", "\xc3\xa9"};
  const std::size_t r = pick(100);
  if (r < 5) {
    c.mustFail = true;
    return std::string(oneOf(kUnknownKeys)) + gap() + "=" + gap() + "1";
  }
  if (r < 7) {
    c.mustFail = true;
    return chance(50) ? "id 5" : "priority" + gap() + "3";
  }
  if (r < 12) {
    c.mustFail = true;
    return stray();
  }
  const std::string key = oneOf(kKeys);
  if (std::find(keysSeen.begin(), keysSeen.end(), key) != keysSeen.end()) {
    c.mustFail = true;  // a repeated key
    c.unknownKeys.push_back(key);
  }
  keysSeen.push_back(key);
  if (r < 14) {  // no value
    c.mustFail = true;
    return key + gap() + "=" + gap();
  }
  if (key == "causal" && chance(40)) {
    c.intended.causal = true;
    return key;
  }
  const Value value = key == "id"         ? idValue(c)
                      : key == "priority" ? priorityValue(c)
                      : key == "kernel"   ? kernelValue(c)
                                          : wordValue(key, c);
  if (value.kind == Value::Kind::Bad) c.mustFail = true;
  if (value.kind == Value::Kind::Odd) c.unknownKeys.push_back(key);
  std::string text = key + gap() + "=" + gap() + value.text;
  if (chance(3)) {
    c.mustFail = true;
    text += " " + stray();
  }
  return text;
}

AttributeCase AttributeGrammar::next() {
  AttributeCase c;
  const std::size_t placement = pick(100);
  inMacro_ = placement >= 87 && placement < 95;
  const std::size_t count = pick(7);
  std::vector<std::string> keysSeen;
  bool emptyEntry = false;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string piece = chance(3) ? "" : entry(c, keysSeen);
    emptyEntry = emptyEntry || piece.empty();
    c.arguments += (i == 0 ? gap() : "," + gap()) + piece + gap();
  }
  if (emptyEntry && count > 1) c.mustFail = true;  // `a, , b` or a trailing ','
  c.exact = !c.mustFail && c.unknownKeys.empty();

  c.source = prelude();
  c.regionBegin = c.source.size();
  const std::string attribute = "[[ringkernel::message(" + c.arguments + ")]]";
  if (placement < 70) {
    c.source += "struct " + attribute + " Msg { int x; };\n";
  } else if (placement < 75) {  // no argument list: every option at its default
    c.source += "struct [[ringkernel::message]] Msg { int x; };\n";
    c = AttributeCase{c.source, "", c.regionBegin, 0, false, true, {}, {}};
  } else if (placement < 80) {  // the struct ends the file, without a line break
    c.source += "struct " + attribute + " Msg { int x; };";
  } else if (placement < 84) {  // the file ends inside the argument list
    c.source += "struct [[ringkernel::message(" + c.arguments;
    c.mustFail = true;
  } else if (placement < 87) {  // the file ends after the attribute's name
    c.source += "struct [[ringkernel::message";
    c.mustFail = true;
  } else if (placement < 95) {  // the whole attribute in an object-like macro
    c.source += "#define RK_ATTR " + attribute + "\nstruct RK_ATTR Msg { int x; };\n";
  } else {  // the arguments from a function-like macro's parameters: always refused
    c.source += "#define RK_MSG(...) [[ringkernel::message(__VA_ARGS__)]]\nstruct RK_MSG(" +
                c.arguments + ") Msg { int x; };\n";
    c.mustFail = true;
  }
  if (c.mustFail) c.exact = false;
  c.regionEnd = c.source.size();
  return c;
}

}  // namespace ringkernel::gen::testing
