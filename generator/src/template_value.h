// Copyright RingKernel authors.
// The data a mustache template is rendered against: text, a flag, a list of values or an object
// (named values). Built once per render with moves only (no deep copies); objects keep their members
// in insertion order and look names up by a linear scan, which beats a hash map for the ~10-20
// members a template object has.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ringkernel::gen {

class TemplateValue;
struct TemplateMember;

using TemplateList = std::vector<TemplateValue>;

/// Named values. Keys are string views and must outlive the object (the builders use literals).
class TemplateObject {
 public:
  // Every member that instantiates std::vector<TemplateMember> (the special members included) is
  // defined below TemplateMember: libstdc++ under clang needs the element type complete there.
  TemplateObject();
  explicit TemplateObject(std::size_t capacity);
  TemplateObject(const TemplateObject&);
  TemplateObject(TemplateObject&&) noexcept;
  TemplateObject& operator=(const TemplateObject&);
  TemplateObject& operator=(TemplateObject&&) noexcept;
  ~TemplateObject();

  /// Appends a member (keys are expected to be unique; the first one with a name wins a lookup).
  /// The rvalue form lets `TemplateObject(n).add(...).add(...)` move into a TemplateValue.
  TemplateObject& add(std::string_view key, TemplateValue value) &;
  TemplateObject&& add(std::string_view key, TemplateValue value) &&;
  /// The member named `key`, or nullptr.
  const TemplateValue* find(std::string_view key) const;
  bool empty() const;

 private:
  std::vector<TemplateMember> members_;
};

class TemplateValue {
 public:
  TemplateValue() : value_(std::string()) {}
  TemplateValue(std::string text) : value_(std::move(text)) {}     // NOLINT: implicit by design
  TemplateValue(const char* text) : value_(std::string(text)) {}   // NOLINT
  TemplateValue(std::string_view text) : value_(std::string(text)) {}  // NOLINT
  TemplateValue(bool flag) : value_(flag) {}                       // NOLINT
  TemplateValue(TemplateList list) : value_(std::move(list)) {}    // NOLINT
  TemplateValue(TemplateObject object) : value_(std::move(object)) {}  // NOLINT

  /// Text owned elsewhere, which must outlive the value (one rendered block in two data trees).
  static TemplateValue borrowed(const std::string& text);

  const std::string* text() const {
    if (const std::string* owned = std::get_if<std::string>(&value_)) return owned;
    if (const auto* borrowed = std::get_if<const std::string*>(&value_)) return *borrowed;
    return nullptr;
  }
  /// The text when it is borrowed (owned elsewhere), else nullptr.
  const std::string* borrowedText() const {
    const auto* borrowed = std::get_if<const std::string*>(&value_);
    return borrowed != nullptr ? *borrowed : nullptr;
  }
  const bool* flag() const { return std::get_if<bool>(&value_); }
  const TemplateList* list() const { return std::get_if<TemplateList>(&value_); }
  const TemplateObject* object() const { return std::get_if<TemplateObject>(&value_); }
  TemplateObject* object() { return std::get_if<TemplateObject>(&value_); }

  /// Mustache truthiness: false, "" and [] are falsy; everything else (objects included) is truthy.
  bool truthy() const;

 private:
  std::variant<std::string, bool, TemplateList, TemplateObject, const std::string*> value_;
};

struct TemplateMember {
  std::string_view key;
  TemplateValue value;
};

inline TemplateObject::TemplateObject() = default;
inline TemplateObject::TemplateObject(std::size_t capacity) { members_.reserve(capacity); }
inline TemplateObject::TemplateObject(const TemplateObject&) = default;
inline TemplateObject::TemplateObject(TemplateObject&&) noexcept = default;
inline TemplateObject& TemplateObject::operator=(const TemplateObject&) = default;
inline TemplateObject& TemplateObject::operator=(TemplateObject&&) noexcept = default;
inline TemplateObject::~TemplateObject() = default;

inline bool TemplateObject::empty() const { return members_.empty(); }

inline TemplateObject& TemplateObject::add(std::string_view key, TemplateValue value) & {
  members_.emplace_back(key, std::move(value));
  return *this;
}

inline TemplateObject&& TemplateObject::add(std::string_view key, TemplateValue value) && {
  return std::move(add(key, std::move(value)));
}

inline const TemplateValue* TemplateObject::find(std::string_view key) const {
  for (const TemplateMember& member : members_) {
    if (member.key == key) return &member.value;
  }
  return nullptr;
}

inline TemplateValue TemplateValue::borrowed(const std::string& text) {
  TemplateValue value;
  value.value_ = &text;
  return value;
}

inline bool TemplateValue::truthy() const {
  if (const bool* f = flag()) return *f;
  if (const std::string* t = text()) return !t->empty();
  if (const TemplateList* l = list()) return !l->empty();
  return true;
}

}  // namespace ringkernel::gen
