// Copyright RingKernel authors.
#include "template_data.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "cpp_spelling.h"
#include "names.h"

namespace ringkernel::gen {
namespace {

std::string joinNamespaces(const std::vector<std::string>& namespaces) {
  std::string out;
  for (const std::string& part : namespaces) out += (out.empty() ? "" : "::") + part;
  return out;
}

std::string fileName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string elementType(const FieldModel& field) {
  return field.typeName.empty() ? fixedWidthType(field.kind) : field.typeName;
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
    }
  }

  bool build(TemplateData& data, std::string& error) {
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
    TemplateList topEnums, topMessages, traits, guards;
    for (const EnumModel& e : model_.enums) {
      if (e.enclosingMessage.empty()) topEnums.push_back(enumData(e, ""));
      guards.push_back(typeGuard(e));
    }
    for (const std::size_t index : topLevelMessageOrder()) {
      TemplateData item;
      if (!structData(model_.messages[index], "", item, error)) return false;
      topMessages.push_back(item);
    }
    for (const MessageModel& m : model_.messages) {
      traits.push_back(traitsData(m));
      guards.push_back(typeGuard(m));
    }
    data = TemplateObject{
        {"version", RINGKERNEL_GEN_VERSION},
        {"header_file", fileName(model_.headerPath)},
        {"include_spelling", model_.includeSpelling},
        {"stem", model_.stem},
        {"target_triple", model_.targetTriple},
        {"cuh_macro", cudaHeaderMacro(model_)},
        {"type_guards", guards},
        {"top_level_enums", topEnums},
        {"top_level_messages", topMessages},
        {"messages", traits},
    };
    return true;
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

  TemplateData enumData(const EnumModel& e, const std::string& indent) const {
    TemplateList enumerators;
    for (const EnumModel::Enumerator& en : e.enumerators) {
      enumerators.push_back(TemplateObject{{"enumerator_name", en.name}, {"enumerator_value", en.value}});
    }
    const std::string underlying = fixedWidthType(e.underlying);
    return TemplateObject{
        {"enum_guard", typeGuard(e)},
        {"enum_indent", indent},
        {"enum_top_level", e.enclosingMessage.empty()},
        {"enum_has_namespace", !e.namespaces.empty()},
        {"enum_namespace", joinNamespaces(e.namespaces)},
        {"enum_keyword", e.scoped ? "enum class" : "enum"},
        {"enum_name", e.name},
        {"enum_underlying", underlying},
        {"enum_qualified_name", e.qualifiedName},
        {"enumerators", enumerators},
    };
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
      members.push_back(TemplateObject{
          {"member_indent", indent},
          {"member_has_padding", padding != 0},
          {"member_padding", bytes(padding)},
          {"member_padding_offset", std::to_string(end)},
          {"member_alignas",
           f.alignment != f.naturalAlignment ? "alignas(" + std::to_string(f.alignment) + ") " : ""},
          {"member_type", elementType(f)},
          {"member_name", f.name},
          {"member_dimensions", dimensions(f)},
          {"member_initializer", f.initializer.empty() ? "" : " = " + f.initializer},
      });
      end = f.offset + f.size;
    }
    return true;
  }

