// Copyright RingKernel authors.
// Runs the built ringkernel-gen (RINGKERNEL_GEN_PATH) through the shell for the CLI tests, copies
// the templates (to break one), holds the input header the compiler-argument tests share (kWide),
// and a fixture that gives every test an empty temporary directory.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ringkernel::gen::testing {

namespace fs = std::filesystem;

struct CliResult {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// A header whose message field v is a double only when WIDE is defined, and that field as the
// manifest (<stem>.rk.json) shows it as a double: the layout shows whether compiler arguments
// (-DWIDE given after `--`, in a response file, ...) were used.
inline constexpr const char* kWide = "#ifdef WIDE\nusing Sample = double;\n#else\nusing Sample = float;\n#endif\n"
                                     "struct [[ringkernel::message]] Reading { Sample v; int n; };\n";
inline constexpr const char* kWideField = "\"name\":\"v\",\"kind\":\"float64\"";

inline std::string quote(const std::string& text) { return "'" + text + "'"; }

/// Runs ringkernel-gen with `arguments` (shell syntax); `environment` is prepended as VAR=value.
inline CliResult runGenerator(const std::string& arguments, const std::string& environment = "") {
  const std::string command = environment + " " + quote(RINGKERNEL_GEN_PATH) + " " + arguments + " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/// The same, run from the working directory `dir` (to see what a run writes there).
inline CliResult runGeneratorIn(const std::string& dir, const std::string& arguments) {
  return runGenerator(arguments, "cd " + quote(dir) + " &&");
}

inline std::string readFile(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A copy of the source tree's templates in `dir` (to break one of them).
inline void copyTemplates(const fs::path& dir) {
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(RINGKERNEL_SOURCE_TEMPLATE_DIR)) {
    fs::copy_file(entry.path(), dir / entry.path().filename());
  }
}

/// Each test gets an empty directory of its own (removed afterwards).
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("ringkernel-gen-cli-") + info->name() + "-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& content) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
    return path.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

}  // namespace ringkernel::gen::testing
