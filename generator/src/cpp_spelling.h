// Copyright RingKernel authors.
// How the backend spells things in generated C++: hex ids, guard macros, string literals, identifiers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ringkernel::gen {

/// Eight lower-case hex digits, e.g. "0001abcd".
std::string hexDigits(std::uint32_t value);

/// A C++ unsigned literal, e.g. "0x0001abcdu".
std::string hexLiteral(std::uint32_t value);

/// A C++ string literal (quotes included) with `text` escaped.
std::string cppStringLiteral(std::string_view text);

/// An upper-case macro fragment: letters, digits and '_' ("my-app.h" -> "MY_APP_H").
std::string macroFragment(std::string_view text);

/// A macro fragment that stands for one qualified name and no other (guards of generated types):
/// letters and digits stay, '_' becomes "_0", "::" becomes "_1", any other byte "_x" and two hex
/// digits ("app::my_Ping" -> "app_1my_0Ping").
std::string qualifiedNameFragment(std::string_view qualifiedName);

/// A valid C++ identifier for a namespace name: other characters become '_', a leading digit gets
/// a '_' prefix, "__" is collapsed, "_X" gets an 'r' prefix, keywords get a '_' suffix. Empty for empty input.
std::string cppIdentifier(std::string_view text);

}  // namespace ringkernel::gen
