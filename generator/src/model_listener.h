// Copyright RingKernel authors.
// Lets the backend see a header's model while clang is still parsing it (frontend.h). The frontend
// builds each message as soon as its definition is complete and reports, on the parse thread, the
// records the model gained; they stay valid and unchanged until headerParsed() returns.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace ringkernel::gen {

class ModelListener {
 public:
  virtual ~ModelListener() = default;

  /// The model of `header` (its absolute path, HeaderModel::headerPath) grew by these messages and
  /// enums, in model order, continuing the previous call for the same header.
  virtual void modelGrew(const std::string& header, std::vector<const MessageModel*> messages,
                         std::vector<const EnumModel*> enums) = 0;

  /// What was reported for `header` does not describe its final model (it was rebuilt); forget it.
  virtual void discard(const std::string& header) = 0;

  /// The parse of `header` ended; must not return while the listener still reads its records.
  virtual void headerParsed(const std::string& header) = 0;
};

}  // namespace ringkernel::gen
