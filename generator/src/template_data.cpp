// Copyright RingKernel authors.
#include "template_data.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "cpp_spelling.h"
#include "names.h"

namespace ringkernel::gen {
namespace {

std::string joinNamespaces(const std::vector<std::string>& namespaces) {
  std::string out;
  for (const std::string& part : namespaces) out += (out.empty() ? "" : "::") + part;
  return out;
}

/// What opens the namespaces of a type in .rk.cuh and the braces that close them. Inline ones stay
/// inline (`app::Ping` must name `app::inline v2::Ping` in device code as on the host): C++20's
/// "namespace app::inline v2 {"; an inline outermost namespace needs a block of its own
/// ("inline namespace v2 { namespace detail {", closed by "}}").
std::pair<std::string, std::string> namespaceBlock(const std::vector<std::string>& namespaces,
                                                   const std::vector<std::size_t>& inlineNamespaces) {
  auto isInline = [&](std::size_t i) {
    return std::find(inlineNamespaces.begin(), inlineNamespaces.end(), i) != inlineNamespaces.end();
  };
  std::string open;
  std::string close = "}";
  std::size_t first = 0;
  if (!namespaces.empty() && isInline(0)) {
    open = "inline namespace " + namespaces[0] + " {";
    first = 1;
  }
  if (first < namespaces.size()) {
    if (!open.empty()) {
      open += " ";
      close += "}";
    }
    open += "namespace " + namespaces[first];
    for (std::size_t i = first + 1; i < namespaces.size(); ++i) {
      open += (isInline(i) ? "::inline " : "::") + namespaces[i];
    }
    open += " {";
  }
  return {open, close};
}

std::string fileName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// A fixed-width type for the .rk.cuh definitions, which sit in the user's namespaces: spelled from
/// the global namespace ("::std::int32_t"), so that a namespace or type `std` there does not capture it.
std::string globalType(const std::string& type) {
  return type.rfind("std::", 0) == 0 ? "::" + type : type;
}

std::string elementType(const FieldModel& field) {
  return globalType(field.typeName.empty() ? fixedWidthType(field.kind) : field.typeName);
}

std::string dimensions(const FieldModel& field) {
  std::string out;
  for (const std::uint64_t extent : field.extents) out += "[" + std::to_string(extent) + "]";
  return out;
}

std::string extentsInitializer(const FieldModel& field) {
  std::string out;
  for (const std::uint64_t extent : field.extents) {
    out += (out.empty() ? "" : ", ") + std::to_string(extent) + "u";
  }
  return "{" + out + "}";
}

std::string bytes(std::uint64_t count) {
  return std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

/// Everything of one header, indexed for the recursive struct/enum data.
class HeaderDataBuilder {
 public:
  explicit HeaderDataBuilder(const HeaderModel& model) : model_(model) {
    for (std::size_t i = 0; i < model.messages.size(); ++i) {
      messageIndex_[model.messages[i].qualifiedName] = i;
      if (!model.messages[i].enclosingMessage.empty()) {
        nestedMessages_[model.messages[i].enclosingMessage].push_back(i);
      }
    }
    for (std::size_t i = 0; i < model.enums.size(); ++i) {
      if (!model.enums[i].enclosingMessage.empty()) nestedEnums_[model.enums[i].enclosingMessage].push_back(i);
    }
  }

  /// What type_definitions.mustache shows: the top-level enums and messages in order, and how many
  /// types each message holds at any depth.
  TypeDefinitionsOutline outline() const {
    TypeDefinitionsOutline result;
    for (const EnumModel& e : model_.enums) {
      if (!e.enclosingMessage.empty() && messageIndex_.count(e.enclosingMessage) == 0) result.valid = false;
    }
    for (const MessageModel& m : model_.messages) {
      if (!m.enclosingMessage.empty() && messageIndex_.count(m.enclosingMessage) == 0) result.valid = false;
    }
    if (!result.valid) return result;  // typeDefinitions reports it
    for (const EnumModel& e : model_.enums) {
      if (e.enclosingMessage.empty()) result.enums.push_back(e.qualifiedName);
    }
    std::map<std::string, std::pair<std::size_t, std::size_t>> nested;  // top level -> enums, messages
    for (const EnumModel& e : model_.enums) {
      if (!e.enclosingMessage.empty()) {
        ++nested[topLevelOf(model_.messages[messageIndex_.at(e.enclosingMessage)])].first;
      }
    }
    for (const MessageModel& m : model_.messages) {
      if (!m.enclosingMessage.empty()) {
        ++nested[topLevelOf(m)].second;
      }
    }
    for (const std::size_t index : topLevelMessageOrder()) {
      const std::string& name = model_.messages[index].qualifiedName;
      const auto counts = nested[name];
      result.messages.push_back({name, counts.first, counts.second});
    }
    return result;
  }

  /// {top_level_enums, top_level_messages}: the type definitions of .rk.cuh.
  bool typeDefinitions(TemplateValue& data, std::string& error, TypeDefinitionParts parts) {
    for (const EnumModel& e : model_.enums) {
      if (!e.enclosingMessage.empty() && messageIndex_.count(e.enclosingMessage) == 0) {
        error = where(e.location) + "enum " + e.qualifiedName +
                " is nested in " + e.enclosingMessage +
                ", which is not a message of this header's model; .rk.cuh cannot define it";
        return false;
      }
    }
    for (const MessageModel& m : model_.messages) {
      if (!m.enclosingMessage.empty() && messageIndex_.count(m.enclosingMessage) == 0) {
        error = where(m.location) + "message " + m.qualifiedName + " is nested in " +
                m.enclosingMessage + ", which is not a message of this header's model; "
                ".rk.cuh cannot define it";
        return false;
      }
    }
    TemplateList topEnums, topMessages;
    for (const EnumModel& e : model_.enums) {
      if (e.enclosingMessage.empty() && parts != TypeDefinitionParts::Messages) topEnums.push_back(enumData(e, ""));
    }
    if (parts == TypeDefinitionParts::Enums) {
      data = TemplateObject(2).add("top_level_enums", std::move(topEnums)).add("top_level_messages", TemplateList());
      return true;
    }
    for (const std::size_t index : topLevelMessageOrder()) {
      TemplateValue item;
      if (!structData(model_.messages[index], "", item, error)) return false;
      topMessages.push_back(std::move(item));
    }
    data = TemplateObject(2)
        .add("top_level_enums", std::move(topEnums))
        .add("top_level_messages", std::move(topMessages));
    return true;
  }

  static TemplateValue traitsData(const MessageModel& m) {
    TemplateList fields;
    fields.reserve(m.fields.size());
    for (std::size_t i = 0; i < m.fields.size(); ++i) {
      const FieldModel& f = m.fields[i];
      fields.push_back(TemplateObject(11)
          .add("field_index", std::to_string(i))
          .add("field_name", f.name)
          .add("field_source_type", (f.sourceType.empty() ? elementType(f) : f.sourceType) + dimensions(f))
          .add("field_kind", runtimeName(f.kind))
          .add("field_underlying", runtimeName(f.underlying))
          .add("field_offset", std::to_string(f.offset))
          .add("field_size", std::to_string(f.size))
          .add("field_element_size", std::to_string(f.elementSize))
          .add("field_rank", std::to_string(f.extents.size()))
          .add("field_extents", extentsInitializer(f))
          .add("field_message_type_id", f.kind == FieldKind::Message ? hexLiteral(f.messageTypeId) : "0u"));
    }
    return TemplateObject(16)
        .add("traits_guard", traitsGuard(m))
        .add("cpp_type", "::" + m.qualifiedName)
        .add("qualified_name", m.qualifiedName)
        .add("type_id", hexLiteral(m.typeId))
        .add("name_literal", cppStringLiteral(m.qualifiedName))
        .add("kernel_literal", cppStringLiteral(m.kernel))
        .add("kernel_id", hexLiteral(m.kernelId))
        .add("direction", runtimeName(m.options.direction))
        .add("priority", std::to_string(m.options.priority))
        .add("causal", m.options.causal ? "true" : "false")
        .add("format", runtimeName(m.options.format))
        .add("size", std::to_string(m.size))
        .add("alignment", std::to_string(m.alignment))
        .add("field_count", std::to_string(m.fields.size()))
        .add("has_fields", !m.fields.empty())
        .add("fields", std::move(fields));
  }

 private:
  static std::string where(const SourceLoc& loc) {
    return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column) +
           ": error: ";
  }

  std::string topLevelOf(const MessageModel& message) const {
    std::string name = message.qualifiedName;
    for (std::size_t depth = 0; depth <= model_.messages.size(); ++depth) {
      const std::string& enclosing = model_.messages[messageIndex_.at(name)].enclosingMessage;
      if (enclosing.empty()) return name;
      name = enclosing;
    }
    return name;  // a cycle in the model; the nesting check above reports what it can
  }

  /// Top-level messages ordered by the first model position of any type they contain, so that a
  /// nested type is defined before a later message that uses it.
  std::vector<std::size_t> topLevelMessageOrder() const {
    std::map<std::string, std::size_t> firstPosition;
    for (std::size_t i = 0; i < model_.messages.size(); ++i) {
      firstPosition.emplace(topLevelOf(model_.messages[i]), i);
    }
    std::vector<std::size_t> order;
    for (const auto& [name, position] : firstPosition) order.push_back(messageIndex_.at(name));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return firstPosition.at(model_.messages[a].qualifiedName) <
             firstPosition.at(model_.messages[b].qualifiedName);
    });
    return order;
  }

