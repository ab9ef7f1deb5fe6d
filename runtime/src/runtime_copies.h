// Copyright RingKernel authors.
// One runtime per process: finds the other copies of the runtime's state (the registry) in use in
// this process, made when the static library is linked into several shared objects that do not
// share it (docs/cmake.md, "One runtime per process").
#pragma once

#include <optional>

#include "ringkernel/error.h"

namespace ringkernel::detail {

/// Marks this copy of the runtime as in use (the registry calls it once, when it is made) and
/// returns Error(errc::configuration) naming every loaded object whose copy is in use if this is not
/// the only one. Each copy carries an ELF note (.note.ringkernel) that leads to a word of its own
/// that says it is in use: a copy linked into an object but not used (its calls bind to another
/// copy's symbols, or nothing calls it) is no copy in use. Without ELF nothing is checked.
/// Hidden: it must mark the word of the object it is linked into, whatever binds to whom.
__attribute__((visibility("hidden"))) std::optional<Error> claim_runtime_copy();

}  // namespace ringkernel::detail
