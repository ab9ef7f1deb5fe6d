// Copyright RingKernel authors.
#include "template_renderer.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;
constexpr const char* kExtension = ".mustache";
constexpr std::string_view kBlankKey = "blank";
constexpr char kBlankMarker = '\x1f';  // ASCII unit separator: never part of generated C++

bool readText(const fs::path& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return static_cast<bool>(in) || in.eof();
}

/// The nodes of a template used as a partial: the same, without the final newline.
std::vector<MustacheNode> withoutFinalNewline(std::vector<MustacheNode> nodes) {
  if (!nodes.empty() && nodes.back().kind == MustacheNode::Kind::Text && nodes.back().text.ends_with('\n')) {
    nodes.back().text.remove_suffix(1);
    if (nodes.back().text.empty()) nodes.pop_back();
  }
  return nodes;
}

/// Walks the nodes with a stack of data values and writes the output line by line: a line that ends
/// up empty or whitespace-only is dropped, a line holding only the blank marker becomes empty.
class Renderer {
 public:
  Renderer(std::string& out, const TemplateValue& data, std::vector<TemplateSet::Insert>* inserts)
      : out_(out), lineStart_(out.size()), inserts_(inserts) {
    stack_.push_back(&data);
  }

  void render(const std::vector<MustacheNode>& nodes) {
    for (const MustacheNode& node : nodes) {
      switch (node.kind) {
        case MustacheNode::Kind::Text: appendText(node); break;
        case MustacheNode::Kind::Newline: endLine(); break;
        case MustacheNode::Kind::Blank: append(std::string_view(&kBlankMarker, 1)); break;
        case MustacheNode::Kind::Partial: render(*node.partial); break;
        case MustacheNode::Kind::Variable: variable(node); break;
        case MustacheNode::Kind::Verbatim: verbatim(node); break;
        case MustacheNode::Kind::Section: section(node); break;
        case MustacheNode::Kind::InvertedSection:
          if (const TemplateValue* value = lookup(node); value != nullptr && !value->truthy()) render(node.children);
          break;
      }
    }
  }

  /// Closes the last line (one without a final newline is kept without one).
  void finish() {
    if (state_ != Line::Content) out_.resize(lineStart_);
  }

  const std::set<std::string>& missing() const { return missing_; }
  const std::set<std::string>& notText() const { return notText_; }

 private:
  enum class Line { Blank, Marker, Content };  // so far: whitespace only / whitespace + marker / other

  void variable(const MustacheNode& node) {
    const TemplateValue* value = lookup(node);
    if (value == nullptr) return;
    if (const std::string* text = value->text()) {
      append(*text);
    } else {
      notText_.insert(std::string(node.text));
    }
  }

  /// Appends rendered text as it is; line tidying resumes after its last newline.
  void verbatim(const MustacheNode& node) {
    const TemplateValue* value = lookup(node);
    if (value == nullptr) return;
    const std::string* text = value->text();
    if (text == nullptr) {
      notText_.insert(std::string(node.text));
      return;
    }
    const std::size_t lastNewline = text->rfind('\n');
    if (lastNewline == std::string::npos) return append(*text);
    if (inserts_ != nullptr && lastNewline + 1 == text->size() && value->borrowedText() == text) {
      // Left out of out_: nothing before a newline is ever taken back, so the offset stays valid.
      inserts_->push_back({out_.size(), text});
      lineStart_ = out_.size();
      state_ = Line::Blank;
      return;
    }
    out_.append(*text);
    lineStart_ = out_.size() - (text->size() - lastNewline - 1);
    state_ = Line::Blank;
    classify(std::string_view(*text).substr(lastNewline + 1));
  }

  void section(const MustacheNode& node) {
    const TemplateValue* value = lookup(node);
    if (value == nullptr) return;
    if (const TemplateList* items = value->list()) {
      for (const TemplateValue& item : *items) {
        stack_.push_back(&item);
        render(node.children);
        stack_.pop_back();
      }
    } else if (value->truthy()) {
      stack_.push_back(value);
      render(node.children);
      stack_.pop_back();
    }
  }

