// Copyright RingKernel authors.
// Turns a HeaderModel into the mustache data of the per-header templates (rk_h, rk_cuh and their
// partials). All C++ spellings (hex ids, guards, literals, padding) are decided here, so the
// templates only arrange them.
#pragma once

#include <string>

#include "model.h"
#include "template_value.h"

namespace ringkernel::gen {

/// Guard of a type definition in .rk.cuh: RINGKERNEL_TYPE_<8 hex digits> (message: type id; enum:
/// FNV-1a of its qualified name).
std::string typeGuard(const MessageModel& message);
std::string typeGuard(const EnumModel& enumeration);

/// Macro a <stem>.rk.cuh defines so that the matching <stem>.rk.h does not include the original
/// header after it.
std::string cudaHeaderMacro(const HeaderModel& model);

/// Builds the data; false + `error` when the model cannot be reproduced (e.g. a nested type whose
/// enclosing message is not in the model, overlapping fields, packed alignment).
bool buildHeaderData(const HeaderModel& model, TemplateValue& data, std::string& error);

}  // namespace ringkernel::gen
