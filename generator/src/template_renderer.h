// Copyright RingKernel authors.
// Loads the mustache templates of a template directory and renders them strictly: every template and
// partial must parse, every partial a template names must exist, and every name a template looks up
// must be present in the data (a typo in a template is an error, never silently empty output).
//
// Line layout: kainjow keeps the lines of sections that render nothing, so the renderer drops every
// line that is empty or whitespace-only after rendering; a template asks for a blank line by writing
// `{{blank}}` alone on a line (the renderer provides `blank`).
#pragma once

#include <kainjow/mustache.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ringkernel::gen {

using TemplateData = kainjow::mustache::data;
using TemplateObject = kainjow::mustache::object;
using TemplateList = kainjow::mustache::list;

class TemplateSet {
 public:
  /// Loads every `*.mustache` file of `directory`; each is usable as a top-level template and as a
  /// partial under its file name without extension. Fails when a template in `required` is missing,
  /// a template does not parse, or a template names a partial that does not exist.
  static std::optional<TemplateSet> load(const std::string& directory,
                                         const std::vector<std::string>& required, std::string& error);

  /// Renders template `name` with `data`. Output is not HTML-escaped (the templates produce C++).
  bool render(const std::string& name, const TemplateData& data, std::string& output,
              std::string& error) const;

 private:
  std::string directory_;
  std::map<std::string, std::string> templates_;  // name -> text
};

}  // namespace ringkernel::gen
