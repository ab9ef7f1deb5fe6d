// Copyright RingKernel authors.
// Reading a manifest back (`ringkernel-gen registry`): a strict reader over nlohmann::json whose
// errors name the JSON path of the offending value. Writing lives in manifest.cpp.
#include "manifest.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>

#include "cpp_spelling.h"
#include "json_writer.h"
#include "llvm/Support/Path.h"
#include "names.h"
#include "paths.h"

namespace ringkernel::gen {
namespace {

using Json = nlohmann::ordered_json;

constexpr FieldKind kAllKinds[] = {
    FieldKind::Boolean, FieldKind::Character, FieldKind::Int8,    FieldKind::Int16,
    FieldKind::Int32,   FieldKind::Int64,     FieldKind::UInt8,   FieldKind::UInt16,
    FieldKind::UInt32,  FieldKind::UInt64,    FieldKind::Float32, FieldKind::Float64,
    FieldKind::Enumeration, FieldKind::Message, FieldKind::Byte,  FieldKind::Char8};
static_assert(std::size(kAllKinds) == static_cast<std::size_t>(FieldKind::Char8) + 1,
              "kAllKinds lists every FieldKind (a new kind goes last in model.h and here)");

/// The values an enumerator of an enum of `kind` can take ([0, 1] for bool); a signed kind's max
/// fits an int64.
struct WireRange {
  std::int64_t min;
  std::uint64_t max;
};
WireRange wireRange(FieldKind kind) {
  switch (kind) {
    case FieldKind::Boolean: return {0, 1};
    case FieldKind::Character:
    case FieldKind::Int8: return {std::numeric_limits<std::int8_t>::min(), std::numeric_limits<std::int8_t>::max()};
    case FieldKind::Int16: return {std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max()};
    case FieldKind::Int32: return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    case FieldKind::Int64: return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    case FieldKind::UInt8:
    case FieldKind::Char8: return {0, std::numeric_limits<std::uint8_t>::max()};
    case FieldKind::UInt16: return {0, std::numeric_limits<std::uint16_t>::max()};
    case FieldKind::UInt32: return {0, std::numeric_limits<std::uint32_t>::max()};
    default: return {0, std::numeric_limits<std::uint64_t>::max()};  // UInt64; no enum has the other kinds
  }
}

constexpr Direction kAllDirections[] = {Direction::Input, Direction::Output,
                                        Direction::KernelToKernel, Direction::Bidirectional};
constexpr WireFormat kAllFormats[] = {WireFormat::Array, WireFormat::Map};

/// "line:column" (1-based) of the 1-based byte position `byte` that nlohmann reports.
std::string lineAndColumn(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(text.size(), byte == 0 ? 0 : byte - 1);
  std::size_t line = 1;
  std::size_t lineStart = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(end - lineStart + 1);
}

/// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: <reason>" -> reason.
std::string parseErrorReason(const std::string& what) {
  const std::size_t column = what.find("column ");
  const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

/// `name` is a C++ qualified name: identifiers joined by "::" (UTF-8 letters allowed, as clang does).
bool isQualifiedName(const std::string& name) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = std::min(name.find("::", start), name.size());
    if (end == start) return false;
    for (std::size_t i = start; i < end; ++i) {
      const auto c = static_cast<unsigned char>(name[i]);
      const bool letter = std::isalpha(c) != 0 || c == '_' || c >= 0x80;
      if (!letter && (i == start || std::isdigit(c) == 0)) return false;
    }
    if (end == name.size()) return true;
    start = end + 2;
  }
}

/// `stem` names a file in the output directory: no directory part, no characters that would break
/// the generated #include (those ringkernel-gen refuses in a header path: paths.h).
bool isPlainFileName(const std::string& stem) {
  return !stem.empty() && stem != "." && stem != ".." && stem.find('/') == std::string::npos &&
         quotedIncludeCanSpell(stem);
}

/// Strict reader: every key must be present with the right type; errors carry the JSON path.
class Reader {
 public:
  struct Failure {
    std::string message;
  };

