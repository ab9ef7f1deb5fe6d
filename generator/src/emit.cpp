// Copyright RingKernel authors.
// findTemplateDir and renderHeader: the per-header part of the backend.
#include "emit.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <initializer_list>
#include <memory>
#include <utility>

#include <llvm/Support/FileSystem.h>

#include "manifest.h"
#include "paths.h"
#include "prerender.h"
#include "template_data.h"
#include "template_renderer.h"

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;

/// The templates renderHeader needs (partials are checked when the set loads).
const std::vector<std::string>& headerTemplates() {
  static const std::vector<std::string> names{"rk_h", "rk_cuh", "traits_section", "message_traits",
                                              "type_definitions"};
  return names;
}

bool holdsTemplates(const fs::path& dir) {
  std::error_code ec;
  for (const std::string& name : headerTemplates()) {
    if (!fs::is_regular_file(dir / (name + ".mustache"), ec)) return false;
  }
  return fs::is_regular_file(dir / "registry.mustache", ec);
}

std::string joinPath(const std::string& dir, const std::string& file) {
  return dir.empty() ? file : (fs::path(dir) / file).string();
}

/// The inserts of a render as inserts of an output file: the texts in `shared` are shared, any other
/// borrowed text is copied.
std::vector<OutputFile::Insert> fileInserts(const std::vector<TemplateSet::Insert>& inserts,
                                            std::initializer_list<std::shared_ptr<const std::string>> shared) {
  std::vector<OutputFile::Insert> result;
  result.reserve(inserts.size());
  for (const TemplateSet::Insert& insert : inserts) {
    const auto owner = std::find_if(shared.begin(), shared.end(),
                                    [&](const auto& text) { return text.get() == insert.text; });
    std::shared_ptr<const std::string> text =
        owner != shared.end() ? *owner : std::make_shared<const std::string>(*insert.text);
    result.push_back({insert.at, *text, std::move(text)});
  }
  return result;
}

}  // namespace

std::string findTemplateDir(const std::string& explicitDir, const char* argv0, std::string& error) {
  if (!explicitDir.empty()) {
    if (holdsTemplates(explicitDir)) return explicitDir;
    error = "--template-dir '" + explicitDir +
            "' does not hold the ringkernel templates (rk_h.mustache, rk_cuh.mustache, "
            "registry.mustache)";
    return {};
  }
  std::vector<std::string> tried;
  if (const char* env = std::getenv("RINGKERNEL_TEMPLATE_DIR"); env != nullptr && *env != '\0') {
    // Set on purpose: falling back to the default places would silently use other templates.
    if (holdsTemplates(env)) return env;
    error = "RINGKERNEL_TEMPLATE_DIR '" + std::string(env) +
            "' does not hold the ringkernel templates (rk_h.mustache, rk_cuh.mustache, "
            "registry.mustache); point it at them, or unset it to use the installed ones";
    return {};
  }
  static int anchor = 0;
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0 != nullptr ? argv0 : "", &anchor);
  if (!exe.empty()) {
    const fs::path installed = fs::path(exe).parent_path().parent_path() / "share" / "ringkernel" / "templates";
    if (holdsTemplates(installed)) return installed.string();
    tried.push_back(installed.string());
  }
  const std::string source = RINGKERNEL_SOURCE_TEMPLATE_DIR;
  if (holdsTemplates(source)) return source;
  tried.push_back(source + " (source tree)");
  error = "cannot find the ringkernel templates; pass --template-dir or set RINGKERNEL_TEMPLATE_DIR "
          "(looked in:";
  for (const std::string& dir : tried) error += " " + dir + ";";
  error.back() = ')';
  return {};
}

std::optional<TemplateSet> loadHeaderTemplates(const std::string& templateDir, std::string& error) {
  return TemplateSet::load(templateDir, headerTemplates(), error);
}

bool renderHeader(const HeaderModel& model, const std::string& outputDir,
                  const std::string& templateDir, std::vector<OutputFile>& files, std::string& error) {
  const std::optional<TemplateSet> templates = TemplateSet::load(templateDir, headerTemplates(), error);
  return templates && renderHeader(model, outputDir, *templates, files, error, nullptr);
}

