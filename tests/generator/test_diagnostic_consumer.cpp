// Copyright RingKernel authors.
// RecordingDiagnosticConsumer, one per run and shared by every header: a warning placed at a
// header's line 1, column 1 (no_messages_warning.h) stays that header's. A note without a location
// in the next source file was placed at the previous header, which the consumer still named.
#include <gtest/gtest.h>

#include <string>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace {

using ringkernel::gen::RecordingDiagnosticConsumer;

TEST(RecordingDiagnosticConsumer, PlacementAtTheHeaderEndsWithItsSourceFile) {
  auto files = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  files->addFile("/src/first.h", 0, llvm::MemoryBuffer::getMemBuffer("struct A {};\n"));
  clang::FileManager fileManager(clang::FileSystemOptions{}, files);
  std::string printed;
  llvm::raw_string_ostream out(printed);
  RecordingDiagnosticConsumer consumer(out);
  clang::DiagnosticsEngine engine(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                                  llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>(), &consumer,
                                  /*ShouldOwnClient=*/false);
  clang::SourceManager sources(engine, fileManager);
  engine.setSourceManager(&sources);
  const clang::FileEntryRef first = llvm::cantFail(fileManager.getFileRef("/src/first.h"));
  sources.setMainFileID(sources.createFileID(first, clang::SourceLocation(), clang::SrcMgr::C_User));
  const unsigned note = engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0");
  const clang::LangOptions lang;

  consumer.BeginSourceFile(lang, nullptr);
  consumer.setPlacingAtHeader(true);
  engine.Report(engine.getCustomDiagID(clang::DiagnosticsEngine::Warning, "%0")) << "about the header";
  engine.Report(note) << "its note";
  consumer.setPlacingAtHeader(false);
  consumer.EndSourceFile();
  ASSERT_EQ(consumer.diagnostics().size(), 2u) << printed;
  EXPECT_EQ(consumer.diagnostics()[1].file, "/src/first.h") << printed;

  consumer.BeginSourceFile(lang, nullptr);  // the next header
  engine.Report(note) << "a note without a location";
  consumer.EndSourceFile();
  ASSERT_EQ(consumer.diagnostics().size(), 3u) << printed;
  EXPECT_EQ(consumer.diagnostics()[2].file, "") << printed;
  EXPECT_EQ(consumer.diagnostics()[2].line, 0u) << printed;
  EXPECT_EQ(printed,
            "/src/first.h:1:1: warning: about the header\n"
            "/src/first.h:1:1: note: its note\n"
            "note: a note without a location\n");
}

}  // namespace
