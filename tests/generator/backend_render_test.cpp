// Copyright RingKernel authors.
// Renderer, manifest and output-writer tests on hand-built models (the generated code itself is
// compiled by the layout corpus tests).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include <unistd.h>

#include "backend_models.h"
#include "cpp_spelling.h"
#include "emit.h"
#include "manifest.h"
#include "names.h"
#include "output_writer.h"
#include "template_data.h"
#include "template_renderer.h"

namespace ringkernel::gen {
namespace {

namespace fs = std::filesystem;
using testing::sampleHeader;

std::string templateDir() { return RINGKERNEL_SOURCE_TEMPLATE_DIR; }

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("ringkernel_backend_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<OutputFile> render(const HeaderModel& model, const std::string& dir = "out") {
  std::vector<OutputFile> files;
  std::string error;
  EXPECT_TRUE(renderHeader(model, dir, templateDir(), files, error)) << error;
  return files;
}

TEST(BackendRender, ProducesTheThreeFilesOfAHeader) {
  const auto files = render(sampleHeader());
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].path, "out/app.rk.h");
  EXPECT_EQ(files[1].path, "out/app.rk.cuh");
  EXPECT_EQ(files[2].path, "out/app.rk.json");
  EXPECT_NE(files[0].text().find("#include \"app.h\""), std::string::npos);
  EXPECT_EQ(files[1].text().find("#include \"app.h\""), std::string::npos) << "the .rk.cuh must stand alone";
  EXPECT_NE(files[1].text().find("enum class Color : ::std::uint8_t"), std::string::npos);
  EXPECT_NE(files[1].text().find(" ::std::int32_t y = 5;"), std::string::npos);
  EXPECT_NE(files[1].text().find("double matrix[2][3];"), std::string::npos);
  EXPECT_NE(files[1].text().find("// 3 bytes of padding at offset 1"), std::string::npos);
}

TEST(BackendRender, InlineNamespacesStayInlineInTheCudaHeader) {
  HeaderModel model = sampleHeader();
  model.enums[0].namespaces = {"app", "v2"};
  model.enums[0].inlineNamespaces = {1};
  model.messages[0].namespaces = {"abi", "detail"};
  model.messages[0].inlineNamespaces = {0};
  const auto files = render(model);
  ASSERT_EQ(files.size(), 3u);
  const std::string cuh = files[1].text();
  EXPECT_NE(cuh.find("\nnamespace app::inline v2 {\n"), std::string::npos) << cuh;
  EXPECT_NE(cuh.find("\n}  // namespace app::v2\n"), std::string::npos) << cuh;
  EXPECT_NE(cuh.find("\ninline namespace abi { namespace detail {\n"), std::string::npos) << cuh;
  EXPECT_NE(cuh.find("\n}}  // namespace abi::detail\n"), std::string::npos) << cuh;
  EXPECT_NE(cuh.find("\nnamespace app {\n"), std::string::npos) << "plain namespaces stay as they were";
  HeaderModel back;
  std::string error;
  ASSERT_TRUE(readManifest(manifestJson(model), "app.rk.json", back, error)) << error;
  EXPECT_EQ(back.enums[0].inlineNamespaces, (std::vector<std::size_t>{1}));
  EXPECT_EQ(back.messages[0].inlineNamespaces, (std::vector<std::size_t>{0}));
}

TEST(BackendRender, IsDeterministic) {
  const auto first = render(sampleHeader());
  const auto second = render(sampleHeader());
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].text(), second[i].text()) << first[i].path;
}

TEST(BackendRender, NoAbsolutePathsInGeneratedHeaders) {
  for (const OutputFile& file : render(sampleHeader())) {
    if (file.path.ends_with(".json")) continue;  // the manifest keeps source locations for diagnostics
    EXPECT_EQ(file.text().find("/src/"), std::string::npos) << file.path;
  }
}

TEST(BackendRender, RejectsANestedTypeWhoseEnclosingMessageIsMissing) {
  HeaderModel model = sampleHeader();
  model.messages[0].enclosingMessage = "app::Nowhere";
  std::vector<OutputFile> files;
  std::string error;
  EXPECT_FALSE(renderHeader(model, "out", templateDir(), files, error));
  EXPECT_NE(error.find("/src/app.h:5:8: error: message app::Point is nested in app::Nowhere"), std::string::npos) << error;
}

TEST(BackendRender, RejectsPackedLayouts) {
  HeaderModel model = sampleHeader();
  model.messages[1].fields[2].alignment = 4;
  std::vector<OutputFile> files;
  std::string error;
  EXPECT_FALSE(renderHeader(model, "out", templateDir(), files, error));
  EXPECT_NE(error.find("app::ShapeRequest::matrix is aligned to 4 bytes"), std::string::npos) << error;
}

