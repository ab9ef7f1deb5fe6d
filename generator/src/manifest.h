// Copyright RingKernel authors.
// The manifest <stem>.rk.json: the whole HeaderModel (every message, field, layout, id, kernel,
// option and enum) as JSON, written next to the generated headers and read back by
// `ringkernel-gen registry`.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "model.h"

namespace ringkernel::gen {

/// Identifies the format; readers reject other values.
inline constexpr const char* kManifestSchema = "ringkernel-manifest";
/// Bumped whenever a field of the manifest changes meaning or is removed, or gains a value a reader
/// must understand (a new field kind); docs/generator.md, "The manifest (.rk.json) for non-C++ peers".
inline constexpr int kManifestSchemaVersion = 2;  // 2: field kind "char8", enumerators' wire_value

/// Deterministic JSON text (fixed key order, final newline): the top level laid out with a two-space
/// indent, every enum and message compact on a line of its own.
/// `enumEntries` / `messageEntries`, when given, hold manifestEntry() of every enum / message of the
/// model in order (rendered ahead, e.g. while the header was parsed).
std::string manifestJson(const HeaderModel& model,
                         const std::vector<std::string>* enumEntries = nullptr,
                         const std::vector<std::string>* messageEntries = nullptr);

/// The same from entries rendered ahead, which are left out of the returned text: `inserts` gets,
/// in order, the offset of the returned text at which each entry belongs (OutputFile::inserts).
std::string manifestJson(const HeaderModel& model, const std::vector<std::string>& enumEntries,
                         const std::vector<std::string>& messageEntries,
                         std::vector<std::pair<std::size_t, const std::string*>>& inserts);

/// The compact JSON of one message / enum as its line in the manifest holds it.
std::string manifestEntry(const MessageModel& message);
std::string manifestEntry(const EnumModel& enumeration);

/// Canonical JSON of one message without `from_this_header` and the source locations: two manifests
/// describe the same message identically exactly when the fingerprints are equal (wherever each
/// parse found its header).
std::string messageFingerprint(const MessageModel& message);

/// Parses manifest text. `sourceName` (the manifest's path) prefixes every error, together with the
/// JSON location of the offending value, e.g. "a.rk.json: messages[2].fields[0].offset: expected
/// an unsigned integer".
bool readManifest(const std::string& text, const std::string& sourceName, HeaderModel& model,
                  std::string& error);

}  // namespace ringkernel::gen
