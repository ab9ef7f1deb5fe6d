// Copyright RingKernel authors.
#include "mustache_template.h"

#include <algorithm>

namespace ringkernel::gen {
namespace {

constexpr std::string_view kOpen = "{{";
constexpr std::string_view kClose = "}}";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

std::size_t lineOf(std::string_view text, std::size_t offset) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

bool validName(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return c != ' ' && c != '\t' && c != '\n' && c != '{' && c != '}';
  });
}

std::vector<std::string_view> splitPath(std::string_view name) {
  std::vector<std::string_view> parts;
  if (name == ".") return parts;
  std::size_t start = 0;
  for (std::size_t dot = name.find('.'); ; dot = name.find('.', start)) {
    parts.push_back(name.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<std::vector<MustacheNode>> parse(std::string& error) {
    struct Open {
      MustacheNode node;
      std::size_t offset;
    };
    std::vector<Open> open;
    std::vector<MustacheNode> root;
    const auto current = [&]() -> std::vector<MustacheNode>& {
      return open.empty() ? root : open.back().node.children;
    };
    std::size_t at = 0;
    while (at < text_.size()) {
      const std::size_t tag = text_.find(kOpen, at);
      if (tag != at) {
        const std::size_t end = tag == std::string_view::npos ? text_.size() : tag;
        current().push_back(MustacheNode{MustacheNode::Kind::Text, MustacheNode::LineContent::Unknown, text_.substr(at, end - at), {}, {}, nullptr});
        if (tag == std::string_view::npos) break;
      }
      const bool triple = text_.compare(tag, 3, "{{{") == 0;
      const std::string_view close = triple ? "}}}" : kClose;
      const std::size_t contentStart = tag + (triple ? 3 : 2);
      const std::size_t end = text_.find(close, contentStart);
      if (end == std::string_view::npos) return fail(error, tag, "unclosed tag '{{'");
      std::string_view content = text_.substr(contentStart, end - contentStart);
      at = end + close.size();
      char sigil = triple ? '{' : (content.empty() ? '\0' : content.front());
      if (!triple && std::string_view("#^/>!&=").find(sigil) != std::string_view::npos && sigil != '\0') {
        content.remove_prefix(1);
      } else if (!triple) {
        sigil = '\0';
      }
      if (sigil == '!') continue;
      if (sigil == '=') return fail(error, tag, "delimiter changes ({{=...=}}) are not supported");
      const std::string_view name = trim(content);
      if (!validName(name)) return fail(error, tag, "bad tag name '" + std::string(content) + "'");
      switch (sigil) {
        case '#':
        case '^':
          open.push_back({MustacheNode{sigil == '#' ? MustacheNode::Kind::Section
                                                    : MustacheNode::Kind::InvertedSection,
                                       MustacheNode::LineContent::Unknown, name, splitPath(name), {}, nullptr},
                          tag});
          break;
        case '/': {
          if (open.empty()) return fail(error, tag, "'{{/" + std::string(name) + "}}' closes no section");
          if (open.back().node.text != name) {
            return fail(error, tag, "'{{/" + std::string(name) + "}}' closes section '" +
                                        std::string(open.back().node.text) + "' (opened on line " +
                                        std::to_string(lineOf(text_, open.back().offset)) + ")");
          }
          MustacheNode done = std::move(open.back().node);
          open.pop_back();
          current().push_back(std::move(done));
          break;
        }
        case '{':
          current().push_back(MustacheNode{MustacheNode::Kind::Verbatim, MustacheNode::LineContent::Unknown, name, splitPath(name), {}, nullptr});
          break;
        case '>':
          current().push_back(MustacheNode{MustacheNode::Kind::Partial, MustacheNode::LineContent::Unknown, name, {}, {}, nullptr});
          break;
        default:
          current().push_back(MustacheNode{MustacheNode::Kind::Variable, MustacheNode::LineContent::Unknown, name, splitPath(name), {}, nullptr});
      }
    }
    if (!open.empty()) {
      return fail(error, open.back().offset,
                  "section '" + std::string(open.back().node.text) + "' is never closed");
    }
    return root;
  }

 private:
  std::nullopt_t fail(std::string& error, std::size_t offset, const std::string& why) const {
    error = "line " + std::to_string(lineOf(text_, offset)) + ": " + why;
    return std::nullopt;
  }

  std::string_view text_;
};

}  // namespace

std::optional<std::vector<MustacheNode>> parseMustache(std::string_view text, std::string& error) {
  return Parser(text).parse(error);
}

void collectPartialNames(const std::vector<MustacheNode>& nodes, std::vector<std::string_view>& names) {
  for (const MustacheNode& node : nodes) {
    if (node.kind == MustacheNode::Kind::Partial) names.push_back(node.text);
    collectPartialNames(node.children, names);
  }
}

}  // namespace ringkernel::gen
