// Copyright RingKernel authors.
// Unnamed types a typedef or alias names (`typedef struct [[ringkernel::message]] { ... } Point;`,
// `using P = struct ... { ... };`, `typedef enum { ... } Color;`): refused with an error that names
// the typedef and says to name the type itself, and a note at the typedef. Generated code defines a
// message as `struct Point { ... }` in .rk.cuh, a type other than the typedef's. clang names the
// unnamed struct only after its closing brace, where the frontend used to build the message while
// the parse went on: the error then said "anonymous struct" without the typedef.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend_harness.h"
#include "names.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::findError;
using testing::findNoteAfter;
using testing::hasError;
using testing::positionOf;
using testing::runFrontendOn;

/// The note after `error` that points at `at` in `source` and contains `fragment`.
::testing::AssertionResult hasNoteAt(const testing::FrontendRun& run, const std::string& source,
                                     const std::string& errorFragment, const std::string& at,
                                     const std::string& fragment) {
  const RecordedDiagnostic* error = findError(run, errorFragment);
  if (error == nullptr) {
    return ::testing::AssertionFailure() << "no error with '" << errorFragment << "'\n" << run.printed;
  }
  const RecordedDiagnostic* note = findNoteAfter(run, *error, fragment);
  if (note == nullptr) return ::testing::AssertionFailure() << "no note with '" << fragment << "'\n" << run.printed;
  const testing::Position where = positionOf(source, at);
  if (note->line != where.line || note->column != where.column) {
    return ::testing::AssertionFailure() << "note at " << note->line << ":" << note->column << ", not at "
                                         << where.line << ":" << where.column << "\n" << run.printed;
  }
  return ::testing::AssertionSuccess();
}

TEST(UnnamedTypes, TypedefOfAnUnnamedMessageNamesTheTypedef) {
  const std::string source = "namespace demo {\ntypedef struct [[ringkernel::message]] { int x; float y; } Point;\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "struct [[ringkernel::message]]"),
                       {"message 'demo::Point' is an unnamed struct that only the typedef 'Point' names",
                        ".rk.cuh would write 'struct Point { ... }'"},
                       "name the struct itself: struct [[ringkernel::message]] Point { ... }; (the typedef may stay)"));
  EXPECT_TRUE(hasNoteAt(run, source, "unnamed struct", "Point;", "the typedef 'Point' is declared here"));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

TEST(UnnamedTypes, AliasOfAnUnnamedMessageNamesTheAlias) {
  const std::string source = "namespace demo {\nusing P = struct [[ringkernel::message]] { int x; };\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "struct [[ringkernel::message]]"),
                       {"message 'demo::P' is an unnamed struct that only the alias 'P' names"},
                       "struct [[ringkernel::message]] P { ... }; (the alias may stay)"));
  EXPECT_TRUE(hasNoteAt(run, source, "unnamed struct", "P =", "the alias 'P' is declared here"));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

TEST(UnnamedTypes, TypedefOfAnUnnamedClassSaysClass) {
  const std::string source = "typedef class [[ringkernel::message]] { public: int x; } C;\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "class [[ringkernel::message]]"),
                       {"message 'C' is an unnamed class that only the typedef 'C' names"},
                       "name the class itself: class [[ringkernel::message]] C { ... };"));
}

TEST(UnnamedTypes, TypedefInsideAMessageNamesTheQualifiedTypedef) {
  const std::string source =
      "namespace demo {\nstruct [[ringkernel::message]] Outer {\n"
      "  typedef struct [[ringkernel::message]] { int a; } In;\n  In in;\n};\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "struct [[ringkernel::message]] {"),
                       {"message 'demo::Outer::In' is an unnamed struct that only the typedef 'In' names"},
                       "struct [[ringkernel::message]] In { ... };"));
}

// The type named as well: the typedef (or an alias of the same name) may stay, and the message
// is the struct's, with the id of its qualified name.
TEST(UnnamedTypes, NamedStructWithATypedefOfTheSameNameIsAMessage) {
  const std::string source = "namespace demo {\ntypedef struct [[ringkernel::message]] Point { int x; } Point;\n"
                             "using Pa = struct [[ringkernel::message]] Pa { int x; };\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 0u) << run.printed;
  EXPECT_EQ(run.message("demo::Point").typeId, fnv1a32("demo::Point"));
  EXPECT_EQ(run.message("demo::Pa").name, "Pa");
}

TEST(UnnamedTypes, InstanceOfAnAnonymousMessageKeepsTheVariableInTheFix) {
  const std::string source = "struct [[ringkernel::message]] { int x; } instance;\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "struct"), {"anonymous struct cannot be a message"},
                       "give the struct a name: struct [[ringkernel::message]] Name { ... } instance;"));
}

TEST(UnnamedTypes, FieldOfATypedefOfAnUnnamedEnumNamesTheTypedef) {
  const std::string source = "namespace demo {\ntypedef enum { Red, Green } Color;\n"
                             "struct [[ringkernel::message]] M { Color c; int x; };\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "c;"),
                       {"field 'c' of message 'demo::M' uses enum 'demo::Color', an unnamed enum that only the "
                        "typedef 'Color' names"},
                       "name the enum itself: enum Color { ... }; (the typedef may stay)"));
  EXPECT_TRUE(hasNoteAt(run, source, "unnamed enum", "Color;", "the typedef 'Color' is declared here"));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

