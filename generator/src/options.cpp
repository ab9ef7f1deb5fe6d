// Copyright RingKernel authors.
#include "options.h"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "clang/Basic/Version.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "compile_jobs.h"
#include "compile_options_block.h"
#include "compiler_response_files.h"
#include "cxx_compile_commands.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include "side_file_paths.h"

namespace ringkernel::gen {
namespace {

namespace cl = llvm::cl;

cl::OptionCategory& generatorCategory() {
  static cl::OptionCategory category("ringkernel-gen options");
  return category;
}

cl::SubCommand& registryCommand() {
  static cl::SubCommand command("registry",
                                "Merge manifests (.rk.json) into <name>.registry.rk.h");
  return command;
}

cl::SubCommand& checkCommand() {
  static cl::SubCommand command("check",
                                "Check that the messages of manifests (.rk.json) can share one program "
                                "(type ids, kernel ids, stems), as a registry of them would; writes nothing");
  return command;
}

struct GenerateOptions {
  cl::opt<std::string> outputDir{"output-dir", cl::Required, cl::value_desc("dir"),
                                 cl::desc("Directory for <stem>.rk.h, <stem>.rk.cuh, <stem>.rk.json"),
                                 cl::cat(generatorCategory())};
  cl::opt<std::string> depfile{"depfile", cl::value_desc("file"),
                               cl::desc("Write a Makefile depfile: the outputs depend on every "
                                        "file the parse read"),
                               cl::cat(generatorCategory())};
  cl::opt<std::string> target{"target", cl::value_desc("triple"),
                              cl::desc("Compute layouts for this target ABI (default: the host)"),
                              cl::cat(generatorCategory())};
  cl::opt<std::string> templateDir{"template-dir", cl::value_desc("dir"),
                                   cl::desc("Directory of the mustache templates"),
                                   cl::cat(generatorCategory())};
  cl::opt<std::string> stamp{"stamp", cl::value_desc("file"),
                             cl::desc("Touch this file after a successful run (it is then the "
                                      "depfile's target)"),
                             cl::cat(generatorCategory())};
  cl::opt<bool> removeStaleOutputs{
      "remove-stale-outputs",
      cl::desc("When the run fails after the parse (errors in the input, a template that does not "
               "load or render, an output, the depfile or the stamp that cannot be written), delete "
               "the outputs and the stamp an earlier run left for these headers, so a failed build "
               "keeps nothing stale"),
      cl::cat(generatorCategory())};
  cl::opt<std::string> compileArgsFile{
      "compile-args-file", cl::value_desc("file"),
      cl::desc("Read further compiler arguments from <file>, one per line, taken as written (no "
               "quoting or escaping; empty lines ignored), as if given after `--`; of a CMake "
               "target's compile options between marker lines, those that matter to the parse"),
      cl::cat(generatorCategory())};
};

struct RegistryOptions {
  cl::opt<std::string> name{"name", cl::Required, cl::value_desc("name"),
                            cl::desc("Registry name: writes <name>.registry.rk.h"),
                            cl::sub(registryCommand())};
  cl::opt<std::string> outputDir{"output-dir", cl::Required, cl::value_desc("dir"),
                                 cl::desc("Directory for the registry header"),
                                 cl::sub(registryCommand())};
  cl::opt<std::string> templateDir{"template-dir", cl::value_desc("dir"),
                                   cl::desc("Directory of the mustache templates"),
                                   cl::sub(registryCommand())};
  cl::list<std::string> manifests{cl::Positional, cl::OneOrMore, cl::value_desc("a.rk.json"),
                                  cl::desc("<a.rk.json>..."), cl::sub(registryCommand())};
  cl::opt<bool> removeStaleOutputs{
      "remove-stale-outputs",
      cl::desc("When the run fails after reading the manifests (a bad manifest, a collision, a "
               "template that does not load or render, a header that cannot be written), delete the "
               "<name>.registry.rk.h an earlier run left, so a failed build keeps nothing stale"),
      cl::sub(registryCommand())};
};

struct CheckOptions {
  cl::list<std::string> manifests{cl::Positional, cl::OneOrMore, cl::value_desc("a.rk.json"),
                                  cl::desc("<a.rk.json>..."), cl::sub(checkCommand())};
};

GenerateOptions& generateOptions() {
  static GenerateOptions options;
  return options;
}

RegistryOptions& registryOptions() {
  static RegistryOptions options;
  return options;
}

CheckOptions& checkOptions() {
  static CheckOptions options;
  return options;
}

void printVersion(llvm::raw_ostream& out) { out << versionText() << '\n'; }

const char* kOverview =
    "Generates message_traits, CUDA layouts and MessagePack codecs for [[ringkernel::message]] "
    "structs.\n\n"
    "  ringkernel-gen [options] <header>... [-- <compiler args>]\n"
    "  ringkernel-gen [options] --compile-args-file <file> <header>... [-- <compiler args>]\n"
    "  ringkernel-gen [options] -p <build-dir> <header>...\n"
    "  ringkernel-gen registry --name <name> --output-dir <dir> <a.rk.json>...\n"
    "  ringkernel-gen check <a.rk.json>...\n\n"
    "Exit status: 0 success, also after a warning (a header with no [[ringkernel::message]] type still\n"
    "gets its outputs, which declare no message; -w silences it, -Werror makes it an error, its own\n"
    "flag is -W[no-][error=]ringkernel-no-messages), 1 the run failed (errors in the input, or an\n"
    "output that could not be rendered or written; nothing written), 2 bad usage.\n";

/// An option given with an empty value (`--depfile=`, or an empty "${VAR}" in a build script) is bad
/// usage: an empty --output-dir would write into the current directory, and the others would act
/// as if they had not been given (no depfile, no stamp, the host's target, ...). The CMake function
/// refuses an empty OUTPUT_DIR and passes no empty value.
bool checkValuesNotEmpty(const char* program, std::initializer_list<const cl::opt<std::string>*> given) {
  for (const cl::opt<std::string>* option : given) {
    if (option->getNumOccurrences() == 0 || !option->getValue().empty()) continue;
    llvm::errs() << program << ": error: --" << option->ArgStr << " is empty; "
                 << (option->ArgStr == "output-dir"
                         ? "give the directory for the generated files (--output-dir . for the current one)"
                         : "give a value or leave the option out")
                 << "\n";
    return false;
  }
  return true;
}

/// llvm::cl takes the last of an option given twice (`--output-dir a --output-dir b`), so a build
/// script that appends its own value to a user's would silently lose one of them: bad usage.
bool checkGivenOnce(const char* program, std::initializer_list<const cl::opt<std::string>*> options) {
  for (const cl::opt<std::string>* option : options) {
    if (option->getNumOccurrences() <= 1) continue;
    llvm::errs() << program << ": error: --" << option->ArgStr << " is given " << option->getNumOccurrences()
                 << " times; give it once\n";
    return false;
  }
  return true;
}

bool parseRegistry(int argc, const char** argv, CommandLine& commandLine) {
  RegistryOptions& options = registryOptions();
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs())) return false;
  if (!checkGivenOnce("ringkernel-gen registry", {&options.name, &options.outputDir, &options.templateDir}) ||
      !checkValuesNotEmpty("ringkernel-gen registry", {&options.outputDir, &options.templateDir})) {
    return false;
  }
  commandLine.mode = Mode::Registry;
  commandLine.registryName = options.name;
  commandLine.outputDir = options.outputDir;
  commandLine.templateDir = options.templateDir;
  commandLine.inputs.assign(options.manifests.begin(), options.manifests.end());
  commandLine.removeStaleOutputs = options.removeStaleOutputs;
  return true;
}

