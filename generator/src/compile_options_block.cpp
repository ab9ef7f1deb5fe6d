// Copyright RingKernel authors.
#include "compile_options_block.h"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <utility>

#include "clang/Driver/Options.h"
#include "compiler_response_files.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"

namespace ringkernel::gen {
namespace {

namespace options = clang::driver::options;

/// KWSys's blanks (isspace in the C locale).
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

/// Whether an option of this kind changes what the parse sees (its aliases too: Option::matches).
bool mattersToParse(const llvm::opt::Option& kind) {
  static constexpr std::array kinds{options::OPT_D,         options::OPT_U,        options::OPT_I,
                                    options::OPT_isystem,   options::OPT_iquote,   options::OPT_idirafter,
                                    options::OPT_include,   options::OPT_imacros};
  return std::any_of(kinds.begin(), kinds.end(), [&](options::ID id) { return kind.matches(id); });
}

llvm::opt::InputArgList parseDriverArgs(llvm::ArrayRef<const char*> argv, unsigned& missingIndex,
                                        unsigned& missingCount) {
  // The gcc-like options (the CMake function writes the compile of a gcc-like compiler).
  const llvm::opt::Visibility visibility(options::ClangOption);
  return clang::driver::getDriverOptTable().ParseArgs(argv, missingIndex, missingCount, visibility);
}

}  // namespace

std::vector<std::string> splitCMakeShellOption(std::string_view text) {
  std::vector<std::string> args;
  std::string current;
  bool inArgument = false;
  bool escaped = false;
  bool inSingle = false;
  bool inDouble = false;
  for (const char c : text) {
    if (escaped) {
      current += c;
      inArgument = true;
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '\'' && !inDouble) {
      inSingle = !inSingle;
      inArgument = true;
    } else if (c == '"' && !inSingle) {
      inDouble = !inDouble;
      inArgument = true;
    } else if (isBlank(c) && !inSingle && !inDouble) {
      if (inArgument) args.push_back(std::exchange(current, {}));
      inArgument = false;
    } else {
      current += c;
      inArgument = true;
    }
  }
  if (inArgument) args.push_back(std::move(current));
  return args;
}

std::vector<std::string> compilerArgumentsOfCompileOptions(const std::vector<std::string>& elements) {
  std::vector<std::string> args;
  std::unordered_set<std::string> seen;
  for (const std::string& element : elements) {
    if (!seen.insert(element).second) continue;
    if (std::string_view(element).starts_with("SHELL:")) {
      std::vector<std::string> split = splitCMakeShellOption(std::string_view(element).substr(6));
      args.insert(args.end(), std::make_move_iterator(split.begin()), std::make_move_iterator(split.end()));
    } else {
      args.push_back(element);
    }
  }
  return args;
}

bool selectParseOptions(const std::vector<std::string>& args, std::vector<std::string>& selected,
                        std::string& valueless) {
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  unsigned missingIndex = 0;
  unsigned missingCount = 0;
  const llvm::opt::InputArgList parsed = parseDriverArgs(argv, missingIndex, missingCount);
  // Each parsed option spans the arguments up to the next one's (its separate value among them); the
  // parse stops at an option whose value is missing.
  const std::vector<const llvm::opt::Arg*> parsedArgs(parsed.begin(), parsed.end());
  const std::size_t parsedEnd = missingCount > 0 ? missingIndex : argv.size();
  for (std::size_t k = 0; k < parsedArgs.size(); ++k) {
    if (!mattersToParse(parsedArgs[k]->getOption())) continue;
    const std::size_t begin = parsedArgs[k]->getIndex();
    const std::size_t end = k + 1 < parsedArgs.size() ? parsedArgs[k + 1]->getIndex() : parsedEnd;
    selected.insert(selected.end(), args.begin() + static_cast<std::ptrdiff_t>(begin),
                    args.begin() + static_cast<std::ptrdiff_t>(end));
  }
  if (missingCount == 0) return true;
  // The last option wants a value: which kind it is shows when it has one.
  const std::array<const char*, 2> withValue{argv[missingIndex], "value"};
  unsigned index = 0;
  unsigned count = 0;
  const llvm::opt::InputArgList alone = parseDriverArgs(withValue, index, count);
  if (count != 0 || alone.begin() == alone.end() || !mattersToParse((*alone.begin())->getOption())) return true;
  valueless = args[missingIndex];
  return false;
}

bool expandCompileOptionsBlock(std::vector<std::string>& lines, std::string& error) {
  const auto begin = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return std::string_view(line).starts_with(kCompileOptionsBegin);
  });
  if (begin == lines.end()) return true;
  const std::string target = begin->substr(kCompileOptionsBegin.size());
  // The last closing line: the block is the file's end, and an element spelled like it stays one.
  const auto last = std::find(lines.rbegin(), std::make_reverse_iterator(begin + 1), kCompileOptionsEnd);
  if (last == std::make_reverse_iterator(begin + 1)) {
    error = "the compile options of target '" + target + "' have no closing line '" +
            std::string(kCompileOptionsEnd) + "' (a truncated file?)";
    return false;
  }
  const auto end = std::prev(last.base());  // the closing line
  std::vector<std::string> args = compilerArgumentsOfCompileOptions(std::vector<std::string>(begin + 1, end));
  if (std::string why; !expandCompilerResponseFiles(args, why)) {
    error = "the compile options of target '" + target + "': " + why;
    return false;
  }
  std::vector<std::string> selected;
  if (std::string valueless; !selectParseOptions(args, selected, valueless)) {
    error = "the compile option '" + valueless + "' of target '" + target +
            "' has no value: it is the last of the target's compile options (its COMPILE_OPTIONS, "
            "then the INTERFACE_COMPILE_OPTIONS of what it links, after CMake's de-duplication of "
            "them), so the compiler would take what the build tool writes next on its command line "
            "(such as -o) for its value. Give the value as the next option, or both as one "
            "(\"SHELL:" + valueless + " <value>\", or the value attached)";
    return false;
  }
  const auto at = lines.erase(begin, end + 1);
  lines.insert(at, selected.begin(), selected.end());
  return true;
}

}  // namespace ringkernel::gen
