// Copyright RingKernel authors.
// `ringkernel-gen registry` and `ringkernel-gen check` on hand-built manifests: merging,
// deduplication and collision errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "backend_models.h"
#include "cpp_spelling.h"
#include "emit.h"
#include "manifest.h"
#include "output_writer.h"
#include "registry.h"

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;
using testing::message;
using testing::sampleHeader;

struct RegistryRun {
  int status;
  std::string diagnostics;
};

class BackendRegistry : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ringkernel_registry_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string writeManifest(const HeaderModel& model) {
    const std::string path = (dir_ / (model.stem + ".rk.json")).string();
    std::ofstream(path) << manifestJson(model);
    return path;
  }
  RegistryRun run(const std::vector<std::string>& manifests) {
    ::testing::internal::CaptureStderr();
    const int status = runRegistry("my-app", dir_.string(), manifests, RINGKERNEL_SOURCE_TEMPLATE_DIR);
    return {status, ::testing::internal::GetCapturedStderr()};
  }
  fs::path output() const { return dir_ / "my-app.registry.rk.h"; }

  /// other.h: a message that nests app::Point (so app::Point is repeated in its manifest).
  static HeaderModel otherHeader() {
    HeaderModel h;
    h.headerPath = "/src/other.h";
    h.includeSpelling = "other.h";
    h.stem = "other";
    MessageModel point = sampleHeader().messages[0];
    point.fromThisHeader = false;
    MessageModel line = message("geo", "Line", 16, 4, "/src/other.h");
    FieldModel a = testing::scalarField("a", FieldKind::Message, 0, 8);
    a.alignment = a.naturalAlignment = 4;
    a.typeName = "::app::Point";
    a.messageTypeId = point.typeId;
    FieldModel b = a;
    b.name = "b";
    b.offset = 8;
    line.fields = {a, b};
    h.messages = {point, line};
    return h;
  }

  fs::path dir_;
};

TEST_F(BackendRegistry, MergesManifestsAndDeduplicatesIdenticalNestedMessages) {
  const RegistryRun result = run({writeManifest(sampleHeader()), writeManifest(otherHeader())});
  ASSERT_EQ(result.status, 0) << result.diagnostics;
  std::string content;
  ASSERT_TRUE(readWholeFile(output().string(), content));
  EXPECT_NE(content.find("namespace ringkernel::registry::my_app {"), std::string::npos);
  EXPECT_NE(content.find("#include \"app.rk.h\""), std::string::npos);
  EXPECT_NE(content.find("#include \"other.rk.cuh\""), std::string::npos);
  EXPECT_NE(content.find("inline constexpr ::std::size_t message_count = 3;"), std::string::npos)
      << "app::Point appears in both manifests and must be listed once";
}

TEST_F(BackendRegistry, EachTypesEnvelopeDecoderIsItsOwnDeviceFunction) {
  // dispatch_envelope calls one decoder per type; inlined into it in device code, a registry of 38
  // types took nvcc minutes to compile (tests/codec/device/device_outlining.cu checks the codec's).
  const RegistryRun result = run({writeManifest(sampleHeader())});
  ASSERT_EQ(result.status, 0) << result.diagnostics;
  std::string content;
  ASSERT_TRUE(readWholeFile(output().string(), content));
  EXPECT_NE(content.find("RINGKERNEL_HOST_DEVICE RINGKERNEL_CODEC_DEVICE_NOINLINE ::ringkernel::codec_result decode_and_visit("),
            std::string::npos)
      << content;
}

// The contents sit in `inline namespace r_<16 hex digits>` keyed on them: the same manifests give
// the same key in every run; other messages, or one option changed, another (two registries of one
// name in one program then do not share symbols).
TEST_F(BackendRegistry, ContentsSitInAnInlineNamespaceKeyedOnThem) {
  const auto key = [this](const std::vector<HeaderModel>& headers) {
    std::vector<std::string> paths;
    for (const HeaderModel& h : headers) paths.push_back(writeManifest(h));
    const RegistryRun result = run(paths);
    EXPECT_EQ(result.status, 0) << result.diagnostics;
    std::string content;
    EXPECT_TRUE(readWholeFile(output().string(), content));
    const std::string open = "namespace ringkernel::registry::my_app {\ninline namespace r_";
    const std::size_t at = content.find(open);
    EXPECT_NE(at, std::string::npos) << content;
    const std::string found = at == std::string::npos ? "" : content.substr(at + open.size() - 2, 18);
    EXPECT_NE(content.find("}  // inline namespace " + found + "\n}  // namespace ringkernel::registry::my_app\n"),
              std::string::npos) << content;
    return found;
  };
  const std::string sample = key({sampleHeader()});
  EXPECT_EQ(sample.find_first_not_of("0123456789abcdef", 2), std::string::npos) << sample;
  EXPECT_EQ(key({sampleHeader()}), sample);
  EXPECT_NE(key({sampleHeader(), otherHeader()}), sample);
  HeaderModel changed = sampleHeader();
  changed.messages[1].options.priority = 7;
  EXPECT_NE(key({changed}), sample);
}

