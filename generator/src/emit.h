// Copyright RingKernel authors.
// The backend's entry points: model -> file contents -> files on disk. Rendering never touches the
// disk; writing is all-or-nothing and only rewrites files whose content changed.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"
#include "template_renderer.h"

namespace ringkernel::gen {

/// One output file. Its text is `content` with the text of each insert put in at the insert's offset
/// of `content` (text rendered elsewhere is not copied: the traits section of .rk.h and .rk.cuh is
/// kept once in memory); without inserts it is `content`.
struct OutputFile {
  struct Insert {
    std::size_t at;  // offset in `content`; inserts are in ascending order
    std::string_view text;
    std::shared_ptr<const void> owner;  // keeps `text` alive
  };
  std::string path;     // absolute or relative to the current directory
  std::string content;
  std::vector<Insert> inserts{};

  /// The file's text in order, as consecutive pieces (views into `content` and the inserts).
  std::vector<std::string_view> pieces() const;
  /// The file's whole text (a copy).
  std::string text() const;
};

/// Where the mustache templates live: --template-dir, else $RINGKERNEL_TEMPLATE_DIR, else
/// <exe>/../share/ringkernel/templates, else the source tree's templates/. Empty string + error
/// message when none of them holds the templates.
std::string findTemplateDir(const std::string& explicitDir, const char* argv0, std::string& error);

/// Renders <stem>.rk.h, <stem>.rk.cuh and <stem>.rk.json for one header into outputDir.
/// Returns false and sets `error` when a template is missing or malformed.
bool renderHeader(const HeaderModel& model, const std::string& outputDir,
                  const std::string& templateDir, std::vector<OutputFile>& files, std::string& error);

struct Prerendered;
/// The same with templates loaded once per run (loadHeaderTemplates) and, optionally, the parts a
/// Prerenderer rendered while the header was parsed (prerender.h; used when they match the model,
/// moved out). Renders .rk.cuh's type definitions on a second thread.
bool renderHeader(const HeaderModel& model, const std::string& outputDir, const TemplateSet& templates,
                  std::vector<OutputFile>& files, std::string& error, Prerendered* ahead);

/// The templates renderHeader needs, from `templateDir`.
std::optional<TemplateSet> loadHeaderTemplates(const std::string& templateDir, std::string& error);

/// Writes every file whose content differs from what is on disk (through a temporary file and an
/// atomic rename); files with identical content keep their mtime. All-or-nothing: on failure no
/// file is left partially written. Returns false and sets `error` on I/O failure.
bool writeOutputs(const std::vector<OutputFile>& files, std::string& error);

/// `ringkernel-gen registry`: merges manifests into <outputDir>/<name>.registry.rk.h. Prints
/// diagnostics (collisions name both types and their headers) to stderr. Returns the exit status:
/// 0 success, 1 the run failed (bad manifests, collisions, a template that does not load or
/// render, a header that cannot be written: nothing written; with `removeStale`, a registry header
/// an earlier run wrote there is deleted, so nothing stale outlives the error), 2 bad usage.
int runRegistry(const std::string& name, const std::string& outputDir,
                const std::vector<std::string>& manifests, const std::string& templateDir,
                bool removeStale = false);

/// `ringkernel-gen check`: checks that the messages of the manifests can share one program as a
/// registry of them would (type-id and kernel-id collisions, one type described differently, two
/// headers of one stem), writing nothing. The CMake function runs it over the headers of a target
/// that has no REGISTRY. Prints the diagnostics runRegistry would to stderr. Returns 0 when they
/// can (also when they hold no message), 1 when not or a manifest cannot be read, 2 bad usage.
int runCheck(const std::vector<std::string>& manifests);

}  // namespace ringkernel::gen