  TemplateValue enumData(const EnumModel& e, const std::string& indent) const {
    TemplateList enumerators;
    enumerators.reserve(e.enumerators.size());
    for (const EnumModel::Enumerator& en : e.enumerators) {
      enumerators.push_back(TemplateObject(2).add("enumerator_name", en.name).add("enumerator_value", en.value));
    }
    const std::string underlying = globalType(fixedWidthType(e.underlying));
    const auto [namespaceOpen, namespaceClose] = namespaceBlock(e.namespaces, e.inlineNamespaces);
    return TemplateObject(12)
        .add("enum_guard", typeGuard(e))
        .add("enum_indent", indent)
        .add("enum_top_level", e.enclosingMessage.empty())
        .add("enum_has_namespace", !e.namespaces.empty())
        .add("enum_namespace", joinNamespaces(e.namespaces))
        .add("enum_namespace_open", namespaceOpen)
        .add("enum_namespace_close", namespaceClose)
        .add("enum_keyword", e.scoped ? "enum class" : "enum")
        .add("enum_name", e.name)
        .add("enum_underlying", underlying)
        .add("enum_qualified_name", e.qualifiedName)
        .add("enumerators", std::move(enumerators));
  }

  bool membersData(const MessageModel& m, const std::string& indent, TemplateList& members,
                   std::uint64_t& end, std::string& error) const {
    end = 0;
    for (const FieldModel& f : m.fields) {
      if (f.offset < end) {
        error = where(f.location) + "field " + m.qualifiedName + "::" + f.name + " at offset " +
                std::to_string(f.offset) + " overlaps the previous field (ends at " +
                std::to_string(end) + ")";
        return false;
      }
      if (f.alignment < f.naturalAlignment) {
        error = where(f.location) + "field " + m.qualifiedName + "::" + f.name + " is aligned to " +
                std::to_string(f.alignment) + " bytes, below its natural " +
                std::to_string(f.naturalAlignment) + "; alignas cannot reproduce a packed layout";
        return false;
      }
      const std::uint64_t padding = f.offset - end;
      members.push_back(TemplateObject(9)
          .add("member_indent", indent)
          .add("member_has_padding", padding != 0)
          .add("member_padding", bytes(padding))
          .add("member_padding_offset", std::to_string(end))
          .add("member_alignas", f.alignment != f.naturalAlignment ? "alignas(" + std::to_string(f.alignment) + ") " : "")
          .add("member_type", elementType(f))
          .add("member_name", f.name)
          .add("member_dimensions", dimensions(f))
          .add("member_initializer", f.initializer.empty() ? "" : " = " + f.initializer));
      end = f.offset + f.size;
    }
    return true;
  }

