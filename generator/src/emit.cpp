// Copyright RingKernel authors.
// findTemplateDir and renderHeader: the per-header part of the backend.
#include "emit.h"

#include <cstdlib>
#include <filesystem>
#include <future>

#include <llvm/Support/FileSystem.h>

#include "manifest.h"
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
    if (holdsTemplates(env)) return env;
    tried.push_back(std::string(env) + " ($RINGKERNEL_TEMPLATE_DIR)");
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
  // The traits section is the same in .rk.h and .rk.cuh: rendered once, inserted verbatim in both.
  std::string traits;
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
    std::string error;
  };
  std::future<CudaHeader> cuda = std::async(std::launch::async, [&model, &templates, &traits, ahead] {
    CudaHeader result;
    std::string definitions;
    if (ahead != nullptr && ahead->definitionsRendered && ahead->outline == typeDefinitionsOutline(model)) {
      definitions.reserve(ahead->enumDefinitions.size() + ahead->messageDefinitions.size());
      definitions.append(ahead->enumDefinitions).append(ahead->messageDefinitions);
    } else if (TemplateValue data; !typeDefinitionsData(model, data, result.error) ||
                                   !templates.render("type_definitions", data, definitions, result.error)) {
      return result;
    }
    result.definitionsOk = true;
    TemplateValue data = headerData(model);
    data.object()->add("traits_section", TemplateValue::borrowed(traits));
    const std::size_t size = traits.size() + definitions.size() + 4096;
    data.object()->add("type_definitions", std::move(definitions));
    result.text.reserve(size);
    result.ok = templates.render("rk_cuh", data, result.text, result.error);
    return result;
  });
  std::string manifest = ahead != nullptr ? manifestJson(model, &ahead->enumEntries, &ahead->messageEntries)
                                          : manifestJson(model);
  TemplateValue data = headerData(model);
  data.object()->add("traits_section", TemplateValue::borrowed(traits));
  std::string header;
  header.reserve(traits.size() + 64 * (model.messages.size() + model.enums.size()) + 4096);
  std::string headerError;
  const bool headerOk = templates.render("rk_h", data, header, headerError);
  CudaHeader cudaHeader = cuda.get();
  if (!cudaHeader.ok || !headerOk) {
    error = !cudaHeader.definitionsOk || headerOk ? std::move(cudaHeader.error) : std::move(headerError);
    return false;
  }
  files.push_back({joinPath(outputDir, model.stem + ".rk.h"), std::move(header)});
  files.push_back({joinPath(outputDir, model.stem + ".rk.cuh"), std::move(cudaHeader.text)});
  files.push_back({joinPath(outputDir, model.stem + ".rk.json"), std::move(manifest)});
  return true;
}

}  // namespace ringkernel::gen