bool parseCheck(int argc, const char** argv, CommandLine& commandLine) {
  CheckOptions& options = checkOptions();
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &llvm::errs())) return false;
  commandLine.mode = Mode::Check;
  commandLine.inputs.assign(options.manifests.begin(), options.manifests.end());
  return true;
}

/// The value of the option `name` (given as -name or --name, with its value next or after `=`)
/// among the options before `--`; the last one wins; "" when not given.
std::string findOptionValue(const std::vector<const char*>& args, llvm::StringRef name) {
  std::string value;
  for (std::size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg(args[i]);
    if (arg == "--") break;
    if (!arg.consume_front("-")) continue;
    arg.consume_front("-");
    if (arg == name && i + 1 < args.size()) {
      value = args[++i];
    } else if (arg.consume_front(name) && arg.consume_front("=")) {
      value = arg.str();
    }
  }
  return value;
}

/// The lines of `file` (a trailing \r stripped, empty lines skipped) appended to `lines`, a CMake
/// target's compile options among them replaced with those that matter to the parse (compile_options_block.h).
bool readCompileArgsFile(const std::string& file, std::vector<std::string>& lines) {
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << "ringkernel-gen: error: cannot read --compile-args-file '" << file
                 << "': " << buffer.getError().message() << "\n";
    return false;
  }
  llvm::SmallVector<llvm::StringRef, 16> split;
  (*buffer)->getBuffer().split(split, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : split) {
    line.consume_back("\r");
    if (!line.empty()) lines.push_back(line.str());
  }
  if (std::string error; !expandCompileOptionsBlock(lines, error)) {
    llvm::errs() << "ringkernel-gen: error: --compile-args-file '" << file << "': " << error << "\n";
    return false;
  }
  return true;
}