TEST_F(BackendRegistry, MergeSortsByTypeId) {
  std::vector<ManifestInput> inputs{{"app.rk.json", sampleHeader()}, {"other.rk.json", otherHeader()}};
  MergedRegistry merged;
  std::vector<std::string> diagnostics;
  ASSERT_TRUE(mergeManifests(inputs, merged, diagnostics));
  ASSERT_EQ(merged.messages.size(), 3u);
  EXPECT_LT(merged.messages[0].typeId, merged.messages[1].typeId);
  EXPECT_LT(merged.messages[1].typeId, merged.messages[2].typeId);
  EXPECT_EQ(merged.stems, (std::vector<std::string>{"app", "other"}));
}

TEST_F(BackendRegistry, TypeIdCollisionNamesBothTypesAndHeadersAndWritesNothing) {
  HeaderModel other = otherHeader();
  other.messages[1].typeId = *(other.messages[1].options.id = sampleHeader().messages[1].typeId);
  const RegistryRun result = run({writeManifest(sampleHeader()), writeManifest(other)});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("/src/other.h:5:8: error: type id"), std::string::npos) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find("geo::Line (/src/other.h"), std::string::npos) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find("app::ShapeRequest (/src/app.h"), std::string::npos) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find("/src/app.h:5:8: note: app::ShapeRequest declared here"), std::string::npos)
      << result.diagnostics;
  // The id as a reader writes it (not a C++ literal), and the fix for ids.
  const std::string id = "type id 0x" + hexDigits(other.messages[1].typeId) + " is used twice";
  EXPECT_NE(result.diagnostics.find(id), std::string::npos) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find("; give one of them another [[ringkernel::message(id = ...)]]"), std::string::npos)
      << result.diagnostics;
  EXPECT_FALSE(fs::exists(output()));
}

/// `m` with `kernel = "<name>"`, as the front end writes it.
MessageModel withKernel(MessageModel m, const std::string& name) {
  m.options.kernel = m.kernel = name;
  m.kernelId = fnv1a32(name);
  return m;
}

// "costarring" and "liquid" have the same FNV-1a 32 hash (a manifest's kernel id is its kernel's
// hash; the reader refuses any other).
TEST_F(BackendRegistry, KernelIdCollisionIsAnError) {
  HeaderModel sample = sampleHeader();
  sample.messages[1] = withKernel(sample.messages[1], "costarring");
  HeaderModel other = otherHeader();
  other.messages[1] = withKernel(other.messages[1], "liquid");
  ASSERT_EQ(sample.messages[1].kernelId, other.messages[1].kernelId);
  const RegistryRun result = run({writeManifest(sample), writeManifest(other)});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("kernels \"costarring\" and \"liquid\" have the same kernel id 0x" +
                                    hexDigits(other.messages[1].kernelId) + ":"),
            std::string::npos) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find("; rename one of the kernels"), std::string::npos) << result.diagnostics;
  EXPECT_FALSE(fs::exists(output()));
}

// A message's file is its presumed one, which `#line` may set to anything: in a collision message a
// line break or quote in it is shown in JSON escapes, so each diagnostic stays one line.
TEST_F(BackendRegistry, CollisionShowsAFileNameWithControlCharactersEscaped) {
  HeaderModel other = otherHeader();
  other.messages[1].typeId = *(other.messages[1].options.id = sampleHeader().messages[1].typeId);
  other.messages[1].location.file = "/src/oth\ner.h\": error: forged";
  const RegistryRun result = run({writeManifest(sampleHeader()), writeManifest(other)});
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(std::count(result.diagnostics.begin(), result.diagnostics.end(), '\n'), 2) << result.diagnostics;
  const std::string shown = "\"/src/oth\\ner.h\\\": error: forged\"";
  EXPECT_EQ(result.diagnostics.rfind(shown + ":5:8: error: type id", 0), 0u) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find("geo::Line (" + shown + ", manifest "), std::string::npos) << result.diagnostics;
}

TEST_F(BackendRegistry, TwoHeadersOfOneStemAreAnErrorNamingBoth) {
  HeaderModel other = otherHeader();
  other.headerPath = "/lib/app.h";
  other.includeSpelling = "lib/app.h";
  other.stem = "app";
  std::vector<ManifestInput> inputs{{"app.rk.json", sampleHeader()}, {"lib.rk.json", other}};
  MergedRegistry merged;
  std::vector<std::string> diagnostics;
  EXPECT_FALSE(mergeManifests(inputs, merged, diagnostics));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_EQ(diagnostics[0], "lib.rk.json: error: headers \"/src/app.h\" and \"/lib/app.h\" both generate "
                            "\"app.rk.h\" (manifests app.rk.json and lib.rk.json); rename one of them");
}

TEST_F(BackendRegistry, DifferentDescriptionsOfOneMessageAreAnError) {
  HeaderModel other = otherHeader();
  other.messages[0].fields[1].initializer = "6";
  const RegistryRun result = run({writeManifest(sampleHeader()), writeManifest(other)});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("app::Point is described differently by two manifests"), std::string::npos)
      << result.diagnostics;
  EXPECT_FALSE(fs::exists(output()));
}

