// Copyright RingKernel authors.
// Writing the manifest (streamed through JsonWriter); reading it back lives in manifest_reader.cpp.
#include "manifest.h"

#include "json_writer.h"

namespace ringkernel::gen {
namespace {

void writeLocation(JsonWriter& w, const SourceLoc& loc) {
  w.key("location");
  w.beginObject();
  w.member("file", loc.file);
  w.memberNumber("line", loc.line);
  w.memberNumber("column", loc.column);
  w.endObject();
}

void writeStrings(JsonWriter& w, std::string_view key, const std::vector<std::string>& items) {
  w.key(key);
  w.beginArray();
  for (const std::string& item : items) w.text(item);
  w.endArray();
}

void writeIndices(JsonWriter& w, std::string_view key, const std::vector<std::size_t>& items) {
  w.key(key);
  w.beginArray();
  for (const std::size_t item : items) w.number(item);
  w.endArray();
}

void writeField(JsonWriter& w, const FieldModel& f, bool withOrigin) {
  w.beginObject();
  w.member("name", f.name);
  w.member("kind", runtimeName(f.kind));
  w.member("underlying", runtimeName(f.underlying));
  w.member("type", f.typeName);
  w.member("referenced_type", f.referencedType);
  w.memberNumber("message_type_id", f.messageTypeId);
  w.key("extents");
  w.beginArray();
  for (const std::uint64_t extent : f.extents) w.number(extent);
  w.endArray();
  w.memberNumber("offset", f.offset);
  w.memberNumber("size", f.size);
  w.memberNumber("element_size", f.elementSize);
  w.memberNumber("alignment", f.alignment);
  w.memberNumber("natural_alignment", f.naturalAlignment);
  w.member("initializer", f.initializer);
  if (withOrigin) writeLocation(w, f.location);
  w.endObject();
}

/// One message; `withOrigin` = false leaves out from_this_header and the source locations (the
/// fingerprint: one header reached by two paths, e.g. through a symbolic link, is one description).
void writeMessage(JsonWriter& w, const MessageModel& m, bool withOrigin) {
  w.beginObject();
  w.member("qualified_name", m.qualifiedName);
  w.member("name", m.name);
  writeStrings(w, "namespaces", m.namespaces);
  writeIndices(w, "inline_namespaces", m.inlineNamespaces);
  w.member("enclosing_message", m.enclosingMessage);
  w.memberBoolean("is_class", m.isClass);
  w.memberNumber("type_id", m.typeId);
  w.member("kernel", m.kernel);
  w.memberNumber("kernel_id", m.kernelId);
  w.key("options");
  w.beginObject();
  w.key("id");
  if (m.options.id) {
    w.number(*m.options.id);
  } else {
    w.null();
  }
  w.key("kernel");
  if (m.options.kernel) {
    w.text(*m.options.kernel);
  } else {
    w.null();
  }
  w.member("direction", runtimeName(m.options.direction));
  w.memberNumber("priority", m.options.priority);
  w.memberBoolean("causal", m.options.causal);
  w.member("format", runtimeName(m.options.format));
  w.endObject();
  w.memberNumber("size", m.size);
  w.memberNumber("alignment", m.alignment);
  w.memberNumber("natural_alignment", m.naturalAlignment);
  if (withOrigin) {
    w.memberBoolean("from_this_header", m.fromThisHeader);
    writeLocation(w, m.location);
  }
  w.key("fields");
  w.beginArray();
  for (const FieldModel& f : m.fields) writeField(w, f, withOrigin);
  w.endArray();
  w.endObject();
}

void writeEnum(JsonWriter& w, const EnumModel& e) {
  w.beginObject();
  w.member("qualified_name", e.qualifiedName);
  w.member("name", e.name);
  writeStrings(w, "namespaces", e.namespaces);
  writeIndices(w, "inline_namespaces", e.inlineNamespaces);
  w.member("enclosing_message", e.enclosingMessage);
  w.memberBoolean("scoped", e.scoped);
  w.member("underlying", runtimeName(e.underlying));
  w.key("enumerators");
  w.beginArray();
  for (const EnumModel::Enumerator& en : e.enumerators) {
    w.beginObject();
    w.member("name", en.name);
    w.member("value", en.value);
    w.key("wire_value");
    if (signedOnTheWire(e.underlying)) {
      w.signedNumber(static_cast<std::int64_t>(en.wireValue));
    } else {
      w.number(en.wireValue);
    }
    w.endObject();
  }
  w.endArray();
  writeLocation(w, e.location);
  w.endObject();
}

}  // namespace

std::string manifestEntry(const MessageModel& message) {
  std::string out;
  JsonWriter w(out, /*prettyDepth=*/0);
  writeMessage(w, message, /*withOrigin=*/true);
  return out;
}

std::string manifestEntry(const EnumModel& enumeration) {
  std::string out;
  JsonWriter w(out, /*prettyDepth=*/0);
  writeEnum(w, enumeration);
  return out;
}

namespace {

/// manifestJson; with `inserts`, the entries are left out and their offsets listed instead.
std::string writeManifest(const HeaderModel& model, const std::vector<std::string>* enumEntries,
                          const std::vector<std::string>* messageEntries,
                          std::vector<std::pair<std::size_t, const std::string*>>* inserts) {
  const auto entry = [&](JsonWriter& w, std::string& out, const std::string& text) {
    if (inserts == nullptr) return w.raw(text);
    w.raw({});  // the separator and indent
    inserts->emplace_back(out.size(), &text);
  };
  std::string out;
  out.reserve(1024 + (inserts != nullptr ? 16 : 3072) * model.messages.size());
  // Two levels laid out (the root and its arrays/objects), then one enum or message per line.
  JsonWriter w(out, /*prettyDepth=*/2);
  w.beginObject();
  w.member("schema", kManifestSchema);
  w.memberNumber("schema_version", kManifestSchemaVersion);
  w.member("generator_version", RINGKERNEL_GEN_VERSION);
  w.key("header");
  w.beginObject();
  w.member("path", model.headerPath);
  w.member("include", model.includeSpelling);
  w.member("stem", model.stem);
  w.member("target", model.targetTriple);
  w.endObject();
  w.key("outputs");
  w.beginObject();
  w.member("header", model.stem + ".rk.h");
  w.member("cuda_header", model.stem + ".rk.cuh");
  w.endObject();
  w.key("enums");
  w.beginArray();
  for (std::size_t i = 0; i < model.enums.size(); ++i) {
    if (enumEntries != nullptr) {
      entry(w, out, (*enumEntries)[i]);
    } else {
      writeEnum(w, model.enums[i]);
    }
  }
  w.endArray();
  w.key("messages");
  w.beginArray();
  for (std::size_t i = 0; i < model.messages.size(); ++i) {
    if (messageEntries != nullptr) {
      entry(w, out, (*messageEntries)[i]);
    } else {
      writeMessage(w, model.messages[i], /*withOrigin=*/true);
    }
  }
  w.endArray();
  w.endObject();
  out.push_back('\n');
  return out;
}

}  // namespace

std::string manifestJson(const HeaderModel& model, const std::vector<std::string>* enumEntries,
                         const std::vector<std::string>* messageEntries) {
  return writeManifest(model, enumEntries, messageEntries, nullptr);
}

std::string manifestJson(const HeaderModel& model, const std::vector<std::string>& enumEntries,
                         const std::vector<std::string>& messageEntries,
                         std::vector<std::pair<std::size_t, const std::string*>>& inserts) {
  inserts.clear();
  inserts.reserve(enumEntries.size() + messageEntries.size());
  return writeManifest(model, &enumEntries, &messageEntries, &inserts);
}

std::string messageFingerprint(const MessageModel& message) {
  std::string out;
  JsonWriter w(out);
  writeMessage(w, message, /*withOrigin=*/false);
  return out;
}

}  // namespace ringkernel::gen
