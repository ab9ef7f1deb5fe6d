// Copyright RingKernel authors.
// Loads the mustache templates of a template directory, parses each once, and renders them strictly:
// every template and partial must parse, every partial a template names must exist, and every name a
// template looks up must be present in the data (a typo in a template is an error, never silently
// empty output). Variables must name text; a section may name a flag, a list, an object or text.
//
// Line layout: the renderer drops every line that is empty or whitespace-only after rendering (so
// section tags on lines of their own, and sections that render nothing, leave no trace); a template
// asks for a blank line by writing `{{blank}}` alone on a line (`blank` is reserved: the data cannot
// define it). A partial's final newline is dropped: the line holding `{{> name}}` supplies it.
// `{{{name}}}` inserts text that is already rendered as it is (its lines are not tidied again), so a
// block shared by several outputs is rendered once.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mustache_template.h"
#include "template_value.h"

namespace ringkernel::gen {

class TemplateSet {
 public:
  /// Loads every `*.mustache` file of `directory`; each is usable as a top-level template and as a
  /// partial under its file name without extension. Fails when a template in `required` is missing,
  /// a template does not parse, or a template names a partial that does not exist.
  static std::optional<TemplateSet> load(const std::string& directory,
                                         const std::vector<std::string>& required, std::string& error);

  /// Renders template `name` with `data` into `output` (replaced). Output is not HTML-escaped (the
  /// templates produce C++).
  bool render(const std::string& name, const TemplateValue& data, std::string& output,
              std::string& error) const;

  /// The same, appending to `output` (which must be empty or end with a newline).
  bool renderAppend(const std::string& name, const TemplateValue& data, std::string& output,
                    std::string& error) const;

  /// Where a borrowed text (TemplateValue::borrowed) that ends with a newline belongs in the output
  /// of render(..., inserts, ...): at offset `at` of `output`, not copied into it.
  struct Insert {
    std::size_t at;
    const std::string* text;
  };
  /// Renders like render(), except that every `{{{name}}}` of a borrowed text ending with a newline
  /// is left out of `output` and listed in `inserts` (ascending offsets): the rendered text is
  /// `output` with each insert's text put in at its offset.
  bool render(const std::string& name, const TemplateValue& data, std::string& output,
              std::vector<Insert>& inserts, std::string& error) const;

 private:
  struct Parsed {
    std::string text;
    std::vector<MustacheNode> nodes;         // as a top-level template
    std::vector<MustacheNode> partialNodes;  // as a partial: without the final newline
  };

  bool renderInto(const std::string& name, const TemplateValue& data, std::string& output,
                  std::vector<Insert>* inserts, std::string& error) const;

  std::string directory_;
  // unique_ptr: the nodes point into the text and at other templates' nodes; moving the set keeps them.
  std::map<std::string, std::unique_ptr<Parsed>, std::less<>> templates_;
};

}  // namespace ringkernel::gen