// One header reached by two paths (a symbolic link, an include directory given two ways) records other
// source locations; that is no other description of its messages.
TEST_F(BackendRegistry, LocationsAloneDoNotMakeTwoDescriptions) {
  HeaderModel other = otherHeader();
  other.messages[0].location.file = "/link/app.h";
  other.messages[0].location.line += 1;
  other.messages[0].fields[1].location.file = "/link/app.h";
  const RegistryRun result = run({writeManifest(sampleHeader()), writeManifest(other)});
  EXPECT_EQ(result.status, 0) << result.diagnostics;
  EXPECT_EQ(messageFingerprint(sampleHeader().messages[0]), messageFingerprint(other.messages[0]));
}

// A truncated manifest is reported at its line and column; hand-edited names that the registry
// spells into C++ are refused (they used to give a registry header that does not compile).
TEST_F(BackendRegistry, TruncatedOrHandEditedManifestIsAnErrorWithItsLocation) {
  const std::string good = writeManifest(sampleHeader());
  std::string text;
  {
    std::ifstream in(good);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string truncated = (dir_ / "truncated.rk.json").string();
  std::ofstream(truncated) << text.substr(0, text.find("\"messages\""));
  RegistryRun result = run({truncated});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find(truncated + ":"), std::string::npos) << result.diagnostics;
  EXPECT_NE(result.diagnostics.find(": error: not valid JSON: "), std::string::npos) << result.diagnostics;
  EXPECT_EQ(result.diagnostics.find(truncated + ": error"), std::string::npos) << "no line:column: " << result.diagnostics;

  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string copy = text;
    const auto at = copy.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    copy.replace(at, from.size(), to);
    const std::string path = (dir_ / "edited.rk.json").string();
    std::ofstream(path) << copy;
    return path;
  };
  result = run({edited("\"qualified_name\":\"app::Point\"", "\"qualified_name\":\"app::Point; int x\"")});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("qualified_name: \"app::Point; int x\" is not a C++ qualified name"),
            std::string::npos) << result.diagnostics;
  result = run({edited("\"stem\": \"app\"", "\"stem\": \"../app\"")});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("header.stem: \"../app\" is not a file name"), std::string::npos)
      << result.diagnostics;
  EXPECT_FALSE(fs::exists(output()));
}

TEST_F(BackendRegistry, BadManifestAndBadUsage) {
  const std::string broken = (dir_ / "broken.rk.json").string();
  std::ofstream(broken) << "[]";
  RegistryRun result = run({broken});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find(broken + ": error: top level: expected an object"), std::string::npos)
      << result.diagnostics;
  result = run({(dir_ / "missing.rk.json").string()});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("cannot read manifest"), std::string::npos) << result.diagnostics;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(runRegistry("a/b", dir_.string(), {broken}, RINGKERNEL_SOURCE_TEMPLATE_DIR), 2);
  EXPECT_EQ(runRegistry("ok", dir_.string(), {}, RINGKERNEL_SOURCE_TEMPLATE_DIR), 2);
  ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(fs::exists(output()));
}

// `ringkernel-gen check` (the CMake function's step for a target without REGISTRY): the registry's
// checks, nothing written, and manifests without messages are fine.
TEST_F(BackendRegistry, CheckRefusesWhatARegistryWouldAndWritesNothing) {
  const auto check = [](const std::vector<std::string>& manifests) {
    ::testing::internal::CaptureStderr();
    const int status = runCheck(manifests);
    return RegistryRun{status, ::testing::internal::GetCapturedStderr()};
  };
  const std::string sample = writeManifest(sampleHeader());
  RegistryRun result = check({sample, writeManifest(otherHeader())});
  EXPECT_EQ(result.status, 0) << result.diagnostics;
  EXPECT_EQ(result.diagnostics, "");

  HeaderModel other = otherHeader();
  other.messages[1].typeId = *(other.messages[1].options.id = sampleHeader().messages[1].typeId);
  result = check({sample, writeManifest(other)});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find("/src/other.h:5:8: error: type id 0x" + hexDigits(other.messages[1].typeId) +
                                    " is used twice: geo::Line (/src/other.h"),
            std::string::npos) << result.diagnostics;

  HeaderModel empty = otherHeader();
  empty.messages.clear();
  result = check({writeManifest(empty)});
  EXPECT_EQ(result.status, 0) << result.diagnostics;

  const std::string broken = (dir_ / "broken.rk.json").string();
  std::ofstream(broken) << "[]";
  result = check({sample, broken});
  EXPECT_EQ(result.status, 1);
  EXPECT_NE(result.diagnostics.find(broken + ": error: top level: expected an object"), std::string::npos)
      << result.diagnostics;
  EXPECT_EQ(check({}).status, 2);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 3);  // the inputs only
}

}  // namespace
}  // namespace ringkernel::gen
