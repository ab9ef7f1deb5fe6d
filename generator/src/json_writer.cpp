// Copyright RingKernel authors.
#include "json_writer.h"

#include <charconv>

namespace ringkernel::gen {

void JsonWriter::newline() {
  if (!pretty()) return;
  out_.push_back('\n');
  out_.append(2 * hasItems_.size(), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (hasItems_.empty()) return;  // the top-level value
  if (hasItems_.back() != 0) out_.push_back(',');
  hasItems_.back() = 1;
  newline();
}

void JsonWriter::open(char bracket) {
  beforeValue();
  out_.push_back(bracket);
  hasItems_.push_back(0);
}

void JsonWriter::close(char bracket) {
  const bool hadItems = hasItems_.back() != 0;
  const bool wasPretty = pretty();
  hasItems_.pop_back();
  if (hadItems && wasPretty) {
    out_.push_back('\n');
    out_.append(2 * hasItems_.size(), ' ');
  }
  out_.push_back(bracket);
}

void JsonWriter::key(std::string_view name) {
  beforeValue();
  out_.push_back('"');
  out_.append(name);
  out_.append(pretty() ? "\": " : "\":");
  afterKey_ = true;
}

void JsonWriter::text(std::string_view value) {
  beforeValue();
  quoted(value);
}

void JsonWriter::quoted(std::string_view value) {
  static constexpr char kHex[] = "0123456789abcdef";
  out_.push_back('"');
  std::size_t plain = 0;  // start of the run of characters that need no escape
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out_.append(value.substr(plain, i - plain));
    plain = i + 1;
    switch (c) {
      case '"': out_.append("\\\""); break;
      case '\\': out_.append("\\\\"); break;
      case '\b': out_.append("\\b"); break;
      case '\f': out_.append("\\f"); break;
      case '\n': out_.append("\\n"); break;
      case '\r': out_.append("\\r"); break;
      case '\t': out_.append("\\t"); break;
      default: {
        const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
        out_.append(escaped, sizeof escaped);
      }
    }
  }
  out_.append(value.substr(plain));
  out_.push_back('"');
}

void JsonWriter::number(std::uint64_t value) {
  beforeValue();
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out_.append(buffer, result.ptr);
}

void JsonWriter::signedNumber(std::int64_t value) {
  beforeValue();
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out_.append(buffer, result.ptr);
}

void JsonWriter::boolean(bool value) {
  beforeValue();
  out_.append(value ? "true" : "false");
}

void JsonWriter::raw(std::string_view json) {
  beforeValue();
  out_.append(json);
}

void JsonWriter::null() {
  beforeValue();
  out_.append("null");
}

std::string jsonQuoted(std::string_view value) {
  std::string json;
  JsonWriter(json).text(value);
  std::string out;
  for (const char c : json) {
    if (c == 0x7f) {
      out += "\\u007f";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace ringkernel::gen