TEST(UnnamedTypes, FieldOfATypedefOfAnUnnamedStructNamesTheTypedefInTheFix) {
  const std::string source = "namespace demo {\ntypedef struct { int a; int b; } Inner;\n"
                             "struct [[ringkernel::message]] M { Inner in; int x; };\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "in;"),
                       {"field 'in' of message 'demo::M' has type 'Inner', which is not a [[ringkernel::message]]",
                        "an unnamed struct that only 'Inner' names"},
                       "give the struct a name and annotate it: struct [[ringkernel::message]] Inner { ... };"));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

TEST(UnnamedTypes, FieldOfATypedefdUnnamedMessageIsReportedAtTheTypedefOnly) {
  const std::string source = "namespace demo {\ntypedef struct [[ringkernel::message]] { int a; } Inner;\n"
                             "struct [[ringkernel::message]] M { Inner in; };\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_TRUE(hasError(run, positionOf(source, "struct [[ringkernel::message]] {"),
                       {"message 'demo::Inner' is an unnamed struct that only the typedef 'Inner' names"}));
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
}

// The unnamed message waits for the end of the parse; the errors still come in declaration order,
// and the one for the typedef'd struct between those of the messages around it.
TEST(UnnamedTypes, ErrorsStayInDeclarationOrder) {
  const std::string source = "struct [[ringkernel::message]] Before { int* p; };\n"
                             "typedef struct [[ringkernel::message]] { int x; } Point;\n"
                             "struct [[ringkernel::message]] After { long double d; };\n";
  const auto run = runFrontendOn(source);
  std::vector<unsigned> lines;
  for (const RecordedDiagnostic& d : run.result.diagnostics) {
    if (d.level == clang::DiagnosticsEngine::Error) lines.push_back(d.line);
  }
  EXPECT_EQ(lines, (std::vector<unsigned>{1, 2, 3})) << run.printed;
  EXPECT_NE(findError(run, "typedef 'Point'"), nullptr) << run.printed;
}

/// `source` with the one fix-it of the error containing `fragment` applied (an insertion: the range
/// is empty), or why it cannot be.
::testing::AssertionResult applyInsertion(const testing::FrontendRun& run, const std::string& source,
                                          const std::string& fragment, const std::string& at,
                                          const std::string& text, std::string& fixed) {
  const RecordedDiagnostic* error = findError(run, fragment);
  if (error == nullptr) return ::testing::AssertionFailure() << "no error with '" << fragment << "'\n" << run.printed;
  if (error->fixIts.size() != 1) {
    return ::testing::AssertionFailure() << error->fixIts.size() << " fix-its\n" << run.printed;
  }
  const RecordedFixIt& fixIt = error->fixIts.front();
  const testing::Position where = positionOf(source, at);
  if (fixIt.text != text || fixIt.line != where.line || fixIt.column != where.column || fixIt.endLine != where.line ||
      fixIt.endColumn != where.column) {
    return ::testing::AssertionFailure() << "fix-it '" << fixIt.text << "' at " << fixIt.line << ":" << fixIt.column
                                         << "-" << fixIt.endLine << ":" << fixIt.endColumn << ", not '" << text
                                         << "' at " << where.line << ":" << where.column << "\n" << run.printed;
  }
  fixed = source;
  fixed.insert(source.find(at), text);
  return ::testing::AssertionSuccess();
}

// The fix-it writes the typedef's (alias's) name before the brace; the source it gives is a message.
TEST(UnnamedTypes, TheFixItNamesTheStructAndTheFixedSourceIsAMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"namespace demo {\ntypedef struct [[ringkernel::message]] { int x; float y; } Point;\n}\n", "Point"},
      {"namespace demo {\nusing Point = struct [[ringkernel::message]]\n{ int x; float y; };\n}\n", "Point"}};
  for (const auto& [source, name] : cases) {
    std::string fixed;
    ASSERT_TRUE(applyInsertion(runFrontendOn(source), source, "unnamed struct", "{ int x", name + " ", fixed));
    const auto run = runFrontendOn(fixed);
    EXPECT_EQ(errorCount(run), 0u) << fixed << "\n" << run.printed;
    EXPECT_EQ(run.message("demo::Point").typeId, fnv1a32("demo::Point")) << fixed;
  }
}

// A brace in a macro's definition is shared by every use of the macro: no fix-it, the note only.
TEST(UnnamedTypes, NoFixItWhereTheBraceIsInAMacrosDefinition) {
  const std::string source = "#define RK_POINT struct [[ringkernel::message]] { int x; }\ntypedef RK_POINT Point;\n";
  const auto run = runFrontendOn(source);
  const RecordedDiagnostic* error = findError(run, "unnamed struct that only the typedef 'Point' names");
  ASSERT_NE(error, nullptr) << run.printed;
  EXPECT_TRUE(error->fixIts.empty()) << run.printed;
  EXPECT_NE(findNoteAfter(run, *error, "fix: name the struct itself"), nullptr) << run.printed;
}

}  // namespace
}  // namespace ringkernel::gen
