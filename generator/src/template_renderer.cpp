// Copyright RingKernel authors.
#include "template_renderer.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;
constexpr const char* kExtension = ".mustache";
constexpr const char* kBlankKey = "blank";
constexpr char kBlankMarker = '\x1f';  // ASCII unit separator: never part of generated C++

/// Drops whitespace-only lines, then turns lines holding only the blank marker into empty lines.
std::string tidyLines(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    const bool hasNewline = end != std::string::npos;
    if (!hasNewline) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto first = line.find_first_not_of(" \t");
    const bool blank = line[first] == kBlankMarker && line.find_first_not_of(" \t\r", first + 1) == std::string::npos;
    out += blank ? "" : line;
    if (hasNewline) out += '\n';
  }
  return out;
}

bool readText(const fs::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return static_cast<bool>(in) || in.eof();
}

/// Names of the partials `{{> name}}` a template refers to (default delimiters only; the templates
/// of this project never change them).
std::set<std::string> partialNames(const std::string& text) {
  std::set<std::string> names;
  for (std::size_t at = text.find("{{>"); at != std::string::npos; at = text.find("{{>", at + 3)) {
    const std::size_t end = text.find("}}", at);
    if (end == std::string::npos) break;
    std::string name = text.substr(at + 3, end - at - 3);
    const auto first = name.find_first_not_of(" \t");
    const auto last = name.find_last_not_of(" \t");
    names.insert(first == std::string::npos ? std::string() : name.substr(first, last - first + 1));
  }
  return names;
}

/// A kainjow context that records every name the template looks up and the data lacks.
class StrictContext : public kainjow::mustache::context<std::string> {
 public:
  explicit StrictContext(const TemplateData* data) : context(data) {}

  const TemplateData* get(const std::string& name) const override {
    const TemplateData* found = context::get(name);
    if (found == nullptr) missing_.insert(name);
    return found;
  }
  const TemplateData* get_partial(const std::string& name) const override {
    const TemplateData* found = context::get_partial(name);
    if (found == nullptr) missing_.insert(">" + name);
    return found;
  }
  const std::set<std::string>& missing() const { return missing_; }

 private:
  mutable std::set<std::string> missing_;
};

}  // namespace

std::optional<TemplateSet> TemplateSet::load(const std::string& directory,
                                             const std::vector<std::string>& required,
                                             std::string& error) {
  TemplateSet set;
  set.directory_ = directory;
  std::error_code ec;
  fs::directory_iterator it(directory, ec);
  if (ec) {
    error = "cannot read template directory '" + directory + "': " + ec.message();
    return std::nullopt;
  }
  for (const fs::directory_entry& entry : it) {
    const fs::path& path = entry.path();
    if (path.extension() != kExtension || !entry.is_regular_file()) continue;
    std::string text;
    if (!readText(path, text)) {
      error = "cannot read template '" + path.string() + "'";
      return std::nullopt;
    }
    kainjow::mustache::mustache parsed(text);
    if (!parsed.is_valid()) {
      error = "malformed template '" + path.string() + "': " + parsed.error_message();
      return std::nullopt;
    }
    set.templates_.emplace(path.stem().string(), std::move(text));
  }
  for (const std::string& name : required) {
    if (set.templates_.count(name) == 0) {
      error = "template '" + name + kExtension + "' is missing in '" + directory + "'";
      return std::nullopt;
    }
  }
  for (const auto& [name, text] : set.templates_) {
    for (const std::string& partial : partialNames(text)) {
      if (set.templates_.count(partial) == 0) {
        error = "template '" + name + kExtension + "' in '" + directory + "' uses partial '" +
                partial + "', but '" + partial + kExtension + "' does not exist";
        return std::nullopt;
      }
    }
  }
  return set;
}

bool TemplateSet::render(const std::string& name, const TemplateData& data, std::string& output,
                         std::string& error) const {
  const auto found = templates_.find(name);
  if (found == templates_.end()) {
    error = "template '" + name + kExtension + "' is missing in '" + directory_ + "'";
    return false;
  }
  // Partials and the blank marker live in a base object under `data` on the context stack, so every
  // nesting level finds them and `data` (large for big headers) is never copied. A partial's final
  // newline is dropped: the line holding the `{{> name}}` tag supplies it.
  if (data.get(kBlankKey) != nullptr) {
    error = std::string("template data must not define '") + kBlankKey + "' (reserved for blank lines)";
    return false;
  }
  TemplateData base{TemplateData::type::object};
  base.set(kBlankKey, std::string(1, kBlankMarker));
  for (const auto& [partialName, text] : templates_) {
    if (data.get(partialName) != nullptr) {
      error = "template data key '" + partialName + "' clashes with the partial of that name";
      return false;
    }
    std::string body = text;
    if (!body.empty() && body.back() == '\n') body.pop_back();
    base.set(partialName, kainjow::mustache::partial([body] { return body; }));
  }
  kainjow::mustache::mustache tmpl(found->second);
  tmpl.set_custom_escape([](const std::string& text) { return text; });
  StrictContext context(&base);
  context.push(&data);
  output = tidyLines(tmpl.render(context));
  if (!tmpl.is_valid()) {
    error = "cannot render template '" + name + kExtension + "': " + tmpl.error_message();
    return false;
  }
  if (!context.missing().empty()) {
    error = "template '" + name + kExtension + "' (or a partial it uses) refers to unknown name(s):";
    for (const std::string& missing : context.missing()) error += " '" + missing + "'";
    return false;
  }
  return true;
}

}  // namespace ringkernel::gen
