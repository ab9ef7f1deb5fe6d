// Copyright RingKernel authors.
// Streams JSON text straight into a string without building a document first (the manifest of a
// 1,000-message header is MBs). Containers opened above `prettyDepth` are laid out like
// nlohmann::json::dump(2) (one item per line, two-space indent, "key": value); deeper ones are
// compact like dump() ({"key":value,...}). Empty containers are {} and []; strings are escaped as
// nlohmann escapes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ringkernel::gen {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out, std::size_t prettyDepth = SIZE_MAX)
      : out_(out), prettyDepth_(prettyDepth) {}

  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }

  /// The key of the next member of the current object: a plain identifier (written without escaping;
  /// the manifest's keys are literals of this program).
  void key(std::string_view name);

  void text(std::string_view value);
  void number(std::uint64_t value);
  void signedNumber(std::int64_t value);
  void boolean(bool value);
  void null();
  /// A value that is already JSON text (written as it is, after the separator).
  void raw(std::string_view json);

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

  bool pretty() const { return hasItems_.size() <= prettyDepth_; }

  std::string& out_;
  std::size_t prettyDepth_;
  std::vector<unsigned char> hasItems_;  // per open container: at least one item written
  bool afterKey_ = false;
};

/// `value` as a JSON string literal for a message about it (what JsonWriter::text writes, with DEL
/// escaped too): a line break, quote or control character in it cannot split or end the message.
std::string jsonQuoted(std::string_view value);

}  // namespace ringkernel::gen
