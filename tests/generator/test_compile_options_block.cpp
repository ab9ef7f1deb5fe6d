// Copyright RingKernel authors.
// The compile options of a CMake target in a --compile-args-file (compile_options_block.h): CMake's
// de-duplication and SHELL: splitting, then the options that matter to the parse, paired as clang's
// driver pairs them, and the block of lines replaced with them.
#include "compile_options_block.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ringkernel::gen {
namespace {

using Args = std::vector<std::string>;

Args select(const Args& args) {
  Args selected;
  std::string valueless;
  EXPECT_TRUE(selectParseOptions(args, selected, valueless)) << valueless;
  return selected;
}

// separate_arguments(UNIX_COMMAND) as KWSys parses it: blanks separate, quotes group (and make an
// argument even when empty), a backslash escapes anything, also inside single quotes.
TEST(CMakeShellOption, SplitsAsCMake) {
  EXPECT_EQ(splitCMakeShellOption("-isystem /opt/ext"), (Args{"-isystem", "/opt/ext"}));
  EXPECT_EQ(splitCMakeShellOption("  -D\tNAME=1  "), (Args{"-D", "NAME=1"}));
  EXPECT_EQ(splitCMakeShellOption("-include 'a b.h'"), (Args{"-include", "a b.h"}));
  EXPECT_EQ(splitCMakeShellOption("-DX=\"a b\"c"), (Args{"-DX=a bc"}));
  EXPECT_EQ(splitCMakeShellOption(R"(-DQ=\"q\" a\ b)"), (Args{"-DQ=\"q\"", "a b"}));
  EXPECT_EQ(splitCMakeShellOption(R"('it\'s' "x'y" 'x"y')"), (Args{"it's", "x'y", "x\"y"}));
  EXPECT_EQ(splitCMakeShellOption(R"(a\nb)"), (Args{"anb"}));  // no \n escape
  EXPECT_EQ(splitCMakeShellOption("-D '' \"\""), (Args{"-D", "", ""}));
  EXPECT_EQ(splitCMakeShellOption("'open quote"), (Args{"open quote"}));
  EXPECT_EQ(splitCMakeShellOption(""), Args{});
  EXPECT_EQ(splitCMakeShellOption("   "), Args{});
}

// Each element once (the first), then SHELL: split: `-isystem;/a;-isystem;/b` reaches the compiler
// as `-isystem /a /b`, two "SHELL:-isystem ..." as two pairs, a repeated SHELL: element once.
TEST(CompileOptions, DeduplicatedThenShellSplitAsCMake) {
  EXPECT_EQ(compilerArgumentsOfCompileOptions({"-isystem", "/a", "-isystem", "/b"}), (Args{"-isystem", "/a", "/b"}));
  EXPECT_EQ(compilerArgumentsOfCompileOptions({"SHELL:-isystem /a", "SHELL:-isystem /b", "SHELL:-isystem /a"}),
            (Args{"-isystem", "/a", "-isystem", "/b"}));
  EXPECT_EQ(compilerArgumentsOfCompileOptions({"-DX", "SHELL:-DX", "-DX"}), (Args{"-DX", "-DX"}));
  EXPECT_EQ(compilerArgumentsOfCompileOptions({"SHELL:", "-Wall"}), (Args{"-Wall"}));
}

TEST(ParseOptions, BothFormsInOrder) {
  EXPECT_EQ(select({"-DA=1", "-D", "B", "-UC", "-U", "D", "-Iinc", "-I", "inc2", "-isystem/s", "-isystem", "/s2",
                    "-iquote", "q", "-iquoteq2", "-idirafter", "/late", "-idirafter/late2", "-include", "f.h",
                    "-includeg.h", "-imacros", "m.h", "-imacrosn.h"}),
            (Args{"-DA=1", "-D", "B", "-UC", "-U", "D", "-Iinc", "-I", "inc2", "-isystem/s", "-isystem", "/s2",
                  "-iquote", "q", "-iquoteq2", "-idirafter", "/late", "-idirafter/late2", "-include", "f.h",
                  "-includeg.h", "-imacros", "m.h", "-imacrosn.h"}));
  // The aliases of the driver: what it would take for -D, -I, ...
  EXPECT_EQ(select({"--define-macro", "X", "--include-directory=/d", "--include", "h.h"}),
            (Args{"--define-macro", "X", "--include-directory=/d", "--include", "h.h"}));
}

TEST(ParseOptions, OthersStayOut) {
  EXPECT_EQ(select({"-Wall", "-O2", "-fno-char8_t", "-std=c++23", "-march=native", "-Werror", "-DKEPT", "input.cpp",
                    "-Wno-attributes=ringkernel::", "-unknown-option"}),
            (Args{"-DKEPT"}));
  // Lookalikes: -include-pch, -isysroot, -isystem-after and -iprefix are other options.
  EXPECT_EQ(select({"-include-pch", "a.pch", "-isysroot", "/sdk", "-isystem-after", "/x", "-iprefix", "/p"}), Args{});
}

// The value is the next argument whatever it looks like, and another option's value is no option:
// `-isystem -Ifoo` is the system directory "-Ifoo"; `-Xclang -DX`, `-o -DX`, `-MF -DX` define nothing.
TEST(ParseOptions, PairedAsTheCompilerPairs) {
  EXPECT_EQ(select({"-isystem", "-Ifoo", "-D", "-UX"}), (Args{"-isystem", "-Ifoo", "-D", "-UX"}));
  EXPECT_EQ(select({"-Xclang", "-DX", "-o", "-DY", "-MF", "-DZ", "-x", "c++", "-DW"}), (Args{"-DW"}));
  EXPECT_EQ(select({"-Xclang", "-isystem", "-Xclang", "/d"}), Args{});
}

// The last option without its value: an error naming it; for an option that does not matter to the
// parse (its value missing too), what could be parsed is kept.
TEST(ParseOptions, LastOneWithoutValue) {
  for (const char* option : {"-isystem", "-D", "-U", "-I", "-iquote", "-idirafter", "-include", "-imacros"}) {
    Args selected;
    std::string valueless;
    EXPECT_FALSE(selectParseOptions({"-DA", option}, selected, valueless)) << option;
    EXPECT_EQ(valueless, option);
  }
  Args selected;
  std::string valueless;
  EXPECT_TRUE(selectParseOptions({"-DA", "-Xclang"}, selected, valueless));
  EXPECT_EQ(selected, (Args{"-DA"}));
  EXPECT_TRUE(valueless.empty());
}

std::string blockBegin(const std::string& target) { return std::string(kCompileOptionsBegin) + target; }
const std::string kBlockEnd(kCompileOptionsEnd);

TEST(CompileOptionsBlock, ReplacedWithTheParseOptions) {
  Args lines{"-std=gnu++20", "-I/inc", blockBegin("app"), "-isystem", "/a", "-Wall", "SHELL:-D NAME=1",
             "SHELL:-include 'my file.h'", "-isystem", "/b", "-DLAST", kBlockEnd};
  std::string error;
  ASSERT_TRUE(expandCompileOptionsBlock(lines, error)) << error;
  // -isystem /b: de-duplicated into `/b`, an input (as for the compiler).
  EXPECT_EQ(lines, (Args{"-std=gnu++20", "-I/inc", "-isystem", "/a", "-D", "NAME=1", "-include", "my file.h",
                         "-DLAST"}));
}

TEST(CompileOptionsBlock, NoneOrEmpty) {
  Args plain{"-DX", "-isystem", "/a"};
  std::string error;
  ASSERT_TRUE(expandCompileOptionsBlock(plain, error)) << error;
  EXPECT_EQ(plain, (Args{"-DX", "-isystem", "/a"}));
  Args empty{"-DX", blockBegin("app"), kBlockEnd};
  ASSERT_TRUE(expandCompileOptionsBlock(empty, error)) << error;
  EXPECT_EQ(empty, (Args{"-DX"}));
  // An element spelled like the closing line belongs to the block: the last closing line ends it.
  Args odd{blockBegin("app"), "-D", kBlockEnd, "-DY", kBlockEnd};
  ASSERT_TRUE(expandCompileOptionsBlock(odd, error)) << error;
  EXPECT_EQ(odd, (Args{"-D", kBlockEnd, "-DY"}));
}

TEST(CompileOptionsBlock, Errors) {
  Args valueless{"-DX", blockBegin("my_lib"), "-DA", "SHELL:-isystem", kBlockEnd};
  std::string error;
  EXPECT_FALSE(expandCompileOptionsBlock(valueless, error));
  EXPECT_NE(error.find("the compile option '-isystem' of target 'my_lib' has no value"), std::string::npos) << error;
  EXPECT_NE(error.find("\"SHELL:-isystem <value>\""), std::string::npos) << error;
  Args unclosed{blockBegin("app"), "-DA"};
  error.clear();
  EXPECT_FALSE(expandCompileOptionsBlock(unclosed, error));
  EXPECT_NE(error.find("target 'app' have no closing line"), std::string::npos) << error;
  Args missingFile{blockBegin("app"), "@/nonexistent/ringkernel.rsp", kBlockEnd};
  error.clear();
  EXPECT_FALSE(expandCompileOptionsBlock(missingFile, error));
  EXPECT_NE(error.find("the compile options of target 'app': cannot read the response file"), std::string::npos)
      << error;
}

// A response file among the options is read before the pairing, as the compiler reads it: its last
// -isystem takes the next option's value.
TEST(CompileOptionsBlock, ResponseFilesExpandedFirst) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("ringkernel-options-" + std::to_string(getpid()) + ".rsp");
  std::ofstream(file) << "-DFROM_FILE -O2 -isystem\n";
  Args lines{blockBegin("app"), "@" + file.string(), "/sys", "-Wall", kBlockEnd};
  std::string error;
  const bool ok = expandCompileOptionsBlock(lines, error);
  std::filesystem::remove(file);
  ASSERT_TRUE(ok) << error;
  EXPECT_EQ(lines, (Args{"-DFROM_FILE", "-isystem", "/sys"}));
}

}  // namespace
}  // namespace ringkernel::gen