/// A compile_commands.json in `buildPath` that is not JSON: clang's loader prints the YAML parser's
/// error without the file's name (once per load) and then finds no command in it. False, with the
/// error at the file's line and column, for such a file; true when there is none or it parses.
bool checkCompileCommandsJson(const std::string& buildPath, std::string& error) {
  llvm::SmallString<256> file(buildPath);
  llvm::sys::path::append(file, "compile_commands.json");
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer) return true;  // none (or unreadable): clang's loader says so
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse((*buffer)->getBuffer());
  if (parsed) return true;
  std::string why = llvm::toString(parsed.takeError());  // "[line:column, byte=N]: why"
  llvm::SmallVector<llvm::StringRef, 4> parts;
  if (llvm::Regex("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$").match(why, &parts)) {
    unsigned column = 0;  // llvm::json counts columns from 0, diagnostics from 1
    parts[2].getAsInteger(10, column);
    error = file.str().str() + ":" + parts[1].str() + ":" + std::to_string(column + 1) + ": not valid JSON: " +
            parts[3].str();
  } else {
    error = file.str().str() + ": not valid JSON: " + why;
  }
  return false;
}

bool parseGenerate(int argc, const char** argv, CommandLine& commandLine) {
  GenerateOptions& options = generateOptions();
  // Without `--` or -p, CommonOptionsParser searches for compile_commands.json and warns when it
  // finds none; plain `ringkernel-gen a.h` means "no extra flags".
  std::vector<const char*> args(argv, argv + argc);
  // --compile-args-file: its lines join the arguments after `--` (a build system writes a target's
  // flags there, e.g. with file(GENERATE), where no shell quoting survives).
  const std::string argsFile = findOptionValue(args, "compile-args-file");
  std::vector<std::string> fileArgs;
  if (!argsFile.empty() && !readCompileArgsFile(argsFile, fileArgs)) return false;
  // Only the options before `--` are the tool's: a `-p` after it is a compiler argument.
  const auto separator = std::find_if(args.begin(), args.end(), [](const char* a) { return llvm::StringRef(a) == "--"; });
  const bool hasSeparator = separator != args.end();
  const bool hasBuildPath = std::any_of(args.begin(), separator, [](const char* a) {
    llvm::StringRef arg(a);
    return arg == "-p" || arg == "--p" || arg.starts_with("-p=") || arg.starts_with("--p=");
  });
  if (!argsFile.empty() && hasBuildPath) {
    llvm::errs() << "ringkernel-gen: error: --compile-args-file cannot be combined with -p\n";
    return false;
  }
  // CommonOptionsParser takes the arguments after `--` as the whole compile command of every file
  // and then never reads -p's compilation database: the target's flags would be silently missing.
  if (hasSeparator && hasBuildPath) {
    llvm::errs() << "ringkernel-gen: error: -p cannot be combined with '--': the arguments after '--' "
                    "would replace the compile commands of the compilation database, which would not be "
                    "read; pass further compiler arguments with --extra-arg=<arg> (or leave -p out and "
                    "give all of them after '--')\n";
    return false;
  }
  // CommonOptionsParser runs "without flags" when -p finds no compilation database; the layouts
  // would then silently miss the target's definitions and flags. (It loads the database again.)
  if (const std::string buildPath = findOptionValue(args, "p"); !buildPath.empty()) {
    std::string error;
    if (!checkCompileCommandsJson(buildPath, error) ||
        !clang::tooling::CompilationDatabase::autoDetectFromDirectory(buildPath, error)) {
      llvm::errs() << "ringkernel-gen: error: -p " << buildPath
                   << ": cannot load a compilation database: " << error << "\n";
      return false;
    }
  }
  // The compiler arguments (after `--`, then the file's) go through FixedCompilationDatabase, which
  // reads no response file (compiler_response_files.h) and drops all of them when clang's driver
  // builds no compile job with them (compile_jobs.h).
  std::vector<std::string> compileArgs(hasSeparator ? separator + 1 : args.end(), args.end());
  compileArgs.insert(compileArgs.end(), fileArgs.begin(), fileArgs.end());
  if (!hasBuildPath) {
    if (std::string error; !expandCompilerResponseFiles(compileArgs, error)) {
      llvm::errs() << "ringkernel-gen: error: " << error << "\n";
      return false;
    }
    if (!checkCompileArgs(compileArgs, llvm::errs())) return false;
    args.erase(hasSeparator ? separator : args.end(), args.end());
    args.push_back("--");
    for (const std::string& arg : compileArgs) args.push_back(arg.c_str());
  }
  int count = static_cast<int>(args.size());
  auto parser = clang::tooling::CommonOptionsParser::create(count, args.data(), generatorCategory(),
                                                           cl::OneOrMore, kOverview);
  if (!parser) {
    llvm::errs() << llvm::toString(parser.takeError());  // "ringkernel-gen: <why>" (llvm::cl's)
    llvm::errs() << "Run 'ringkernel-gen --help' for usage.\n";
    return false;
  }
  if (!checkGivenOnce("ringkernel-gen", {&options.outputDir, &options.depfile, &options.target, &options.templateDir,
                                         &options.stamp, &options.compileArgsFile})) {
    return false;
  }
  if (!checkValuesNotEmpty("ringkernel-gen", {&options.outputDir, &options.depfile, &options.target,
                                              &options.templateDir, &options.stamp, &options.compileArgsFile})) {
    return false;
  }
  commandLine.parser = std::make_shared<clang::tooling::CommonOptionsParser>(std::move(*parser));
  commandLine.mode = Mode::Generate;
  commandLine.inputs = commandLine.parser->getSourcePathList();
  if (hasBuildPath) {
    commandLine.cxxCompilations = std::make_shared<CxxCompileCommands>(commandLine.parser->getCompilations());
    for (const std::string& input : commandLine.inputs) {
      llvm::SmallString<256> header(input);
      llvm::sys::fs::make_absolute(header);
      if (const std::string why = commandLine.cxxCompilations->whyNoCxxCommand(header); !why.empty()) {
        llvm::errs() << "ringkernel-gen: error: -p " << findOptionValue(args, "p") << ": " << input << ": " << why
                     << "\n";
        return false;
      }
    }
  }
  if (const std::string clash = sideFileClash({commandLine.inputs, options.outputDir, options.compileArgsFile,
                                               options.depfile, options.stamp});
      !clash.empty()) {
    llvm::errs() << "ringkernel-gen: error: " << clash << "\n";
    return false;
  }
  commandLine.outputDir = options.outputDir;
  commandLine.depfile = options.depfile;
  commandLine.targetTriple = options.target;
  commandLine.templateDir = options.templateDir;
  commandLine.stamp = options.stamp;
  commandLine.removeStaleOutputs = options.removeStaleOutputs;
  return true;
}