  bool structData(const MessageModel& m, const std::string& indent, TemplateValue& item,
                  std::string& error) const {
    if (m.alignment < m.naturalAlignment) {
      error = where(m.location) + m.qualifiedName + " is aligned to " +
              std::to_string(m.alignment) + " bytes, below its natural " +
              std::to_string(m.naturalAlignment) + "; alignas cannot reproduce a packed layout";
      return false;
    }
    const std::string inner = indent + "  ";
    TemplateList nestedEnums, nestedMessages, members;
    if (const auto found = nestedEnums_.find(m.qualifiedName); found != nestedEnums_.end()) {
      for (const std::size_t index : found->second) nestedEnums.push_back(enumData(model_.enums[index], inner));
    }
    if (const auto found = nestedMessages_.find(m.qualifiedName); found != nestedMessages_.end()) {
      for (const std::size_t index : found->second) {
        TemplateValue child;
        if (!structData(model_.messages[index], inner, child, error)) return false;
        nestedMessages.push_back(std::move(child));
      }
    }
    members.reserve(m.fields.size());
    std::uint64_t end = 0;
    if (!membersData(m, inner, members, end, error)) return false;
    if (end > m.size) {
      error = where(m.location) + "fields of " + m.qualifiedName + " end at byte " +
              std::to_string(end) + ", beyond its size " + std::to_string(m.size);
      return false;
    }
    const auto [namespaceOpen, namespaceClose] = namespaceBlock(m.namespaces, m.inlineNamespaces);
    item = TemplateObject(20)
        .add("struct_guard", typeGuard(m))
        .add("struct_indent", indent)
        .add("struct_top_level", m.enclosingMessage.empty())
        .add("struct_has_namespace", !m.namespaces.empty())
        .add("struct_namespace", joinNamespaces(m.namespaces))
        .add("struct_namespace_open", namespaceOpen)
        .add("struct_namespace_close", namespaceClose)
        .add("struct_keyword", m.isClass ? "class" : "struct")
        .add("struct_is_class", m.isClass)
        .add("struct_alignas", m.alignment != m.naturalAlignment ? "alignas(" + std::to_string(m.alignment) + ") " : "")
        .add("struct_name", m.name)
        .add("struct_qualified_name", m.qualifiedName)
        .add("struct_size", std::to_string(m.size))
        .add("struct_alignment", std::to_string(m.alignment))
        .add("nested_enums", std::move(nestedEnums))
        .add("nested_messages", std::move(nestedMessages))
        .add("members", std::move(members))
        .add("struct_has_tail_padding", !m.fields.empty() && end < m.size)
        .add("struct_tail_padding", bytes(m.size - std::min(end, m.size)))
        .add("struct_tail_padding_offset", std::to_string(end));
    return true;
  }

