// Copyright RingKernel authors.
// ringkernel-gen usage and setup errors not covered elsewhere: two inputs with one stem, templates
// that are missing or do not load, an output directory that is empty or cannot be created, and the
// registry step's usage errors, stem clashes and manifests without messages, and the check step
// (`check`) on what two separate runs generated. Each exits with the documented status and writes
// nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_harness.h"

namespace {

using namespace ringkernel::gen::testing;

constexpr const char* kHeader =
    "#include <cstdint>\nstruct [[ringkernel::message]] Ping { std::uint64_t id; };\n";

TEST_F(CliTest, TwoInputsWithOneStemAreBadUsage) {
  const std::string first = write("a/ping.h", kHeader);
  const std::string second = write("b/ping.h", kHeader);
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(first) + " " + quote(second));
  EXPECT_EQ(result.status, 2) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: error: two inputs have the stem 'ping' and would write the same files"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

// The same header twice used to be reported as "two inputs have the stem 'ping'".
TEST_F(CliTest, SameInputTwiceIsBadUsageThatSaysSo) {
  const std::string header = write("a/ping.h", kHeader);
  for (const std::string& again : {header, path("a/../a/ping.h")}) {
    const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header) + " " + quote(again));
    EXPECT_EQ(result.status, 2) << result.output;
    EXPECT_NE(result.output.find("ringkernel-gen: error: " + again + " is given twice"), std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("stem"), std::string::npos) << result.output;
  }
  EXPECT_FALSE(fs::exists(path("out")));
}

// An option given twice was silently last-wins (a build script appending its own --output-dir to a
// user's lost one of them).
TEST_F(CliTest, RepeatedOptionsAreBadUsage) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  const std::string manifest = quote(path("out/ping.rk.json"));
  const struct {
    std::string arguments;
    std::string says;
  } cases[] = {
      {"--output-dir " + quote(path("o1")) + " --output-dir=" + quote(path("o2")) + " " + quote(header),
       "ringkernel-gen: error: --output-dir is given 2 times; give it once"},
      {"--output-dir " + quote(path("o1")) + " --stamp a --stamp b " + quote(header),
       "ringkernel-gen: error: --stamp is given 2 times"},
      {"registry --name a --name b --output-dir " + quote(path("o1")) + " " + manifest,
       "ringkernel-gen registry: error: --name is given 2 times; give it once"},
      {"registry --name a --output-dir " + quote(path("o1")) + " --output-dir " + quote(path("o2")) + " " + manifest,
       "ringkernel-gen registry: error: --output-dir is given 2 times"},
  };
  for (const auto& [arguments, says] : cases) {
    const CliResult result = runGenerator(arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(says), std::string::npos) << arguments << "\n" << result.output;
    EXPECT_FALSE(fs::exists(path("o1")) || fs::exists(path("o2"))) << arguments;
  }
}

// "ringkernel-gen: ringkernel-gen: Unknown command line argument", and "ringkernel-gen: cannot read
// --compile-args-file" without "error:".
TEST_F(CliTest, UsageErrorsHaveOneProgramPrefix) {
  const std::string header = write("ping.h", kHeader);
  const CliResult unknown = runGenerator("--output-dir " + quote(path("out")) + " --bogus " + quote(header));
  EXPECT_EQ(unknown.status, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("Unknown command line argument '--bogus'"), std::string::npos) << unknown.output;
  EXPECT_EQ(unknown.output.find("ringkernel-gen: ringkernel-gen:"), std::string::npos) << unknown.output;
  const CliResult argsFile = runGenerator("--output-dir " + quote(path("out")) + " --compile-args-file " +
                                          quote(path("none.args")) + " " + quote(header));
  EXPECT_EQ(argsFile.status, 2) << argsFile.output;
  EXPECT_NE(argsFile.output.find("ringkernel-gen: error: cannot read --compile-args-file"), std::string::npos)
      << argsFile.output;
}

