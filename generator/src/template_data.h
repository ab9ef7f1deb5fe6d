// Copyright RingKernel authors.
// Turns a HeaderModel into the mustache data of the per-header templates (rk_h, rk_cuh and their
// partials). All C++ spellings (hex ids, guards, literals, padding) are decided here, so the
// templates only arrange them.
#pragma once

#include <string>
#include <vector>

#include "model.h"
#include "template_value.h"

namespace ringkernel::gen {

/// Guard of a type definition in .rk.cuh: RINGKERNEL_TYPE_<qualifiedNameFragment>, keyed on the type's
/// identity, so that one type generated from two headers is defined once and two types never share
/// a guard (a type id may repeat across headers, and an enum's hash may equal a message's id).
std::string typeGuard(const MessageModel& message);
std::string typeGuard(const EnumModel& enumeration);
/// Guard of a message's traits and layout checks: RINGKERNEL_TRAITS_<qualifiedNameFragment>.
std::string traitsGuard(const MessageModel& message);

/// Macro a <stem>.rk.cuh defines so that the matching <stem>.rk.h does not include the original
/// header after it.
std::string cudaHeaderMacro(const HeaderModel& model);

/// The names every per-header template shares: version, header_file, include_spelling, stem,
/// target_triple, cuh_macro, type_guards (the guard of every enum and message).
TemplateValue headerData(const HeaderModel& model);

/// The data of type_definitions.mustache (top_level_enums, top_level_messages); false + `error`
/// when the model cannot be reproduced (e.g. a nested type whose enclosing message is not in the
/// model, overlapping fields, packed alignment).
enum class TypeDefinitionParts { Both, Enums, Messages };
bool typeDefinitionsData(const HeaderModel& model, TemplateValue& data, std::string& error,
                         TypeDefinitionParts parts = TypeDefinitionParts::Both);

/// The top-level types type_definitions.mustache defines, in order, and for each message the number
/// of enums and messages nested in it (at any depth). Rendering the enums and the messages of
/// consecutive parts of a model separately gives the text of the whole model when the outlines agree.
struct TypeDefinitionsOutline {
  struct Message {
    std::string qualifiedName;
    std::size_t nestedEnums = 0;
    std::size_t nestedMessages = 0;
    bool operator==(const Message&) const = default;
  };
  bool valid = true;  // false: a type is nested in a message the model does not have
  std::vector<std::string> enums;
  std::vector<Message> messages;
  bool operator==(const TypeDefinitionsOutline&) const = default;
};
TypeDefinitionsOutline typeDefinitionsOutline(const HeaderModel& model);

/// The data of message_traits.mustache for one message.
TemplateValue messageTraitsData(const MessageModel& message);

}  // namespace ringkernel::gen