  const HeaderModel& model_;
  std::map<std::string, std::size_t> messageIndex_;
  // Enclosing message -> model indices of the enums / messages nested in it, in model order.
  std::map<std::string, std::vector<std::size_t>> nestedEnums_, nestedMessages_;
};

}  // namespace

std::string typeGuard(const MessageModel& message) {
  return "RINGKERNEL_TYPE_" + qualifiedNameFragment(message.qualifiedName);
}

std::string typeGuard(const EnumModel& enumeration) {
  return "RINGKERNEL_TYPE_" + qualifiedNameFragment(enumeration.qualifiedName);
}

std::string traitsGuard(const MessageModel& message) {
  return "RINGKERNEL_TRAITS_" + qualifiedNameFragment(message.qualifiedName);
}

std::string cudaHeaderMacro(const HeaderModel& model) {
  return "RINGKERNEL_CUH_" + macroFragment(model.stem) + "_" +
         hexDigits(fnv1a32(model.includeSpelling));
}

TemplateValue headerData(const HeaderModel& model) {
  TemplateList guards;
  guards.reserve(model.enums.size() + model.messages.size());
  for (const EnumModel& e : model.enums) guards.push_back(typeGuard(e));
  for (const MessageModel& m : model.messages) guards.push_back(typeGuard(m));
  return TemplateObject(9)
      .add("version", RINGKERNEL_GEN_VERSION)
      .add("header_file", fileName(model.headerPath))
      .add("include_spelling", model.includeSpelling)
      .add("stem", model.stem)
      .add("target_triple", model.targetTriple)
      .add("cuh_macro", cudaHeaderMacro(model))
      .add("type_guards", std::move(guards));
}

bool typeDefinitionsData(const HeaderModel& model, TemplateValue& data, std::string& error,
                         TypeDefinitionParts parts) {
  return HeaderDataBuilder(model).typeDefinitions(data, error, parts);
}

TypeDefinitionsOutline typeDefinitionsOutline(const HeaderModel& model) {
  return HeaderDataBuilder(model).outline();
}

TemplateValue messageTraitsData(const MessageModel& message) {
  return HeaderDataBuilder::traitsData(message);
}

}  // namespace ringkernel::gen
