// Copyright RingKernel authors.
// A mustache template parsed once into a tree of nodes (text, variables, sections, inverted sections,
// partials, comments dropped). Supported tags: {{name}}, {{a.b}}, {{.}}, {{&name}} (the same as
// {{name}}: output is never HTML-escaped, the templates produce C++), {{{name}}} (a Verbatim node:
// the renderer inserts it without line tidying, template_renderer.h), {{#name}}, {{^name}},
// {{/name}}, {{>partial}}, {{! comment}}. Delimiter changes ({{=...=}}) are rejected.
// Nodes refer into the template text, which must outlive the tree.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ringkernel::gen {

struct MustacheNode {
  // Set by the template set (template_renderer.h) when it links the templates: Blank marks a
  // {{blank}} variable; Newline and `lineContent` split Text at its newlines.
  enum class Kind { Text, Newline, Variable, Verbatim, Section, InvertedSection, Partial, Blank };
  enum class LineContent { Unknown, Whitespace, Visible };
  Kind kind = Kind::Text;
  LineContent lineContent = LineContent::Unknown;  // Text: whether it holds a visible character
  std::string_view text;               // Text: the text; others: the name as written
  std::vector<std::string_view> path;  // Variable/sections: dotted name split at '.'; empty for "."
  std::vector<MustacheNode> children;  // sections
  const std::vector<MustacheNode>* partial = nullptr;  // Partial: set when the template set links
};

/// Parses `text`. On failure returns nullopt and sets `error` to "line N: why".
std::optional<std::vector<MustacheNode>> parseMustache(std::string_view text, std::string& error);

/// The names of the partials the nodes use (recursively), in order of appearance.
void collectPartialNames(const std::vector<MustacheNode>& nodes, std::vector<std::string_view>& names);

}  // namespace ringkernel::gen
