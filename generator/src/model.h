// Copyright RingKernel authors.
// The model between the clang AST and the emitted files: everything the renderers need, computed once
// by the frontend for the target ABI. Plain data; no clang types leak past this header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ringkernel::gen {

/// Mirrors ringkernel::field_kind (runtime/include/ringkernel/message.h); same enumerator names.
enum class FieldKind {
  Boolean, Character, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
  Float32, Float64, Enumeration, Message, Byte, Char8,
};

/// Spelling of the runtime enumerator, e.g. "int32" (used in templates and the manifest).
const char* runtimeName(FieldKind kind);
/// Whether an integer of this kind is signed on the wire: Character (plain char travels as signed
/// char everywhere), Int8 to Int64. Boolean, the unsigned kinds, Char8 and Byte are not.
bool signedOnTheWire(FieldKind kind);
/// Fixed-width C++ spelling for scalar kinds, e.g. "std::int32_t" ("char8_t" for Char8); empty for
/// Enumeration/Message.
const char* fixedWidthType(FieldKind kind);

enum class Direction { Input, Output, KernelToKernel, Bidirectional };
enum class WireFormat { Array, Map };
const char* runtimeName(Direction direction);   // "input", "output", "kernel_to_kernel", "bidirectional"
const char* runtimeName(WireFormat format);     // "array", "map"

struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

/// Options given in [[ringkernel::message(...)]]; unset means "use the default of DESIGN.md §3".
struct MessageOptions {
  std::optional<std::uint32_t> id;
  std::optional<std::string> kernel;
  Direction direction = Direction::Bidirectional;
  std::uint8_t priority = 128;
  bool causal = false;
  WireFormat format = WireFormat::Array;
};

/// An enum used by some field (reproduced in .rk.cuh).
struct EnumModel {
  std::string qualifiedName;             // "app::Color" (no leading ::)
  std::string name;                      // "Color"
  std::vector<std::string> namespaces;   // {"app"}; empty at global scope
  std::vector<std::size_t> inlineNamespaces;  // indices into namespaces of the inline ones
  std::string enclosingMessage;          // qualified name of the message it is nested in, or empty
  bool scoped = false;                   // enum class
  FieldKind underlying = FieldKind::Int32;
  struct Enumerator {
    std::string name;
    std::string value;         // as a C++ literal ("0u", "'\\xe9'", "(-9223372036854775807LL - 1)")
    std::uint64_t wireValue = 0;  // the integer the wire carries, two's complement: an int64 where
                                  // signedOnTheWire(underlying) ('\\xe9' is -23), else a uint64
  };
  std::vector<Enumerator> enumerators;
  SourceLoc location;
};

struct FieldModel {
  std::string name;
  FieldKind kind = FieldKind::Int32;       // of one element
  FieldKind underlying = FieldKind::Int32; // == kind unless Enumeration
  std::string typeName;   // element type for .rk.cuh: "std::int32_t", "char8_t", "::app::Color", "::app::Point"
  // The element type as the parse resolved it (canonical, valid anywhere): "unsigned long long",
  // "::std::byte", "::app::Color"; .rk.h asserts that the compiled field has it. Empty in a model
  // read from a manifest or built by hand (then typeName stands in).
  std::string sourceType;
  std::string referencedType;  // qualified name of the enum or message for those kinds, else empty
  std::uint32_t messageTypeId = 0;
  std::vector<std::uint64_t> extents;  // array dimensions, outermost first; empty for scalars
  std::uint64_t offset = 0;
  std::uint64_t size = 0;          // whole field
  std::uint64_t elementSize = 0;
  std::uint64_t alignment = 0;     // of the field as laid out (honours alignas)
  std::uint64_t naturalAlignment = 0;  // of the element type without alignas on the field
  std::string initializer;  // default member initializer as a C++ constant literal, or empty
  SourceLoc location;
};

struct MessageModel {
  std::string qualifiedName;            // "app::AddRequest"
  std::string name;                     // "AddRequest"
  std::vector<std::string> namespaces;  // {"app"}
  std::vector<std::size_t> inlineNamespaces;  // indices into namespaces of the inline ones ({1} for app::v2
                                              // in `namespace app { inline namespace v2 {`)
  std::string enclosingMessage;         // qualified name of the enclosing message, if nested in one
  bool isClass = false;                 // declared with `class` (members are public, checked)
  MessageOptions options;
  std::uint32_t typeId = 0;
  std::string kernel;
  std::uint32_t kernelId = 0;
  std::uint64_t size = 0;
  std::uint64_t alignment = 0;
  std::uint64_t naturalAlignment = 0;   // without alignas on the struct
  std::vector<FieldModel> fields;
  SourceLoc location;
  bool fromThisHeader = true;  // false for nested messages declared in another header
};

/// Everything generated for one input header.
struct HeaderModel {
  std::string headerPath;   // absolute path of the input header
  std::string includeSpelling;  // how generated files include it
  std::string stem;         // file name without extension, e.g. "messages"
  std::string targetTriple;
  std::vector<EnumModel> enums;        // every enum a field uses, dependency order
  std::vector<MessageModel> messages;  // this header's messages plus nested ones they use,
                                       // dependencies before dependents
};

}  // namespace ringkernel::gen