bool renderHeader(const HeaderModel& model, const std::string& outputDir, const TemplateSet& templates,
                  std::vector<OutputFile>& files, std::string& error, Prerendered* ahead) {
  if (ahead != nullptr && (!ahead->matches(model) || !ahead->traitsRendered)) ahead = nullptr;
  // The traits section is the same in .rk.h and .rk.cuh: rendered once, kept once in memory and
  // inserted in both files (OutputFile::inserts) when they are compared with the disk and written.
  auto shared = std::make_shared<std::string>();
  std::string& traits = *shared;
  if (ahead != nullptr) {
    traits = std::move(ahead->traitsSection);
  } else {
    TemplateList messages;
    messages.reserve(model.messages.size());
    for (const MessageModel& message : model.messages) messages.push_back(messageTraitsData(message));
    traits.reserve(4096 * model.messages.size());
    if (!templates.render("traits_section", TemplateObject(1).add("messages", std::move(messages)), traits,
                          error)) {
      // A failure of the type definitions is reported first: it says what is wrong with the model.
      TemplateValue data;
      std::string definitions;
      if (!typeDefinitionsData(model, data, definitions)) error = std::move(definitions);
      return false;
    }
  }
  // .rk.cuh (with its type definitions) renders on a second thread while this one renders .rk.h and
  // the manifest; both read the traits section.
  struct CudaHeader {
    bool ok = false;
    bool definitionsOk = false;  // their error goes first: it says what is wrong with the model
    std::string text;
    std::vector<TemplateSet::Insert> inserts;
    std::shared_ptr<const std::string> definitions;  // inserted like the traits section
    std::string error;
  };
  std::future<CudaHeader> cuda = std::async(std::launch::async, [&model, &templates, &traits, ahead] {
    CudaHeader result;
    auto definitions = std::make_shared<std::string>();
    if (ahead != nullptr && ahead->definitionsRendered && ahead->outline == typeDefinitionsOutline(model)) {
      // The enums' definitions come first (a message may use any of them); they are few and short.
      *definitions = std::move(ahead->messageDefinitions);
      definitions->insert(0, ahead->enumDefinitions);
    } else if (TemplateValue data; !typeDefinitionsData(model, data, result.error) ||
                                   !templates.render("type_definitions", data, *definitions, result.error)) {
      return result;
    }
    result.definitionsOk = true;
    TemplateValue data = headerData(model);
    data.object()->add("traits_section", TemplateValue::borrowed(traits));
    data.object()->add("type_definitions", TemplateValue::borrowed(*definitions));
    result.text.reserve(64 * (model.messages.size() + model.enums.size()) + 4096);
    result.ok = templates.render("rk_cuh", data, result.text, result.inserts, result.error);
    result.definitions = std::move(definitions);
    return result;
  });
  // The manifest lines rendered ahead are inserted in the manifest, not copied into it.
  std::string manifest;
  std::vector<OutputFile::Insert> manifestInserts;
  if (ahead != nullptr) {
    const auto entries = std::make_shared<const std::pair<std::vector<std::string>, std::vector<std::string>>>(
        std::move(ahead->enumEntries), std::move(ahead->messageEntries));
    std::vector<std::pair<std::size_t, const std::string*>> offsets;
    manifest = manifestJson(model, entries->first, entries->second, offsets);
    manifestInserts.reserve(offsets.size());
    for (const auto& [at, text] : offsets) manifestInserts.push_back({at, *text, entries});
  } else {
    manifest = manifestJson(model);
  }
  TemplateValue data = headerData(model);
  data.object()->add("traits_section", TemplateValue::borrowed(traits));
  std::string header;
  header.reserve(64 * (model.messages.size() + model.enums.size()) + 4096);
  std::vector<TemplateSet::Insert> headerInserts;
  std::string headerError;
  const bool headerOk = templates.render("rk_h", data, header, headerInserts, headerError);
  CudaHeader cudaHeader = cuda.get();
  if (!cudaHeader.ok || !headerOk) {
    error = !cudaHeader.definitionsOk || headerOk ? std::move(cudaHeader.error) : std::move(headerError);
    return false;
  }
  const std::shared_ptr<const std::string> traitsSection = std::move(shared);
  files.push_back({joinPath(outputDir, model.stem + std::string(kHeaderSuffix)), std::move(header),
                   fileInserts(headerInserts, {traitsSection})});
  files.push_back({joinPath(outputDir, model.stem + std::string(kCudaHeaderSuffix)), std::move(cudaHeader.text),
                   fileInserts(cudaHeader.inserts, {traitsSection, cudaHeader.definitions})});
  files.push_back({joinPath(outputDir, model.stem + std::string(kManifestSuffix)), std::move(manifest), std::move(manifestInserts)});
  return true;
}

}  // namespace ringkernel::gen
