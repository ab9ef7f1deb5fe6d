// Copyright RingKernel authors.
// `ringkernel-gen registry` (runRegistry, declared in emit.h): merges manifests into one
// <name>.registry.rk.h. This header exposes the merge step so tests can check it without files.
#pragma once

#include <string>
#include <vector>

#include "model.h"

namespace ringkernel::gen {

struct ManifestInput {
  std::string path;   // where the manifest was read from (used in diagnostics)
  HeaderModel model;
};

/// The merged registry: each message once, sorted by type id; headers sorted by stem.
struct MergedRegistry {
  std::vector<MessageModel> messages;
  std::vector<std::string> stems;
};

/// Merges manifests. A message present in several manifests (a nested message is repeated in the
/// manifest of every header that uses it) is kept once if every copy is identical. Different types
/// with one type id, different kernels with one kernel id, the same type described differently, and
/// two headers with one stem are errors; every one is appended to `diagnostics` in clang style
/// ("file:line:col: error: ..." plus a "note:" at the other declaration). Returns false on error.
bool mergeManifests(const std::vector<ManifestInput>& manifests, MergedRegistry& merged,
                    std::vector<std::string>& diagnostics);

/// Reads the manifest files and merges them as mergeManifests does; a file that cannot be read or
/// is not a manifest appends an error naming it (with line and column where the JSON is wrong) and
/// stops before the merge. Returns false on error. No messages at all is not an error here.
bool readAndMerge(const std::vector<std::string>& manifests, MergedRegistry& merged,
                  std::vector<std::string>& diagnostics);

}  // namespace ringkernel::gen
