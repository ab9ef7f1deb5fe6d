// Copyright RingKernel authors.
// Names and ids of messages (DESIGN.md §3): FNV-1a 32, qualified names, kernel names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model.h"

namespace clang {
class NamedDecl;
}

namespace ringkernel::gen {

/// FNV-1a 32-bit; equals ringkernel::fnv1a32 of the runtime (runtime/include/ringkernel/message.h).
std::uint32_t fnv1a32(std::string_view text);

/// Fully qualified name without a leading "::", inline namespaces included, e.g. "app::AddRequest".
std::string qualifiedName(const clang::NamedDecl& decl);

/// The type name without a trailing Request / Response / Message ("AddRequest" -> "Add"); the name
/// itself when it has none of these suffixes or consists of nothing else.
std::string defaultKernelName(std::string_view typeName);

/// Whether `name` may be written as `kernel = "name"`: non-empty, only ASCII letters, digits, '_',
/// '.', ':', '-' and non-ASCII characters (well-formed UTF-8), so that every default kernel (a type
/// name: clang takes non-ASCII letters in identifiers, and the validator refuses '$') is one too.
/// The attribute refuses other kernel names; so does the manifest reader.
bool isKernelName(std::string_view name);

/// `kernel` option if given, else defaultKernelName(typeName).
std::string kernelName(const MessageOptions& options, std::string_view typeName);

/// `id` option if given, else fnv1a32(qualifiedName). May be 0, which the validator rejects.
std::uint32_t typeId(const MessageOptions& options, std::string_view qualifiedName);

}  // namespace ringkernel::gen