  const TemplateValue* lookup(const MustacheNode& node) {
    if (node.path.empty()) return stack_.back();  // {{.}}
    const TemplateValue* found = nullptr;
    for (auto frame = stack_.rbegin(); frame != stack_.rend() && found == nullptr; ++frame) {
      if (const TemplateObject* object = (*frame)->object()) found = object->find(node.path.front());
    }
    for (std::size_t i = 1; i < node.path.size() && found != nullptr; ++i) {
      const TemplateObject* object = found->object();
      found = object != nullptr ? object->find(node.path[i]) : nullptr;
    }
    if (found == nullptr) missing_.insert(std::string(node.text));
    return found;
  }

  /// A Text node of a linked template: no newline, visibility known unless it holds the marker.
  void appendText(const MustacheNode& node) {
    if (state_ != Line::Content) {
      if (node.lineContent == MustacheNode::LineContent::Visible) {
        state_ = Line::Content;
      } else if (node.lineContent == MustacheNode::LineContent::Unknown) {
        classify(node.text);
      }
    }
    out_.append(node.text);
  }

  void append(std::string_view text) {
    while (!text.empty()) {
      const void* newline = std::memchr(text.data(), '\n', text.size());
      const std::size_t length =
          newline == nullptr ? text.size() : static_cast<std::size_t>(static_cast<const char*>(newline) - text.data());
      const std::string_view piece = text.substr(0, length);
      if (state_ != Line::Content) classify(piece);
      out_.append(piece);
      if (newline == nullptr) return;
      endLine();
      text.remove_prefix(length + 1);
    }
  }

  void classify(std::string_view piece) {
    for (const char c : piece) {
      if (c == ' ' || c == '\t' || c == '\r') continue;
      if (c == kBlankMarker && state_ == Line::Blank) {
        state_ = Line::Marker;
        continue;
      }
      state_ = Line::Content;
      return;
    }
  }

  void endLine() {
    if (state_ == Line::Content) {
      out_.push_back('\n');
    } else {
      out_.resize(lineStart_);
      if (state_ == Line::Marker) out_.push_back('\n');
    }
    lineStart_ = out_.size();
    state_ = Line::Blank;
  }

  std::string& out_;
  std::size_t lineStart_;
  std::vector<TemplateSet::Insert>* inserts_;  // nullptr: borrowed text is copied like any other
  Line state_ = Line::Blank;
  std::vector<const TemplateValue*> stack_;
  std::set<std::string> missing_;
  std::set<std::string> notText_;
};

/// Splits Text nodes at their newlines into Text (without newline, visibility classified) and Newline
/// nodes, so rendering text needs no scan.
void splitLines(std::vector<MustacheNode>& nodes) {
  std::vector<MustacheNode> split;
  split.reserve(nodes.size());
  for (MustacheNode& node : nodes) {
    splitLines(node.children);
    if (node.kind != MustacheNode::Kind::Text) {
      split.push_back(std::move(node));
      continue;
    }
    std::string_view rest = node.text;
    while (!rest.empty()) {
      const std::size_t newline = rest.find('\n');
      const std::string_view line = rest.substr(0, newline);
      if (!line.empty()) {
        MustacheNode text{MustacheNode::Kind::Text, MustacheNode::LineContent::Whitespace, line, {}, {}, nullptr};
        if (line.find(kBlankMarker) != std::string_view::npos) {
          text.lineContent = MustacheNode::LineContent::Unknown;
        } else if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
          text.lineContent = MustacheNode::LineContent::Visible;
        }
        split.push_back(std::move(text));
      }
      if (newline == std::string_view::npos) break;
      split.push_back(MustacheNode{MustacheNode::Kind::Newline, MustacheNode::LineContent::Unknown, {}, {}, {}, nullptr});
      rest.remove_prefix(newline + 1);
    }
  }
  nodes = std::move(split);
}

