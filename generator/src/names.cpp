// Copyright RingKernel authors.
#include "names.h"

#include <algorithm>
#include <array>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/PrettyPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/raw_ostream.h"

namespace ringkernel::gen {

std::uint32_t fnv1a32(std::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (char c : text) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 16777619u;
  }
  return hash;
}

std::string qualifiedName(const clang::NamedDecl& decl) {
  clang::PrintingPolicy policy(decl.getASTContext().getLangOpts());
  policy.SuppressInlineNamespace = false;
  policy.SuppressUnwrittenScope = false;
  std::string name;
  llvm::raw_string_ostream out(name);
  decl.printQualifiedName(out, policy);
  out.flush();
  if (name.starts_with("::")) name.erase(0, 2);
  return name;
}

std::string defaultKernelName(std::string_view typeName) {
  static constexpr std::array<std::string_view, 3> suffixes = {"Request", "Response", "Message"};
  for (std::string_view suffix : suffixes) {
    if (typeName.size() > suffix.size() && typeName.ends_with(suffix)) {
      return std::string(typeName.substr(0, typeName.size() - suffix.size()));
    }
  }
  return std::string(typeName);
}

bool isKernelName(std::string_view name) {
  if (name.empty()) return false;
  const bool allowedBytes = std::all_of(name.begin(), name.end(), [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '-' ||
           static_cast<unsigned char>(c) >= 0x80;
  });
  const auto* begin = reinterpret_cast<const llvm::UTF8*>(name.data());
  return allowedBytes && llvm::isLegalUTF8String(&begin, begin + name.size());
}

std::string kernelName(const MessageOptions& options, std::string_view typeName) {
  return options.kernel ? *options.kernel : defaultKernelName(typeName);
}

std::uint32_t typeId(const MessageOptions& options, std::string_view qualifiedName) {
  return options.id ? *options.id : fnv1a32(qualifiedName);
}

}  // namespace ringkernel::gen