TEST_F(CliTest, TemplateDirWithoutTheTemplatesIsBadUsage) {
  const std::string header = write("ping.h", kHeader);
  fs::create_directories(path("empty"));
  const CliResult generate = runGenerator("--output-dir " + quote(path("out")) + " --template-dir " +
                                          quote(path("empty")) + " " + quote(header));
  EXPECT_EQ(generate.status, 2) << generate.output;
  EXPECT_NE(generate.output.find("--template-dir '" + path("empty") + "' does not hold the ringkernel templates"),
            std::string::npos)
      << generate.output;
  EXPECT_FALSE(fs::exists(path("out")));

  const std::string manifest = write("ping.rk.json", "{}");
  const CliResult registry = runGenerator("registry --name app --output-dir " + quote(path("out")) +
                                          " --template-dir " + quote(path("empty")) + " " + quote(manifest));
  EXPECT_EQ(registry.status, 2) << registry.output;
  EXPECT_NE(registry.output.find("does not hold the ringkernel templates"), std::string::npos) << registry.output;
  EXPECT_FALSE(fs::exists(path("out")));
}

// $RINGKERNEL_TEMPLATE_DIR is used when it holds the templates, --template-dir wins over it, and one
// without the templates is bad usage.
TEST_F(CliTest, TemplateDirFromTheEnvironment) {
  const std::string header = write("ping.h", kHeader);
  copyTemplates(path("templates"));
  write("templates/rk_h.mustache", readFile(path("templates/rk_h.mustache")) + "// from the environment\n");
  const std::string args = "--output-dir " + quote(path("out")) + " " + quote(header);
  const std::string environment = "RINGKERNEL_TEMPLATE_DIR=" + quote(path("templates"));
  ASSERT_EQ(runGenerator(args, environment).status, 0);
  EXPECT_NE(readFile(path("out/ping.rk.h")).find("// from the environment\n"), std::string::npos);
  ASSERT_EQ(runGenerator("--template-dir " + quote(RINGKERNEL_SOURCE_TEMPLATE_DIR) + " " + args, environment).status, 0);
  EXPECT_EQ(readFile(path("out/ping.rk.h")).find("// from the environment"), std::string::npos);
  // Set on purpose to a directory without the templates: bad usage, as --template-dir is (it used to
  // fall back to the default places without a word).
  fs::create_directories(path("empty"));
  fs::remove_all(path("out"));
  for (const std::string& mode : {args, "registry --name app --output-dir " + quote(path("out")) + " " + quote(header)}) {
    const CliResult refused = runGenerator(mode, "RINGKERNEL_TEMPLATE_DIR=" + quote(path("empty")));
    EXPECT_EQ(refused.status, 2) << refused.output;
    EXPECT_NE(refused.output.find("error: RINGKERNEL_TEMPLATE_DIR '" + path("empty") +
                                  "' does not hold the ringkernel templates"),
              std::string::npos)
        << refused.output;
    EXPECT_FALSE(fs::exists(path("out")));
  }
}

// The templates are all there but one does not load: reported after the parse, exit 1, no output.
TEST_F(CliTest, MalformedTemplateIsAnInputErrorAndWritesNothing) {
  const std::string header = write("ping.h", kHeader);
  copyTemplates(path("templates"));
  write("templates/rk_cuh.mustache", "{{#messages}}unclosed\n");
  const CliResult result = runGenerator("--output-dir " + quote(path("out")) + " --stamp " + quote(path("stamp")) +
                                        " --template-dir " + quote(path("templates")) + " " + quote(header));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: error: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("rk_cuh"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(path("out")));
  EXPECT_FALSE(fs::exists(path("stamp")));
}

TEST_F(CliTest, MalformedRegistryTemplateIsAnInputErrorAndWritesNothing) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  copyTemplates(path("templates"));
  write("templates/registry.mustache", "{{#messages}}unclosed\n");
  const CliResult result = runGenerator("registry --name app --output-dir " + quote(path("out")) + " --template-dir " +
                                        quote(path("templates")) + " " + quote(path("out/ping.rk.json")));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen registry: error: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("registry"), std::string::npos) << result.output;
  EXPECT_FALSE(fs::exists(path("out/app.registry.rk.h")));
}

