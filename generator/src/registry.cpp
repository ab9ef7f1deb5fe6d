// Copyright RingKernel authors.
#include "registry.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "cpp_spelling.h"
#include "emit.h"
#include "json_writer.h"
#include "manifest.h"
#include "output_writer.h"
#include "paths.h"
#include "template_renderer.h"

namespace ringkernel::gen {
namespace {

/// A file name a manifest holds (a message's presumed file: a #line directive may give it any
/// bytes), as it is when a quoted #include could spell it, else in JSON escapes: no line break,
/// quote or control character of it reaches the terminal or splits a diagnostic.
std::string shownFile(const std::string& file) { return quotedIncludeCanSpell(file) ? file : jsonQuoted(file); }

std::string at(const SourceLoc& loc) {
  return shownFile(loc.file) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

struct Seen {
  const MessageModel* message;
  const ManifestInput* manifest;
};

std::string origin(const Seen& seen) {
  return seen.message->qualifiedName + " (" + shownFile(seen.message->location.file) + ", manifest " +
         seen.manifest->path + ")";
}

/// `fix` ends the error: what to change.
void collision(std::vector<std::string>& diagnostics, const Seen& first, const Seen& second,
               const std::string& what, const std::string& fix) {
  diagnostics.push_back(at(second.message->location) + ": error: " + what + ": " + origin(second) +
                        " and " + origin(first) + "; " + fix);
  diagnostics.push_back(at(first.message->location) + ": note: " + first.message->qualifiedName +
                        " declared here");
}

bool receives(Direction d) { return d == Direction::Input || d == Direction::Bidirectional; }
bool sends(Direction d) { return d != Direction::Input; }

TemplateList idList(const std::vector<std::uint32_t>& ids) {
  TemplateList out;
  for (const std::uint32_t id : ids) out.push_back(TemplateObject(1).add("id", hexLiteral(id)));
  return out;
}

/// The inline namespace that holds a registry's contents: "r_" and FNV-1a 64 (16 hex digits) of the
/// registry as rendered without it (every type id, name, kernel, stem, and the generator's code)
/// and of every message's fingerprint (its layout). Equal registries get one name in every build;
/// two that differ in anything get two, so one program may hold both (docs/generator.md).
std::string contentNamespace(const std::string& rendered, const MergedRegistry& merged) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const auto add = [&hash](const std::string& text) {
    for (const char c : text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ull;
    }
  };
  add(rendered);
  for (const MessageModel& m : merged.messages) add("\n" + messageFingerprint(m));
  return "r_" + hexDigits(static_cast<std::uint32_t>(hash >> 32)) + hexDigits(static_cast<std::uint32_t>(hash));
}

TemplateValue registryData(const std::string& name, const MergedRegistry& merged, const std::string& contentKey) {
  TemplateList headers, messages, kernels;
  for (const std::string& stem : merged.stems) headers.push_back(TemplateObject(1).add("stem", stem));
  struct Kernel {
    std::string name;
    std::vector<std::uint32_t> receives, sends;
  };
  std::map<std::uint32_t, Kernel> byId;  // sorted by kernel id
  for (const MessageModel& m : merged.messages) {
    messages.push_back(TemplateObject(3)
                           .add("cpp_type", "::" + m.qualifiedName)
                           .add("type_id", hexLiteral(m.typeId))
                           .add("kernel_id", hexLiteral(m.kernelId)));
    Kernel& k = byId[m.kernelId];
    k.name = m.kernel;
    if (receives(m.options.direction)) k.receives.push_back(m.typeId);
    if (sends(m.options.direction)) k.sends.push_back(m.typeId);
  }
  for (const auto& [id, k] : byId) {
    kernels.push_back(TemplateObject(11)
        .add("kernel_id", hexLiteral(id))
        .add("kernel_hex", hexDigits(id))
        .add("kernel_literal", cppStringLiteral(k.name))
        .add("receives_pointer", k.receives.empty() ? "nullptr" : "receives_" + hexDigits(id))
        .add("has_receives", !k.receives.empty())
        .add("receives", idList(k.receives))
        .add("receive_count", std::to_string(k.receives.size()))
        .add("sends_pointer", k.sends.empty() ? "nullptr" : "sends_" + hexDigits(id))
        .add("has_sends", !k.sends.empty())
        .add("sends", idList(k.sends))
        .add("send_count", std::to_string(k.sends.size())));
  }
  return TemplateObject(11)
      .add("version", RINGKERNEL_GEN_VERSION)
      .add("name", name)
      .add("namespace", cppIdentifier(name))
      .add("content_namespace", contentKey)
      .add("headers", std::move(headers))
      .add("messages", std::move(messages))
      .add("message_count", std::to_string(merged.messages.size()))
      .add("kernels", std::move(kernels))
      .add("kernel_count", std::to_string(byId.size()))
      .add("host_tables", TemplateObject(1).add("storage", "inline constexpr"))
      .add("device_tables", TemplateObject(1).add("storage", "static __device__ constexpr"));
}

}  // namespace

bool mergeManifests(const std::vector<ManifestInput>& manifests, MergedRegistry& merged,
                    std::vector<std::string>& diagnostics) {
  const std::size_t errorsBefore = diagnostics.size();
  std::map<std::string, Seen> byName;
  std::map<std::uint32_t, Seen> byTypeId, byKernelId;
  std::map<std::string, const ManifestInput*> byStem;
  for (const ManifestInput& manifest : manifests) {
    const auto [stem, fresh] = byStem.emplace(manifest.model.stem, &manifest);
    if (!fresh && stem->second->model.headerPath != manifest.model.headerPath) {
      diagnostics.push_back(manifest.path + ": error: headers " + jsonQuoted(stem->second->model.headerPath) +
                            " and " + jsonQuoted(manifest.model.headerPath) + " both generate " +
                            jsonQuoted(manifest.model.stem + ".rk.h") + " (manifests " + stem->second->path + " and " +
                            manifest.path + "); rename one of them");
    }
    for (const MessageModel& m : manifest.model.messages) {
      const Seen seen{&m, &manifest};
      const auto [named, isNew] = byName.emplace(m.qualifiedName, seen);
      if (!isNew) {
        if (messageFingerprint(*named->second.message) != messageFingerprint(m)) {
          collision(diagnostics, named->second, seen,
                    m.qualifiedName + " is described differently by two manifests (two types of one "
                    "name, or one header generated with different definitions, e.g. for two targets)",
                    "give one of them another name, or generate the header with the same definitions");
        }
        continue;
      }
      if (const auto [sameId, ok] = byTypeId.emplace(m.typeId, seen); !ok) {
        collision(diagnostics, sameId->second, seen, "type id 0x" + hexDigits(m.typeId) + " is used twice",
                  "give one of them another [[ringkernel::message(id = ...)]] (an id not given is derived "
                  "from the qualified name)");
      }
      if (const auto [sameKernel, ok] = byKernelId.emplace(m.kernelId, seen);
          !ok && sameKernel->second.message->kernel != m.kernel) {
        collision(diagnostics, sameKernel->second, seen,
                  "kernels " + jsonQuoted(sameKernel->second.message->kernel) + " and " +
                      jsonQuoted(m.kernel) + " have the same kernel id 0x" + hexDigits(m.kernelId),
                  "rename one of the kernels (the id is FNV-1a 32 of the name)");
      }
      merged.messages.push_back(m);
    }
  }
  std::sort(merged.messages.begin(), merged.messages.end(),
            [](const MessageModel& a, const MessageModel& b) { return a.typeId < b.typeId; });
  for (const auto& [stem, manifest] : byStem) merged.stems.push_back(stem);
  return diagnostics.size() == errorsBefore;
}

bool readAndMerge(const std::vector<std::string>& manifests, MergedRegistry& merged,
                  std::vector<std::string>& diagnostics) {
  const std::size_t errorsBefore = diagnostics.size();
  std::vector<ManifestInput> inputs;
  for (const std::string& path : manifests) {
    std::string text, error;
    ManifestInput input{path, {}};
    if (!readWholeFile(path, text)) {
      diagnostics.push_back(path + ": error: cannot read manifest");
    } else if (!readManifest(text, path, input.model, error)) {
      // error: "<path>[:line:column]: <message>"; the level goes after the location.
      const std::size_t message = error.find(": ", path.size()) + 2;
      diagnostics.push_back(error.substr(0, message) + "error: " + error.substr(message));
    } else {
      inputs.push_back(std::move(input));
    }
  }
  return diagnostics.size() == errorsBefore && mergeManifests(inputs, merged, diagnostics);
}

int runCheck(const std::vector<std::string>& manifests) {
  if (manifests.empty()) {
    std::cerr << "ringkernel-gen check: error: no manifests given (pass <stem>.rk.json files)\n";
    return 2;
  }
  std::vector<std::string> diagnostics;
  MergedRegistry merged;
  readAndMerge(manifests, merged, diagnostics);
  for (const std::string& line : diagnostics) std::cerr << line << "\n";
  return diagnostics.empty() ? 0 : 1;
}

int runRegistry(const std::string& name, const std::string& outputDir,
                const std::vector<std::string>& manifests, const std::string& templateDir,
                bool removeStale) {
  if (name.empty() || name.find_first_of("/\\") != std::string::npos || cppIdentifier(name).empty()) {
    std::cerr << "ringkernel-gen registry: error: --name '" << name
              << "' must be a non-empty file name without path separators\n";
    return 2;
  }
  if (manifests.empty()) {
    std::cerr << "ringkernel-gen registry: error: no manifests given (pass <stem>.rk.json files)\n";
    return 2;
  }
  std::vector<std::string> diagnostics;
  MergedRegistry merged;
  if (readAndMerge(manifests, merged, diagnostics) && merged.messages.empty()) {
    diagnostics.push_back("ringkernel-gen registry: error: the manifests contain no [[ringkernel::message]] types; a "
                          "registry needs at least one");
  }
  std::string error;
  const auto templates = diagnostics.empty()
                             ? TemplateSet::load(templateDir, {"registry"}, error)
                             : std::optional<TemplateSet>();
  // Rendered twice: the second time inside the inline namespace the first rendering names.
  std::string unkeyed, content;
  if (diagnostics.empty() &&
      (!templates || !templates->render("registry", registryData(name, merged, ""), unkeyed, error) ||
       !templates->render("registry", registryData(name, merged, contentNamespace(unkeyed, merged)), content,
                          error))) {
    diagnostics.push_back("ringkernel-gen registry: error: " + error);
  }
  const std::string path = (std::filesystem::path(outputDir.empty() ? "." : outputDir) /
                            (name + ".registry.rk.h")).string();
  if (diagnostics.empty() && !writeOutputs({{path, content}}, error)) {
    diagnostics.push_back("ringkernel-gen registry: error: " + error);
  }
  for (const std::string& line : diagnostics) std::cerr << line << "\n";
  // Only a regular file goes: a directory in the way of the header (a cause of the failure) stays.
  if (!diagnostics.empty() && removeStale && std::filesystem::is_regular_file(path)) {
    std::error_code ec;
    if (std::filesystem::remove(path, ec)) {
      std::cerr << "ringkernel-gen registry: removed stale " << path << "\n";
    } else {
      std::cerr << "ringkernel-gen registry: warning: cannot remove stale " << path << ": " << ec.message() << "\n";
    }
  }
  return diagnostics.empty() ? 0 : 1;
}

}  // namespace ringkernel::gen
