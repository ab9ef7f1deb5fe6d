// Copyright RingKernel authors.
// Streams JSON text straight into a string, formatted like nlohmann::json::dump(2) (two-space indent,
// "key": value, empty containers as {} and [], strings escaped as nlohmann escapes them), without
// building a document first: the manifest of a 1,000-message header is several MB.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ringkernel::gen {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }

  /// The key of the next member of the current object.
  void key(std::string_view name);

  void text(std::string_view value);
  void number(std::uint64_t value);
  void boolean(bool value);
  void null();

  /// key + value shorthands.
  void member(std::string_view name, std::string_view value) { key(name); text(value); }
  void memberNumber(std::string_view name, std::uint64_t value) { key(name); number(value); }
  void memberBoolean(std::string_view name, bool value) { key(name); boolean(value); }

 private:
  void open(char bracket);
  void close(char bracket);
  /// Separator, newline and indent before a value (nothing right after a key).
  void beforeValue();
  void newline();
  /// A string literal, escaped.
  void quoted(std::string_view value);

  std::string& out_;
  std::vector<bool> hasItems_;  // per open container: at least one item written
  bool afterKey_ = false;
};

}  // namespace ringkernel::gen
