// Copyright RingKernel authors.
// findTemplateDir and renderHeader: the per-header part of the backend.
#include "emit.h"

#include <cstdlib>
#include <filesystem>

#include <llvm/Support/FileSystem.h>

#include "manifest.h"
#include "template_data.h"
#include "template_renderer.h"

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;

/// The templates renderHeader needs (partials are checked when the set loads).
const std::vector<std::string>& headerTemplates() {
  static const std::vector<std::string> names{"rk_h", "rk_cuh", "traits_section"};
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

bool renderHeader(const HeaderModel& model, const std::string& outputDir,
                  const std::string& templateDir, std::vector<OutputFile>& files, std::string& error) {
  const std::optional<TemplateSet> templates = TemplateSet::load(templateDir, headerTemplates(), error);
  if (!templates) return false;
  TemplateValue data;
  if (!buildHeaderData(model, data, error)) return false;
  // The traits section is the same in .rk.h and .rk.cuh: rendered once, inserted verbatim in both.
  std::string traits;
  traits.reserve(3000 * model.messages.size());
  if (!templates->render("traits_section", data, traits, error)) return false;
  const std::size_t traitsSize = traits.size();
  data.object()->add("traits_section", std::move(traits));
  std::string header, cudaHeader;
  header.reserve(traitsSize + 4096);
  cudaHeader.reserve(traitsSize + 1024 * (model.messages.size() + model.enums.size()) + 4096);
  if (!templates->render("rk_h", data, header, error)) return false;
  if (!templates->render("rk_cuh", data, cudaHeader, error)) return false;
  files.push_back({joinPath(outputDir, model.stem + ".rk.h"), std::move(header)});
  files.push_back({joinPath(outputDir, model.stem + ".rk.cuh"), std::move(cudaHeader)});
  files.push_back({joinPath(outputDir, model.stem + ".rk.json"), manifestJson(model)});
  return true;
}

}  // namespace ringkernel::gen
