// Copyright RingKernel authors.
#include "cxx_compile_commands.h"

#include <algorithm>
#include <optional>

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace ringkernel::gen {

namespace {

bool isCxxLanguage(llvm::StringRef language) { return language == "c++" || language == "c++-header"; }

/// Sources of other languages (a header, .cuh too, is none: its language is the command's).
bool isNonCxxSource(llvm::StringRef path) {
  static const llvm::StringSet<> extensions = {".c", ".cu", ".hip", ".m", ".mm", ".f", ".f90", ".s", ".S"};
  return extensions.contains(llvm::sys::path::extension(path));
}

bool isCxxExtension(llvm::StringRef path) {
  static const llvm::StringSet<> extensions = {".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP", ".hpp", ".hh", ".hxx"};
  return extensions.contains(llvm::sys::path::extension(path));
}

/// `path` made absolute against `directory`, without `.` and `..`.
llvm::SmallString<256> normalized(llvm::StringRef path, llvm::StringRef directory) {
  llvm::SmallString<256> out(path);
  if (!llvm::sys::path::is_absolute(out)) llvm::sys::fs::make_absolute(directory, out);
  llvm::sys::path::remove_dots(out, /*remove_dot_dot=*/true);
  return out;
}

/// `command` for `file`: its arguments with the source it compiled replaced by `file` (compared
/// as normalised absolute paths: `../src/main.cpp` against a "file" given absolute); where the
/// source is not among them, `file` is appended, so clang never parses the source instead.
clang::tooling::CompileCommand transferred(clang::tooling::CompileCommand command, llvm::StringRef file) {
  const llvm::SmallString<256> source = normalized(command.Filename, command.Directory);
  bool replaced = false;
  for (std::size_t i = 1; i < command.CommandLine.size(); ++i) {
    std::string& arg = command.CommandLine[i];
    if (arg == command.Filename || normalized(arg, command.Directory) == source) {
      arg = file.str();
      replaced = true;
    }
  }
  if (!replaced) command.CommandLine.push_back(file.str());
  command.Heuristic = "the C++ command of " + command.Filename + " (the header's own was not C++)";
  command.Filename = file.str();
  command.Output.clear();
  return command;
}

}  // namespace

bool isCxxCompileCommand(const clang::tooling::CompileCommand& command) {
  if (command.CommandLine.empty()) return false;
  if (llvm::sys::path::filename(command.CommandLine.front()).starts_with("nvcc")) return false;
  std::optional<llvm::StringRef> language, standard;
  for (std::size_t i = 1; i < command.CommandLine.size(); ++i) {
    const llvm::StringRef arg = command.CommandLine[i];
    if (arg == "-x" && i + 1 < command.CommandLine.size()) {
      language = llvm::StringRef(command.CommandLine[++i]);
    } else if (arg.starts_with("-x") && arg.size() > 2) {
      language = arg.drop_front(2);
    } else if (arg.starts_with("-std=") || arg.starts_with("--std=")) {
      standard = arg.drop_front(arg.find('=') + 1);
    } else if (arg == "--") {
      break;
    }
  }
  if (language) return isCxxLanguage(*language);
  // No language given: the generator's own -xc++ makes it C++, unless the command's standard is a
  // C one (a C source's command, -std=c11).
  if (standard) return standard->contains("++");
  return !command.Filename.empty() && (isCxxExtension(command.Filename) || !isNonCxxSource(command.Filename));
}

std::string CxxCompileCommands::nearestCxxSource(llvm::StringRef file) const {
  std::string best;
  std::size_t bestShared = 0;
  for (const clang::tooling::CompileCommand& command : base_.getAllCompileCommands()) {
    if (!isCxxCompileCommand(command)) continue;
    llvm::SmallString<256> source(command.Filename);
    if (!llvm::sys::path::is_absolute(source)) llvm::sys::fs::make_absolute(command.Directory, source);
    const std::size_t shared = static_cast<std::size_t>(
        std::mismatch(file.begin(), file.end(), source.begin(), source.end()).first - file.begin());
    if (best.empty() || shared > bestShared) {
      best = source.str().str();
      bestShared = shared;
    }
  }
  return best;
}

std::vector<clang::tooling::CompileCommand> CxxCompileCommands::getCompileCommands(llvm::StringRef file) const {
  std::vector<clang::tooling::CompileCommand> commands = base_.getCompileCommands(file);
  if (!commands.empty() && std::all_of(commands.begin(), commands.end(), isCxxCompileCommand)) return commands;
  const std::string source = nearestCxxSource(file);
  if (source.empty()) return commands;
  std::vector<clang::tooling::CompileCommand> cxx;
  for (clang::tooling::CompileCommand& command : base_.getCompileCommands(source)) {
    cxx.push_back(transferred(std::move(command), file));
  }
  return cxx.empty() ? commands : cxx;
}

std::string CxxCompileCommands::whyNoCxxCommand(llvm::StringRef file) const {
  const std::vector<clang::tooling::CompileCommand> commands = getCompileCommands(file);
  if (!commands.empty() && std::all_of(commands.begin(), commands.end(), isCxxCompileCommand)) return {};
  if (commands.empty()) return "the compilation database gives it no compile command";
  const clang::tooling::CompileCommand& first = commands.front();
  const std::string compiler = first.CommandLine.empty() ? "no compiler" : first.CommandLine.front();
  return "its compile command (" + (first.Heuristic.empty() ? first.Filename : first.Heuristic) +
         ") is not a C++ one (" + compiler +
         ") and the compilation database has no C++ source to take flags from; ringkernel-gen parses "
         "headers as C++: give a C++ compiler's flags after `--` (or --compile-args-file) instead of -p";
}

}  // namespace ringkernel::gen