  bool structData(const MessageModel& m, const std::string& indent, TemplateData& item,
                  std::string& error) const {
    if (m.alignment < m.naturalAlignment) {
      error = where(m.location) + m.qualifiedName + " is aligned to " +
              std::to_string(m.alignment) + " bytes, below its natural " +
              std::to_string(m.naturalAlignment) + "; alignas cannot reproduce a packed layout";
      return false;
    }
    const std::string inner = indent + "  ";
    TemplateList nestedEnums, nestedMessages, members;
    for (const EnumModel& e : model_.enums) {
      if (e.enclosingMessage == m.qualifiedName) nestedEnums.push_back(enumData(e, inner));
    }
    for (const MessageModel& nested : model_.messages) {
      if (nested.enclosingMessage != m.qualifiedName) continue;
      TemplateData child;
      if (!structData(nested, inner, child, error)) return false;
      nestedMessages.push_back(child);
    }
    std::uint64_t end = 0;
    if (!membersData(m, inner, members, end, error)) return false;
    if (end > m.size) {
      error = where(m.location) + "fields of " + m.qualifiedName + " end at byte " +
              std::to_string(end) + ", beyond its size " + std::to_string(m.size);
      return false;
    }
    item = TemplateObject{
        {"struct_guard", typeGuard(m)},
        {"struct_indent", indent},
        {"struct_top_level", m.enclosingMessage.empty()},
        {"struct_has_namespace", !m.namespaces.empty()},
        {"struct_namespace", joinNamespaces(m.namespaces)},
        {"struct_keyword", m.isClass ? "class" : "struct"},
        {"struct_is_class", m.isClass},
        {"struct_alignas",
         m.alignment != m.naturalAlignment ? "alignas(" + std::to_string(m.alignment) + ") " : ""},
        {"struct_name", m.name},
        {"struct_qualified_name", m.qualifiedName},
        {"struct_size", std::to_string(m.size)},
        {"struct_alignment", std::to_string(m.alignment)},
        {"nested_enums", nestedEnums},
        {"nested_messages", nestedMessages},
        {"members", members},
        {"struct_has_tail_padding", !m.fields.empty() && end < m.size},
        {"struct_tail_padding", bytes(m.size - std::min(end, m.size))},
        {"struct_tail_padding_offset", std::to_string(end)},
    };
    return true;
  }

  static TemplateData traitsData(const MessageModel& m) {
    TemplateList fields;
    for (std::size_t i = 0; i < m.fields.size(); ++i) {
      const FieldModel& f = m.fields[i];
      fields.push_back(TemplateObject{
          {"field_index", std::to_string(i)},
          {"field_name", f.name},
          {"field_kind", runtimeName(f.kind)},
          {"field_underlying", runtimeName(f.underlying)},
          {"field_offset", std::to_string(f.offset)},
          {"field_size", std::to_string(f.size)},
          {"field_element_size", std::to_string(f.elementSize)},
          {"field_rank", std::to_string(f.extents.size())},
          {"field_extents", extentsInitializer(f)},
          {"field_message_type_id", f.kind == FieldKind::Message ? hexLiteral(f.messageTypeId) : "0u"},
      });
    }
    return TemplateObject{
        {"traits_guard", "RINGKERNEL_TRAITS_" + hexDigits(m.typeId)},
        {"cpp_type", "::" + m.qualifiedName},
        {"qualified_name", m.qualifiedName},
        {"type_id", hexLiteral(m.typeId)},
        {"name_literal", cppStringLiteral(m.qualifiedName)},
        {"kernel_literal", cppStringLiteral(m.kernel)},
        {"kernel_id", hexLiteral(m.kernelId)},
        {"direction", runtimeName(m.options.direction)},
        {"priority", std::to_string(m.options.priority)},
        {"causal", m.options.causal ? "true" : "false"},
        {"format", runtimeName(m.options.format)},
        {"size", std::to_string(m.size)},
        {"alignment", std::to_string(m.alignment)},
        {"field_count", std::to_string(m.fields.size())},
        {"fields", fields},
    };
  }

  const HeaderModel& model_;
  std::map<std::string, std::size_t> messageIndex_;
};

}  // namespace

std::string typeGuard(const MessageModel& message) {
  return "RINGKERNEL_TYPE_" + hexDigits(message.typeId);
}

std::string typeGuard(const EnumModel& enumeration) {
  return "RINGKERNEL_TYPE_" + hexDigits(fnv1a32(enumeration.qualifiedName));
}

std::string cudaHeaderMacro(const HeaderModel& model) {
  return "RINGKERNEL_CUH_" + macroFragment(model.stem) + "_" +
         hexDigits(fnv1a32(model.includeSpelling));
}

bool buildHeaderData(const HeaderModel& model, TemplateData& data, std::string& error) {
  return HeaderDataBuilder(model).build(data, error);
}

}  // namespace ringkernel::gen
