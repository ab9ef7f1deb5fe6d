// Copyright RingKernel authors.
#include "frontend_harness.h"

#include <stdexcept>

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"
#include "resource_dir.h"

namespace ringkernel::gen::testing {

const HeaderModel& FrontendRun::header() const {
  if (result.headers.size() != 1) {
    ADD_FAILURE() << "expected one header model, got " << result.headers.size() << "\n" << printed;
    throw std::runtime_error("no header model");
  }
  return result.headers.front();
}

const MessageModel& FrontendRun::message(const std::string& qualifiedName) const {
  for (const MessageModel& candidate : header().messages) {
    if (candidate.qualifiedName == qualifiedName) return candidate;
  }
  ADD_FAILURE() << "no message " << qualifiedName << " in the model\n" << printed;
  throw std::runtime_error("no such message");
}

const FieldModel& FrontendRun::field(const std::string& messageName, const std::string& name) const {
  for (const FieldModel& candidate : message(messageName).fields) {
    if (candidate.name == name) return candidate;
  }
  ADD_FAILURE() << "no field " << name << " in " << messageName;
  throw std::runtime_error("no such field");
}

const EnumModel& FrontendRun::enumeration(const std::string& qualifiedName) const {
  for (const EnumModel& candidate : header().enums) {
    if (candidate.qualifiedName == qualifiedName) return candidate;
  }
  ADD_FAILURE() << "no enum " << qualifiedName << " in the model\n" << printed;
  throw std::runtime_error("no such enum");
}

FrontendRun runFrontendOn(const std::string& source, const std::string& target,
                          const std::map<std::string, std::string>& extraFiles,
                          const std::vector<std::string>& compilerArgs) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(kHeaderPath, 0, llvm::MemoryBuffer::getMemBufferCopy(source, kHeaderPath));
  for (const auto& [path, content] : extraFiles) {
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(content, path));
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);

  // The compile directory must exist on every layer of the overlay (ClangTool changes into it).
  const clang::tooling::FixedCompilationDatabase compilations("/", compilerArgs);
  std::string resourceError;
  FrontendRequest request;
  request.headers = {kHeaderPath};
  request.compilations = &compilations;
  request.targetTriple = target;
  request.outputDir = kOutputDir;
  request.resourceDir = findClangResourceDir(resourceError);
  request.fileSystem = overlay;
  EXPECT_TRUE(resourceError.empty()) << resourceError;

  FrontendRun run;
  llvm::raw_string_ostream stream(run.printed);
  run.result = runFrontend(request, stream);
  stream.flush();
  return run;
}

::testing::AssertionResult hasError(const FrontendRun& run, unsigned line, unsigned column,
                                    const std::vector<std::string>& message,
                                    const std::string& fix) {
  const auto& all = run.result.diagnostics;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const RecordedDiagnostic& d = all[i];
    if (d.level != clang::DiagnosticsEngine::Error || d.file != kHeaderPath || d.line != line ||
        d.column != column) {
      continue;
    }
    bool matches = true;
    for (const std::string& fragment : message) {
      matches = matches && d.message.find(fragment) != std::string::npos;
    }
    if (!matches) continue;
    if (fix.empty()) return ::testing::AssertionSuccess();
    if (i + 1 < all.size() && all[i + 1].level == clang::DiagnosticsEngine::Note &&
        all[i + 1].message.rfind("fix: ", 0) == 0 &&
        all[i + 1].message.find(fix) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "error at " << line << ":" << column
                                         << " has no fix note containing '" << fix << "'\n"
                                         << run.printed;
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "no error at " << line << ":" << column << " containing";
  for (const std::string& fragment : message) failure << " '" << fragment << "'";
  return failure << "\nprinted:\n" << run.printed;
}

Position positionOf(const std::string& source, const std::string& needle, int occurrence) {
  std::size_t offset = std::string::npos;
  for (int i = 0; i < occurrence; ++i) {
    offset = source.find(needle, offset == std::string::npos ? 0 : offset + 1);
    if (offset == std::string::npos) {
      ADD_FAILURE() << "'" << needle << "' does not occur " << occurrence << " times";
      return {};
    }
  }
  Position position{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    if (source[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else {
      ++position.column;
    }
  }
  return position;
}

::testing::AssertionResult hasError(const FrontendRun& run, Position where,
                                    const std::vector<std::string>& message,
                                    const std::string& fix) {
  return hasError(run, where.line, where.column, message, fix);
}

const RecordedDiagnostic* findError(const FrontendRun& run, const std::string& fragment) {
  for (const RecordedDiagnostic& d : run.result.diagnostics) {
    if (d.level == clang::DiagnosticsEngine::Error && d.message.find(fragment) != std::string::npos) return &d;
  }
  return nullptr;
}

const RecordedDiagnostic* findNoteAfter(const FrontendRun& run, const RecordedDiagnostic& error,
                                        const std::string& fragment) {
  const auto& all = run.result.diagnostics;
  for (std::size_t i = static_cast<std::size_t>(&error - all.data()) + 1;
       i < all.size() && all[i].level == clang::DiagnosticsEngine::Note; ++i) {
    if (all[i].message.find(fragment) != std::string::npos) return &all[i];
  }
  return nullptr;
}

unsigned errorCount(const FrontendRun& run) { return run.result.errorCount; }

}  // namespace ringkernel::gen::testing