TEST(BackendTemplates, MissingMalformedAndUnknownNamesAreErrors) {
  const fs::path dir = freshDir("templates");
  for (const auto& entry : fs::directory_iterator(templateDir())) fs::copy(entry.path(), dir / entry.path().filename());
  std::vector<OutputFile> files;
  std::string error;
  std::ofstream(dir / "rk_h.mustache") << "{{#type_guards}}{{qualified_nme}}{{/type_guards}}\n";
  EXPECT_FALSE(renderHeader(sampleHeader(), "out", dir.string(), files, error));
  EXPECT_NE(error.find("unknown name(s): 'qualified_nme'"), std::string::npos) << error;
  std::ofstream(dir / "rk_h.mustache") << "{{#messages}}unclosed\n";
  EXPECT_FALSE(renderHeader(sampleHeader(), "out", dir.string(), files, error));
  EXPECT_NE(error.find("malformed template"), std::string::npos) << error;
  std::ofstream(dir / "rk_h.mustache") << "{{>no_such_partial}}\n";
  EXPECT_FALSE(renderHeader(sampleHeader(), "out", dir.string(), files, error));
  EXPECT_NE(error.find("uses partial 'no_such_partial'"), std::string::npos) << error;
  fs::remove(dir / "rk_h.mustache");
  EXPECT_FALSE(renderHeader(sampleHeader(), "out", dir.string(), files, error));
  EXPECT_NE(error.find("template 'rk_h.mustache' is missing"), std::string::npos) << error;
  EXPECT_TRUE(files.empty());
  std::string found = findTemplateDir(dir.string(), "ringkernel-gen", error);
  EXPECT_TRUE(found.empty());
  EXPECT_NE(error.find("does not hold the ringkernel templates"), std::string::npos) << error;
  fs::remove_all(dir);
}

/// Loads a template set made of `files` (name -> text) from a fresh directory.
std::optional<TemplateSet> loadTemplates(const std::string& dirName,
                                         const std::vector<std::pair<std::string, std::string>>& files,
                                         std::string& error) {
  const fs::path dir = freshDir(dirName);
  for (const auto& [name, text] : files) std::ofstream(dir / (name + ".mustache")) << text;
  auto set = TemplateSet::load(dir.string(), {}, error);
  fs::remove_all(dir);
  return set;
}

TEST(BackendTemplates, RendersSectionsPartialsAndLineRules) {
  std::string error;
  const auto set = loadTemplates(
      "lines",
      {{"main", "head {{title}}\n{{#items}}\n{{>item}}\n{{/items}}\n{{^items}}none\n{{/items}}\n{{blank}}\n"
                "{{#flag}}\n  {{#nested}}{{inner.value}}{{/nested}}\n{{/flag}}\n{{{block}}}\ntail\n"},
       {"item", "- {{name}} of {{title}}\n"}},
      error);
  ASSERT_TRUE(set) << error;
  TemplateList items;
  items.push_back(TemplateObject(1).add("name", "a"));
  items.push_back(TemplateObject(1).add("name", "b"));
  const TemplateValue data = TemplateObject(5)
                                 .add("title", "T")
                                 .add("items", std::move(items))
                                 .add("flag", true)
                                 .add("nested", TemplateObject(1).add("inner", TemplateObject(1).add("value", "v")))
                                 .add("block", "  kept as is\n\n");
  std::string out;
  ASSERT_TRUE(set->render("main", data, out, error)) << error;
  // Section tag lines vanish, {{blank}} gives an empty line, the verbatim block keeps its own blank
  // line and indentation.
  EXPECT_EQ(out, "head T\n- a of T\n- b of T\n\n  v\n  kept as is\n\ntail\n");
}

TEST(BackendTemplates, BorrowedBlocksCanBeLeftOutAsInserts) {
  std::string error;
  const auto set = loadTemplates("inserts", {{"main", "head\n  {{{block}}}\n{{#none}}x\n{{/none}}\n{{{own}}}\ntail\n"}},
                                 error);
  ASSERT_TRUE(set) << error;
  const std::string block = "one\n\n  two\n";
  const TemplateValue data = TemplateObject(3)
                                 .add("block", TemplateValue::borrowed(block))
                                 .add("none", false)
                                 .add("own", "owned\n");
  std::string whole;
  ASSERT_TRUE(set->render("main", data, whole, error)) << error;
  std::string out;
  std::vector<TemplateSet::Insert> inserts;
  ASSERT_TRUE(set->render("main", data, out, inserts, error)) << error;
  ASSERT_EQ(inserts.size(), 1u);  // owned text is copied
  EXPECT_EQ(inserts[0].text, &block);
  EXPECT_EQ(out.substr(0, inserts[0].at) + block + out.substr(inserts[0].at), whole);
  EXPECT_EQ(whole, "head\n  one\n\n  two\nowned\ntail\n");
}

