// Copyright RingKernel authors.
// Names and ids of messages (DESIGN.md §3): FNV-1a 32, qualified names, kernel names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model.h"

namespace clang {
class NamedDecl;
class TagDecl;
class TypedefNameDecl;
}  // namespace clang

namespace ringkernel::gen {

/// FNV-1a 32-bit; equals ringkernel::fnv1a32 of the runtime (runtime/include/ringkernel/message.h).
std::uint32_t fnv1a32(std::string_view text);

/// Fully qualified name without a leading "::", inline namespaces included, e.g. "app::AddRequest".
std::string qualifiedName(const clang::NamedDecl& decl);

/// The typedef or alias that names the unnamed struct or enum `tag` (`typedef struct { ... } Point;`,
/// `using Point = struct { ... };`): clang's name for linkage purposes, else the first of the
/// typedefs declared right after the tag that names the tag itself. Null for a named tag and for
/// one no such typedef names (`struct { ... } instance;`).
const clang::TypedefNameDecl* typedefNaming(const clang::TagDecl& tag);

/// The type name without a trailing Request / Response / Message ("AddRequest" -> "Add"); the name
/// itself when it has none of these suffixes or consists of nothing else.
std::string defaultKernelName(std::string_view typeName);

/// Why `name` may not be written as `kernel = "name"`; "" when it may. A kernel name is non-empty
/// well-formed UTF-8 of ASCII letters, digits, '_', '.', ':', '-' and printable non-ASCII characters
/// (so that every default kernel, a type name, is one too: clang takes non-ASCII letters in
/// identifiers, and the validator refuses '$'), without format characters (Unicode Cf: bidirectional
/// controls U+202A-U+202E, U+2066-U+2069, U+200E/U+200F, U+061C, zero-width characters, ...), which
/// would hide what the name is and make g++'s -Wbidi-chars fail the generated files under -Werror,
/// without space separators (Unicode Zs: U+00A0 NO-BREAK SPACE, U+2000-U+200A, U+3000, ...),
/// which look like a plain space, and without the printable code points that show as nothing or as a
/// blank (U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, U+17B4/U+17B5, the variation
/// selectors U+180B-U+180D, U+180F, U+FE00-U+FE0F, U+E0100-U+E01EF, U+2800 BRAILLE PATTERN BLANK).
/// The reason names the first bad code point ("it has U+202E, an invisible format character ...").
/// Names are compared byte for byte: a decomposed and a composed 'ü' are two kernels.
/// The attribute refuses other kernel names; so does the manifest reader.
std::string kernelNameProblem(std::string_view name);

/// The rule of kernelNameProblem in one phrase, as the attribute's fix and the manifest reader's
/// error state it.
inline constexpr std::string_view kKernelNameRule =
    "ASCII letters, digits, '_', '.', ':', '-' or printable non-ASCII characters in UTF-8, none "
    "invisible: no format characters such as bidirectional controls, no space characters such as "
    "U+00A0, no fillers or variation selectors such as U+3164 or U+FE0F";

/// kernelNameProblem(name).empty().
bool isKernelName(std::string_view name);

/// `name` with the invisible non-ASCII content a kernel name may not hold shown as clang shows it
/// in source lines: a code point that is not printable, a format, space or blank filler character as
/// <U+202E>, a byte that is not UTF-8 as <FC> (ASCII as it is: the caller's quoting escapes its
/// control characters).
std::string visibleKernelName(std::string_view name);

/// `kernel` option if given, else defaultKernelName(typeName).
std::string kernelName(const MessageOptions& options, std::string_view typeName);

/// `id` option if given, else fnv1a32(qualifiedName). May be 0, which the validator rejects.
std::uint32_t typeId(const MessageOptions& options, std::string_view qualifiedName);

}  // namespace ringkernel::gen