/// Links partial nodes to the parsed partials and marks {{blank}}; false + the first unknown partial.
template <class Templates>
bool link(std::vector<MustacheNode>& nodes, const Templates& templates, std::string& unknown) {
  for (MustacheNode& node : nodes) {
    if (node.kind == MustacheNode::Kind::Variable && node.text == kBlankKey) node.kind = MustacheNode::Kind::Blank;
    if (node.kind == MustacheNode::Kind::Partial) {
      const auto found = templates.find(node.text);
      if (found == templates.end()) {
        unknown = std::string(node.text);
        return false;
      }
      node.partial = &found->second->partialNodes;
    }
    if (!link(node.children, templates, unknown)) return false;
  }
  return true;
}

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
    auto parsed = std::make_unique<Parsed>();
    if (!readText(path, parsed->text)) {
      error = "cannot read template '" + path.string() + "'";
      return std::nullopt;
    }
    std::string why;
    std::optional<std::vector<MustacheNode>> nodes = parseMustache(parsed->text, why);
    if (!nodes) {
      error = "malformed template '" + path.string() + "': " + why;
      return std::nullopt;
    }
    parsed->nodes = std::move(*nodes);
    set.templates_.emplace(path.stem().string(), std::move(parsed));
  }
  for (const std::string& name : required) {
    if (set.templates_.count(name) == 0) {
      error = "template '" + name + kExtension + "' is missing in '" + directory + "'";
      return std::nullopt;
    }
  }
  // Every Parsed sits on the heap, so links to its partialNodes stay valid while the set moves.
  for (auto& [name, parsed] : set.templates_) {
    parsed->partialNodes = withoutFinalNewline(parsed->nodes);
    splitLines(parsed->nodes);
    splitLines(parsed->partialNodes);
  }
  for (auto& [name, parsed] : set.templates_) {
    std::string unknown;
    if (!link(parsed->nodes, set.templates_, unknown) || !link(parsed->partialNodes, set.templates_, unknown)) {
      error = "template '" + name + kExtension + "' in '" + directory + "' uses partial '" + unknown +
              "', but '" + unknown + kExtension + "' does not exist";
      return std::nullopt;
    }
  }
  return set;
}

bool TemplateSet::render(const std::string& name, const TemplateValue& data, std::string& output,
                         std::string& error) const {
  output.clear();
  return renderAppend(name, data, output, error);
}

bool TemplateSet::render(const std::string& name, const TemplateValue& data, std::string& output,
                         std::vector<Insert>& inserts, std::string& error) const {
  output.clear();
  inserts.clear();
  return renderInto(name, data, output, &inserts, error);
}

bool TemplateSet::renderAppend(const std::string& name, const TemplateValue& data, std::string& output,
                               std::string& error) const {
  return renderInto(name, data, output, nullptr, error);
}

bool TemplateSet::renderInto(const std::string& name, const TemplateValue& data, std::string& output,
                             std::vector<Insert>* inserts, std::string& error) const {
  const auto found = templates_.find(name);
  if (found == templates_.end()) {
    error = "template '" + name + kExtension + "' is missing in '" + directory_ + "'";
    return false;
  }
  if (const TemplateObject* object = data.object(); object != nullptr && object->find(kBlankKey) != nullptr) {
    error = "template data must not define '" + std::string(kBlankKey) + "' (reserved for blank lines)";
    return false;
  }
  Renderer renderer(output, data, inserts);
  renderer.render(found->second->nodes);
  renderer.finish();
  const auto names = [](const std::set<std::string>& set) {
    std::string list;
    for (const std::string& name : set) list += " '" + name + "'";
    return list;
  };
  if (!renderer.missing().empty()) {
    error = "template '" + name + kExtension + "' (or a partial it uses) refers to unknown name(s):" +
            names(renderer.missing());
    return false;
  }
  if (!renderer.notText().empty()) {
    error = "template '" + name + kExtension + "' (or a partial it uses) prints name(s) that are not text:" +
            names(renderer.notText());
    return false;
  }
  return true;
}

}  // namespace ringkernel::gen