TEST(BackendTemplates, StrictAboutNamesTypesAndSyntax) {
  std::string error;
  auto set = loadTemplates("strict", {{"main", "{{#list}}{{.}}{{/list}} {{list}} {{missing.part}}\n"}}, error);
  ASSERT_TRUE(set) << error;
  TemplateList list;
  list.push_back(TemplateValue("x"));
  const TemplateValue data = TemplateObject(1).add("list", std::move(list));
  std::string out;
  EXPECT_FALSE(set->render("main", data, out, error));
  EXPECT_NE(error.find("unknown name(s): 'missing.part'"), std::string::npos) << error;
  set = loadTemplates("strict_type", {{"main", "{{list}}\n"}}, error);
  ASSERT_TRUE(set) << error;
  EXPECT_FALSE(set->render("main", data, out, error));
  EXPECT_NE(error.find("not text: 'list'"), std::string::npos) << error;
  EXPECT_FALSE(set->render("main", TemplateObject(1).add("blank", "x"), out, error));
  EXPECT_NE(error.find("must not define 'blank'"), std::string::npos) << error;
  EXPECT_FALSE(loadTemplates("bad_close", {{"main", "{{#a}}x{{/b}}\n"}}, error));
  EXPECT_NE(error.find("line 1: '{{/b}}' closes section 'a'"), std::string::npos) << error;
  EXPECT_FALSE(loadTemplates("bad_delimiters", {{"main", "x\n{{=<% %>=}}\n"}}, error));
  EXPECT_NE(error.find("line 2: delimiter changes"), std::string::npos) << error;
  EXPECT_FALSE(loadTemplates("unclosed_tag", {{"main", "{{name\n"}}, error));
  EXPECT_NE(error.find("unclosed tag"), std::string::npos) << error;
}

TEST(BackendTemplates, FindTemplateDirPrefersTheExplicitDirectory) {
  std::string error;
  EXPECT_EQ(findTemplateDir(templateDir(), "ringkernel-gen", error), templateDir()) << error;
  EXPECT_FALSE(findTemplateDir("", "ringkernel-gen", error).empty()) << error;
}

TEST(BackendManifest, RoundTripsEveryModelField) {
  HeaderModel model = sampleHeader();
  model.messages[1].typeId = *(model.messages[1].options.id = 0x4001);
  model.messages[1].options.kernel = "Shape";
  model.messages[1].options.causal = true;
  model.messages[1].options.priority = 200;
  model.messages[1].options.format = WireFormat::Map;
  model.messages[0].fromThisHeader = false;
  model.messages[0].isClass = true;
  const std::string text = manifestJson(model);
  HeaderModel back;
  std::string error;
  ASSERT_TRUE(readManifest(text, "app.rk.json", back, error)) << error;
  EXPECT_EQ(manifestJson(back), text);
  ASSERT_EQ(back.messages.size(), 2u);
  EXPECT_EQ(back.messages[1].options.id, std::optional<std::uint32_t>(0x4001));
  EXPECT_EQ(back.messages[1].fields[2].extents, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(back.enums[0].underlying, FieldKind::UInt8);
  EXPECT_FALSE(back.messages[0].fromThisHeader);
}

TEST(BackendManifest, ErrorsNameTheManifestAndTheValue) {
  std::string text = manifestJson(sampleHeader());
  const auto at = text.find("\"offset\":4");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 10, "\"offset\":-4");
  HeaderModel back;
  std::string error;
  EXPECT_FALSE(readManifest(text, "app.rk.json", back, error));
  EXPECT_EQ(error, "app.rk.json: messages[0].fields[1].offset: expected an unsigned integer up to 4294967295");
  EXPECT_FALSE(readManifest("{", "x.rk.json", back, error));
  EXPECT_EQ(error.rfind("x.rk.json:1:2: not valid JSON: ", 0), 0u) << error;
  EXPECT_FALSE(readManifest(R"({"schema": "ringkernel-manifest", "schema_version": 99})", "y.rk.json", back, error));
  EXPECT_NE(error.find("y.rk.json: schema_version: manifest has version 99"), std::string::npos) << error;
  // A manifest of the previous schema (before field kind "char8" and enumerators' wire_value).
  EXPECT_FALSE(readManifest(R"({"schema": "ringkernel-manifest", "schema_version": 1})", "old.rk.json", back, error));
  EXPECT_NE(error.find("old.rk.json: schema_version: manifest has version 1, this ringkernel-gen reads version 2"),
            std::string::npos)
      << error;
}