/// --help and --version print to stdout and exit(0) from inside llvm::cl; a stdout that cannot be
/// written (closed: `>&-`, or a full disk) then ended in "LLVM ERROR: IO failure on output stream"
/// and exit status 1. Reported as the tool's other I/O failures are: exit status 74 (EX_IOERR).
/// Registered with atexit after outs() exists, so it runs before outs() is destroyed.
void exitOnStdoutError() {
  llvm::raw_fd_ostream& out = llvm::outs();
  out.flush();
  if (!out.has_error()) return;
  llvm::errs() << "ringkernel-gen: error: cannot write to standard output: " << out.error().message() << '\n';
  out.clear_error();
  std::_Exit(kIoError);
}

}  // namespace

std::string versionText() {
  return std::string("ringkernel-gen ") + RINGKERNEL_GEN_VERSION + " (clang " +
         CLANG_VERSION_STRING + ")";
}

clang::tooling::CompilationDatabase& CommandLine::compilations() const {
  if (cxxCompilations) return *cxxCompilations;
  return parser->getCompilations();
}

bool parseCommandLine(int argc, const char** argv, CommandLine& commandLine) {
  generateOptions();
  registryOptions();
  checkOptions();
  cl::SetVersionPrinter(printVersion);
  llvm::outs();
  std::atexit(exitOnStdoutError);
  if (argc > 1 && llvm::StringRef(argv[1]) == "registry") {
    return parseRegistry(argc, argv, commandLine);
  }
  if (argc > 1 && llvm::StringRef(argv[1]) == "check") {
    return parseCheck(argc, argv, commandLine);
  }
  return parseGenerate(argc, argv, commandLine);
}

}  // namespace ringkernel::gen