  static const Json& member(const Json& object, const char* key, const std::string& path) {
    if (!object.is_object()) throw Failure{(path.empty() ? "top level" : path) + ": expected an object"};
    const auto it = object.find(key);
    if (it == object.end()) {
      throw Failure{(path.empty() ? "top level" : path) + ": missing key \"" + key + "\""};
    }
    return *it;
  }
  static std::string join(const std::string& path, const char* key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string text(const Json& o, const char* key, const std::string& path) {
    const Json& v = member(o, key, path);
    if (!v.is_string()) throw Failure{join(path, key) + ": expected a string"};
    return v.get<std::string>();
  }
  static bool flag(const Json& o, const char* key, const std::string& path) {
    const Json& v = member(o, key, path);
    if (!v.is_boolean()) throw Failure{join(path, key) + ": expected true or false"};
    return v.get<bool>();
  }
  static std::uint64_t number(const Json& o, const char* key, const std::string& path,
                              std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    return unsignedValue(member(o, key, path), join(path, key), max);
  }
  static std::uint64_t unsignedValue(const Json& v, const std::string& path, std::uint64_t max) {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > max) {
      throw Failure{path + ": expected an unsigned integer up to " + std::to_string(max)};
    }
    return v.get<std::uint64_t>();
  }
  /// An enumerator's wire_value: a value of the enum's underlying kind (two's complement bits of an
  /// int64 where signedOnTheWire(underlying)), so that the registry renders only what the wire carries.
  static std::uint64_t wireValue(const Json& o, const std::string& path, FieldKind underlying) {
    const Json& v = member(o, "wire_value", path);
    const WireRange range = wireRange(underlying);
    const bool isSigned = signedOnTheWire(underlying);
    const bool inRange =
        v.is_number_integer() &&
        (v.is_number_unsigned() ? v.get<std::uint64_t>() <= range.max
                                : isSigned && v.get<std::int64_t>() >= range.min &&
                                      v.get<std::int64_t>() <= static_cast<std::int64_t>(range.max));
    if (!inRange) {
      throw Failure{join(path, "wire_value") + ": expected an integer from " + std::to_string(range.min) + " to " +
                    std::to_string(range.max) + " (the enum's underlying kind is " + runtimeName(underlying) + ")"};
    }
    return v.is_number_unsigned() ? v.get<std::uint64_t>() : static_cast<std::uint64_t>(v.get<std::int64_t>());
  }
  static const Json& array(const Json& o, const char* key, const std::string& path) {
    const Json& v = member(o, key, path);
    if (!v.is_array()) throw Failure{join(path, key) + ": expected an array"};
    return v;
  }
  static std::vector<std::string> strings(const Json& o, const char* key, const std::string& path) {
    std::vector<std::string> out;
    const Json& items = array(o, key, path);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!items[i].is_string()) {
        throw Failure{join(path, key) + "[" + std::to_string(i) + "]: expected a string"};
      }
      out.push_back(items[i].get<std::string>());
    }
    return out;
  }
  /// Indices into a list of `size` items, ascending.
  static std::vector<std::size_t> indices(const Json& o, const char* key, const std::string& path,
                                          std::size_t size) {
    std::vector<std::size_t> out;
    const Json& items = array(o, key, path);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string at = join(path, key) + "[" + std::to_string(i) + "]";
      const std::size_t index = static_cast<std::size_t>(unsignedValue(items[i], at, size == 0 ? 0 : size - 1));
      if (size == 0 || (!out.empty() && index <= out.back())) {
        throw Failure{at + ": expected ascending indices below " + std::to_string(size)};
      }
      out.push_back(index);
    }
    return out;
  }
  template <class Enum, std::size_t N>
  static Enum enumerator(const Json& o, const char* key, const std::string& path,
                         const Enum (&all)[N]) {
    const std::string spelled = text(o, key, path);
    for (const Enum value : all) {
      if (spelled == runtimeName(value)) return value;
    }
    throw Failure{join(path, key) + ": unknown value " + jsonQuoted(spelled)};
  }
  static SourceLoc location(const Json& o, const std::string& path) {
    const Json& loc = member(o, "location", path);
    const std::string at = join(path, "location");
    return SourceLoc{text(loc, "file", at), static_cast<unsigned>(number(loc, "line", at, UINT32_MAX)),
                     static_cast<unsigned>(number(loc, "column", at, UINT32_MAX))};
  }

  static FieldModel field(const Json& o, const std::string& path) {
    FieldModel f;
    f.name = text(o, "name", path);
    f.kind = enumerator(o, "kind", path, kAllKinds);
    f.underlying = enumerator(o, "underlying", path, kAllKinds);
    f.typeName = text(o, "type", path);
    f.referencedType = text(o, "referenced_type", path);
    f.messageTypeId = static_cast<std::uint32_t>(number(o, "message_type_id", path, UINT32_MAX));
    const Json& extents = array(o, "extents", path);
    for (std::size_t i = 0; i < extents.size(); ++i) {
      f.extents.push_back(unsignedValue(extents[i], join(path, "extents") + "[" + std::to_string(i) + "]",
                                        UINT32_MAX));
    }
    f.offset = number(o, "offset", path, UINT32_MAX);
    f.size = number(o, "size", path, UINT32_MAX);
    f.elementSize = number(o, "element_size", path, UINT32_MAX);
    f.alignment = number(o, "alignment", path, UINT32_MAX);
    f.naturalAlignment = number(o, "natural_alignment", path, UINT32_MAX);
    f.initializer = text(o, "initializer", path);
    f.location = location(o, path);
    return f;
  }

  static MessageModel message(const Json& o, const std::string& path) {
    MessageModel m;
    m.qualifiedName = text(o, "qualified_name", path);
    m.name = text(o, "name", path);
    m.namespaces = strings(o, "namespaces", path);
    m.inlineNamespaces = indices(o, "inline_namespaces", path, m.namespaces.size());
    m.enclosingMessage = text(o, "enclosing_message", path);
    m.isClass = flag(o, "is_class", path);
    m.typeId = static_cast<std::uint32_t>(number(o, "type_id", path, UINT32_MAX));
    m.kernel = text(o, "kernel", path);
    m.kernelId = static_cast<std::uint32_t>(number(o, "kernel_id", path, UINT32_MAX));
    const Json& options = member(o, "options", path);
    const std::string at = join(path, "options");
    if (const Json& id = member(options, "id", at); !id.is_null()) {
      m.options.id = static_cast<std::uint32_t>(unsignedValue(id, join(at, "id"), UINT32_MAX));
    }
    if (const Json& kernel = member(options, "kernel", at); !kernel.is_null()) {
      m.options.kernel = text(options, "kernel", at);
    }
    m.options.direction = enumerator(options, "direction", at, kAllDirections);
    m.options.priority = static_cast<std::uint8_t>(number(options, "priority", at, 255));
    m.options.causal = flag(options, "causal", at);
    m.options.format = enumerator(options, "format", at, kAllFormats);
    m.size = number(o, "size", path, UINT32_MAX);
    m.alignment = number(o, "alignment", path, UINT32_MAX);
    m.naturalAlignment = number(o, "natural_alignment", path, UINT32_MAX);
    m.fromThisHeader = flag(o, "from_this_header", path);
    m.location = location(o, path);
    // The registry spells the name into C++ and treats type id 0 as "none": a hand-edited value
    // must not give a registry that does not compile.
    if (!isQualifiedName(m.qualifiedName)) {
      throw Failure{join(path, "qualified_name") + ": " + jsonQuoted(m.qualifiedName) + " is not a C++ qualified name"};
    }
    if (m.typeId == 0) throw Failure{join(path, "type_id") + ": 0 is reserved"};
    if (const std::uint32_t expected = typeId(m.options, m.qualifiedName); m.typeId != expected) {
      throw Failure{join(path, "type_id") + ": " + hexLiteral(m.typeId) + " is not the type id of " +
                    jsonQuoted(m.qualifiedName) + " (expected " + hexLiteral(expected) +
                    (m.options.id ? ", from options.id)" : ", the FNV-1a hash of qualified_name)")};
    }
    checkKernel(m, path);
    const Json& fields = array(o, "fields", path);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      m.fields.push_back(field(fields[i], join(path, "fields") + "[" + std::to_string(i) + "]"));
    }
    return m;
  }

  /// The kernel as the front end writes it: `kernel = "..."` obeys the attribute's rule
  /// (isKernelName), the kernel is that or the type name's default, and its id is its hash.
  static void checkKernel(const MessageModel& m, const std::string& path) {
    if (const std::string problem = m.options.kernel ? kernelNameProblem(*m.options.kernel) : std::string();
        !problem.empty()) {
      throw Failure{join(path, "options.kernel") + ": " + jsonQuoted(visibleKernelName(*m.options.kernel)) +
                    " is not a kernel name (" + std::string(kKernelNameRule) + "): " + problem};
    }
    if (const std::string expected = kernelName(m.options, m.name); m.kernel != expected) {
      throw Failure{join(path, "kernel") + ": " + jsonQuoted(m.kernel) + " is not the kernel of " +
                    jsonQuoted(m.name) + " (expected " + jsonQuoted(expected) +
                    (m.options.kernel ? ", from options.kernel)" : ", the name without Request/Response/Message)")};
    }
    if (m.kernelId != fnv1a32(m.kernel)) {
      throw Failure{join(path, "kernel_id") + ": " + hexLiteral(m.kernelId) + " is not the FNV-1a hash of kernel " +
                    jsonQuoted(m.kernel) + " (" + hexLiteral(fnv1a32(m.kernel)) + ")"};
    }
  }

  static EnumModel enumeration(const Json& o, const std::string& path) {
    EnumModel e;
    e.qualifiedName = text(o, "qualified_name", path);
    e.name = text(o, "name", path);
    e.namespaces = strings(o, "namespaces", path);
    e.inlineNamespaces = indices(o, "inline_namespaces", path, e.namespaces.size());
    e.enclosingMessage = text(o, "enclosing_message", path);
    e.scoped = flag(o, "scoped", path);
    e.underlying = enumerator(o, "underlying", path, kAllKinds);
    const Json& items = array(o, "enumerators", path);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string at = join(path, "enumerators") + "[" + std::to_string(i) + "]";
      e.enumerators.push_back({text(items[i], "name", at), text(items[i], "value", at),
                               wireValue(items[i], at, e.underlying)});
    }
    e.location = location(o, path);
    return e;
  }

  static HeaderModel header(const Json& root) {
    if (text(root, "schema", "") != kManifestSchema) {
      throw Failure{"schema: not a ringkernel manifest (expected \"" + std::string(kManifestSchema) + "\")"};
    }
    const std::uint64_t version = number(root, "schema_version", "");
    if (version != static_cast<std::uint64_t>(kManifestSchemaVersion)) {
      throw Failure{"schema_version: manifest has version " + std::to_string(version) +
                    ", this ringkernel-gen reads version " + std::to_string(kManifestSchemaVersion) +
                    " (regenerate it with this ringkernel-gen)"};
    }
    HeaderModel model;
    const Json& header = member(root, "header", "");
    model.headerPath = text(header, "path", "header");
    model.includeSpelling = text(header, "include", "header");
    model.stem = text(header, "stem", "header");
    // What ringkernel-gen writes for a header it accepted (main.cpp, frontend.cpp): an absolute
    // path and a relative include spelling that a quoted #include can spell, and the path's stem.
    if (!llvm::sys::path::is_absolute(model.headerPath) || !quotedIncludeCanSpell(model.headerPath)) {
      throw Failure{"header.path: " + jsonQuoted(model.headerPath) +
                    " is not an absolute path that a quoted #include can spell (no '\"', '\\' or control character)"};
    }
    if (model.includeSpelling.empty() || llvm::sys::path::is_absolute(model.includeSpelling) ||
        !quotedIncludeCanSpell(model.includeSpelling)) {
      throw Failure{"header.include: " + jsonQuoted(model.includeSpelling) +
                    " is not a relative path that a quoted #include can spell (no '\"', '\\' or control character)"};
    }
    if (!isPlainFileName(model.stem)) {
      throw Failure{"header.stem: " + jsonQuoted(model.stem) + " is not a file name without a directory"};
    }
    if (model.stem != fileStem(model.headerPath)) {
      throw Failure{"header.stem: " + jsonQuoted(model.stem) + " is not the stem of header.path " +
                    jsonQuoted(model.headerPath)};
    }
    model.targetTriple = text(header, "target", "header");
    const Json& enums = array(root, "enums", "");
    for (std::size_t i = 0; i < enums.size(); ++i) {
      model.enums.push_back(enumeration(enums[i], "enums[" + std::to_string(i) + "]"));
    }
    const Json& messages = array(root, "messages", "");
    for (std::size_t i = 0; i < messages.size(); ++i) {
      model.messages.push_back(message(messages[i], "messages[" + std::to_string(i) + "]"));
    }
    return model;
  }
};

}  // namespace

bool readManifest(const std::string& text, const std::string& sourceName, HeaderModel& model,
                  std::string& error) {
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& failure) {
    error = sourceName + ":" + lineAndColumn(text, failure.byte) + ": not valid JSON: " +
            parseErrorReason(failure.what());
    return false;
  }
  try {
    model = Reader::header(root);
  } catch (const Reader::Failure& failure) {
    error = sourceName + ": " + failure.message;
    return false;
  }
  return true;
}


}  // namespace ringkernel::gen