TEST(BackendOutput, UnchangedFilesKeepTheirMtime) {
  const fs::path dir = freshDir("mtime");
  const auto files = render(sampleHeader(), dir.string());
  std::string error;
  ASSERT_TRUE(writeOutputs(files, error)) << error;
  const auto before = fs::last_write_time(files[0].path);
  const auto cudaBefore = fs::last_write_time(files[1].path);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(writeOutputs(files, error)) << error;
  EXPECT_EQ(fs::last_write_time(files[0].path), before);
  auto changed = files;
  changed[0].content += "// changed\n";
  ASSERT_TRUE(writeOutputs(changed, error)) << error;
  EXPECT_NE(fs::last_write_time(files[0].path), before);
  EXPECT_EQ(fs::last_write_time(files[1].path), cudaBefore);
  std::string content;
  ASSERT_TRUE(readWholeFile(files[0].path, content));
  EXPECT_EQ(content, changed[0].text());
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << "left over: " << entry.path();
  }
  fs::remove_all(dir);
}

TEST(BackendOutput, FilesWithInsertsAreComparedAndWrittenWhole) {
  const fs::path dir = freshDir("inserts");
  const auto shared = std::make_shared<const std::string>("shared\n");
  std::vector<OutputFile> files{{(dir / "a.rk.h").string(), "ab", {{1, *shared, shared}, {2, *shared, shared}}}};
  EXPECT_EQ(files[0].text(), "ashared\nbshared\n");
  std::string error;
  ASSERT_TRUE(writeOutputs(files, error)) << error;
  std::string content;
  ASSERT_TRUE(readWholeFile(files[0].path, content));
  EXPECT_EQ(content, "ashared\nbshared\n");
  const auto before = fs::last_write_time(files[0].path);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(writeOutputs(files, error)) << error;  // same text, in pieces
  ASSERT_TRUE(writeOutputs({{files[0].path, "ashared\nbshared\n"}}, error)) << error;  // same, whole
  EXPECT_EQ(fs::last_write_time(files[0].path), before);
  const auto changed = std::make_shared<const std::string>("shareD\n");  // same size
  files[0].inserts[1] = {2, *changed, changed};
  ASSERT_TRUE(writeOutputs(files, error)) << error;
  ASSERT_TRUE(readWholeFile(files[0].path, content));
  EXPECT_EQ(content, "ashared\nbshareD\n");
  fs::remove_all(dir);
}

TEST(BackendOutput, WritesNothingWhenOneFileCannotBeWritten) {
  const fs::path dir = freshDir("atomic");
  fs::create_directories(dir / "blocked.rk.h");  // a directory where a file must go
  const std::vector<OutputFile> files{{(dir / "a.rk.h").string(), "a\n"},
                                      {(dir / "sub" / "b.rk.h").string(), "b\n"},
                                      {(dir / "blocked.rk.h").string(), "c\n"}};
  std::string error;
  EXPECT_FALSE(writeOutputs(files, error));
  EXPECT_NE(error.find("blocked.rk.h"), std::string::npos) << error;
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir)) left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"blocked.rk.h"});
  fs::remove_all(dir);
}

TEST(BackendSpelling, RegistryNamesBecomeValidIdentifiers) {
  EXPECT_EQ(cppIdentifier("my-app"), "my_app");
  EXPECT_EQ(cppIdentifier("2fast"), "_2fast");
  EXPECT_EQ(cppIdentifier("a--b"), "a_b");
  EXPECT_EQ(cppIdentifier("_Upper"), "r_Upper");
  EXPECT_EQ(cppIdentifier("default"), "default_");
  EXPECT_EQ(cppStringLiteral("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(hexLiteral(0x4001u), "0x00004001u");
}

// Type guards stand for one qualified name each (two names never share one, whatever their ids).
TEST(BackendSpelling, GuardFragmentsAreOnePerQualifiedName) {
  EXPECT_EQ(qualifiedNameFragment("app::my_Ping"), "app_1my_0Ping");
  EXPECT_NE(qualifiedNameFragment("a_b::c"), qualifiedNameFragment("a::b_c"));
  EXPECT_NE(qualifiedNameFragment("a_1b"), qualifiedNameFragment("a::b"));
  EXPECT_EQ(qualifiedNameFragment("n::\xc3\xa9"), "n_1_xc3_xa9");
  MessageModel ping, pong;
  ping.qualifiedName = "app::Ping";
  pong.qualifiedName = "app::Pong";
  ping.typeId = pong.typeId = 0x4001u;
  EXPECT_NE(typeGuard(ping), typeGuard(pong));
  EXPECT_NE(traitsGuard(ping), traitsGuard(pong));
  EnumModel color;
  color.qualifiedName = "app::Color";
  MessageModel same;
  same.qualifiedName = "app::Color2";
  same.typeId = fnv1a32("app::Color");
  EXPECT_NE(typeGuard(color), typeGuard(same));
}

}  // namespace
}  // namespace ringkernel::gen