// An --output-dir below a regular file cannot be created: exit 1 after the parse, nothing written.
TEST_F(CliTest, OutputDirThatCannotBeCreatedIsAnInputError) {
  const std::string header = write("ping.h", kHeader);
  const std::string file = write("file", "x\n");
  const CliResult result = runGenerator("--output-dir " + quote(path("file/out")) + " --stamp " + quote(path("stamp")) +
                                        " " + quote(header));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen: error: cannot create " + path("file/out")), std::string::npos)
      << result.output;
  EXPECT_EQ(readFile(file), "x\n");
  EXPECT_FALSE(fs::exists(path("stamp")));
}

TEST_F(CliTest, RegistryOutputDirThatCannotBeCreatedIsAnInputError) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  write("file", "x\n");
  const CliResult result = runGenerator("registry --name app --output-dir " + quote(path("file/reg")) + " " +
                                        quote(path("out/ping.rk.json")));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen registry: error: cannot create directory"), std::string::npos)
      << result.output;
  EXPECT_EQ(readFile(path("file")), "x\n");
}

// An empty --output-dir (`--output-dir=`, or an empty "${VAR}" in a build script) is bad usage in
// both modes, as it is for the CMake function: it used to write into the current directory. So is
// any other option given an empty value: it used to act as if not given.
TEST_F(CliTest, EmptyOptionValuesAreBadUsage) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  const std::string manifest = quote(path("out/ping.rk.json"));
  fs::create_directories(path("cwd"));
  const struct {
    std::string arguments;
    std::string says;
  } cases[] = {
      {"--output-dir= " + quote(header), "ringkernel-gen: error: --output-dir is empty"},
      {"--output-dir '' --stamp " + quote(path("stamp")) + " " + quote(header),
       "ringkernel-gen: error: --output-dir is empty"},
      {"registry --name app --output-dir= " + manifest, "ringkernel-gen registry: error: --output-dir is empty"},
      {"registry --name app --output-dir '' " + manifest, "ringkernel-gen registry: error: --output-dir is empty"},
      // Every other option given an empty value: it would act as if not given.
      {"--output-dir . --depfile= " + quote(header), "ringkernel-gen: error: --depfile is empty"},
      {"--output-dir . --stamp '' " + quote(header), "ringkernel-gen: error: --stamp is empty"},
      {"--output-dir . --target= " + quote(header), "ringkernel-gen: error: --target is empty"},
      {"--output-dir . --template-dir= " + quote(header), "ringkernel-gen: error: --template-dir is empty"},
      {"--output-dir . --compile-args-file= " + quote(header), "ringkernel-gen: error: --compile-args-file is empty"},
      {"registry --name app --output-dir . --template-dir= " + manifest,
       "ringkernel-gen registry: error: --template-dir is empty"},
  };
  for (const auto& [arguments, says] : cases) {
    const CliResult result = runGeneratorIn(path("cwd"), arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(says), std::string::npos) << arguments << "\n" << result.output;
    EXPECT_TRUE(fs::is_empty(path("cwd"))) << arguments << " wrote into the current directory";
    EXPECT_FALSE(fs::exists(path("stamp"))) << arguments;
    fs::remove_all(path("cwd"));
    fs::create_directories(path("cwd"));
  }
}

TEST_F(CliTest, RegistryUsageErrors) {
  const std::string header = write("ping.h", kHeader);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0);
  const std::string manifest = quote(path("out/ping.rk.json"));
  fs::create_directories(path("dir.rk.json"));
  const struct {
    std::string arguments;
    std::string says;
  } cases[] = {
      {"registry --output-dir " + quote(path("reg")) + " " + manifest, "--name"},
      {"registry --name app " + manifest, "--output-dir"},
      {"registry --name app --output-dir " + quote(path("reg")), "at least 1 positional"},
      {"registry --name app --no-such-option --output-dir " + quote(path("reg")) + " " + manifest, "no-such-option"},
      {"registry --name app --output-dir " + quote(path("reg")) + " " + quote(path("missing.rk.json")),
       "no such file: " + path("missing.rk.json")},
      {"registry --name app --output-dir " + quote(path("reg")) + " " + quote(path("dir.rk.json")),
       "dir.rk.json is a directory"},
      {"registry --name a/b --output-dir " + quote(path("reg")) + " " + manifest,
       "--name 'a/b' must be a non-empty file name without path separators"},
      {"registry --name '' --output-dir " + quote(path("reg")) + " " + manifest, "--name ''"},
  };
  for (const auto& [arguments, says] : cases) {
    const CliResult result = runGenerator(arguments);
    EXPECT_EQ(result.status, 2) << arguments << "\n" << result.output;
    EXPECT_NE(result.output.find(says), std::string::npos) << arguments << "\n" << result.output;
    EXPECT_FALSE(fs::exists(path("reg"))) << arguments;
  }
}

// Two different headers named ping.h (generated into two directories) would both be included as
// "ping.rk.h" by the registry.
TEST_F(CliTest, RegistryOfTwoHeadersWithOneStemIsAnError) {
  const std::string first = write("a/ping.h", kHeader);
  const std::string second = write("b/ping.h", "struct [[ringkernel::message]] Pong { int id; };\n");
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out-a")) + " " + quote(first)).status, 0);
  ASSERT_EQ(runGenerator("--output-dir " + quote(path("out-b")) + " " + quote(second)).status, 0);
  const CliResult result = runGenerator("registry --name app --output-dir " + quote(path("reg")) + " " +
                                        quote(path("out-a/ping.rk.json")) + " " + quote(path("out-b/ping.rk.json")));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find(path("out-b/ping.rk.json") + ": error: headers \"" + first + "\" and \"" + second +
                               "\" both generate \"ping.rk.h\""),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("reg")));
}

TEST_F(CliTest, RegistryOfManifestsWithoutMessagesIsAnError) {
  const std::string header = write("plain.h", "#include <cstdint>\nstruct NotAMessage { std::uint64_t id; };\n");
  const CliResult generated = runGenerator("--output-dir " + quote(path("out")) + " " + quote(header));
  ASSERT_EQ(generated.status, 0) << generated.output;
  const CliResult result = runGenerator("registry --name app --output-dir " + quote(path("reg")) + " " +
                                        quote(path("out/plain.rk.json")));
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("ringkernel-gen registry: error: the manifests contain no [[ringkernel::message]] types"),
            std::string::npos)
      << result.output;
  EXPECT_FALSE(fs::exists(path("reg")));
}

// Two headers generated by two runs (as two build steps of one target): each run alone is fine,
// `check` over both manifests finds the shared id; a manifest without messages passes.
TEST_F(CliTest, CheckFindsACollisionBetweenTwoRunsAndWritesNothing) {
  const std::string first = write("a.h", "#include <cstdint>\nstruct [[ringkernel::message(id = 9)]] A { std::uint8_t v; };\n");
  const std::string second = write("b.h", "#include <cstdint>\nstruct [[ringkernel::message(id = 9)]] B { std::uint8_t v; };\n");
  const std::string plain = write("plain.h", "struct NotAMessage { int v; };\n");
  for (const std::string& header : {first, second, plain}) {
    ASSERT_EQ(runGenerator("--output-dir " + quote(path("out")) + " " + quote(header)).status, 0) << header;
  }
  const auto count = [&] { return std::distance(fs::directory_iterator(path("out")), fs::directory_iterator()); };
  const auto before = count();
  const CliResult clash = runGenerator("check " + quote(path("out/a.rk.json")) + " " + quote(path("out/b.rk.json")));
  EXPECT_EQ(clash.status, 1) << clash.output;
  EXPECT_NE(clash.output.find(second + ":2:40: error: type id 0x00000009 is used twice: B ("), std::string::npos)
      << clash.output;
  EXPECT_NE(clash.output.find(first + ":2:40: note: A declared here"), std::string::npos) << clash.output;
  const CliResult fine = runGenerator("check " + quote(path("out/a.rk.json")) + " " + quote(path("out/plain.rk.json")));
  EXPECT_EQ(fine.status, 0) << fine.output;
  EXPECT_EQ(fine.output, "");
  EXPECT_EQ(count(), before);
  for (const std::string& usage : {std::string("check"), "check " + quote(path("out")), "check --bogus " + quote(path("out/a.rk.json"))}) {
    EXPECT_EQ(runGenerator(usage).status, 2) << usage;
  }
}

}  // namespace
