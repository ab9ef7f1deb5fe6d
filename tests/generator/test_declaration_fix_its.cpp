// Copyright RingKernel authors.
// A field whose struct, in the same header, is not a message: the error is at the field, and a note
// at the struct's own declaration carries the clang fix-it that makes it one (the attribute before
// its name; for an unnamed struct a typedef names, the attribute and that name before its brace);
// for an unnamed enum a typedef names, the name before its brace. Applying the fix-it gives a header
// whose messages all generate.
#include <gtest/gtest.h>

#include <string>

#include "frontend_harness.h"

namespace ringkernel::gen {
namespace {

using testing::errorCount;
using testing::findError;
using testing::findNoteAfter;
using testing::positionOf;
using testing::runFrontendOn;

struct DeclarationFix {
  const char* name;
  std::string source;
  const char* error;      // a fragment of the error at the field
  const char* at;         // the text the insertion goes before (its first occurrence in source)
  const char* insertion;
  const char* fixed;      // a message the fixed source must have
  const char* note = "the struct is declared here";
};

void PrintTo(const DeclarationFix& fix, std::ostream* out) { *out << fix.source; }

class DeclarationFixIts : public ::testing::TestWithParam<DeclarationFix> {};

TEST_P(DeclarationFixIts, TheNoteAtTheStructMakesItAMessage) {
  const DeclarationFix& c = GetParam();
  const auto run = runFrontendOn(c.source);
  const RecordedDiagnostic* error = findError(run, c.error);
  ASSERT_NE(error, nullptr) << run.printed;
  EXPECT_TRUE(error->fixIts.empty()) << run.printed;  // the field itself is not what changes
  EXPECT_EQ(errorCount(run), 1u) << run.printed;
  const RecordedDiagnostic* note = findNoteAfter(run, *error, c.note);
  ASSERT_NE(note, nullptr) << run.printed;
  const testing::Position where = positionOf(c.source, c.at);
  EXPECT_EQ(note->line, where.line) << run.printed;
  EXPECT_EQ(note->column, where.column) << run.printed;
  ASSERT_EQ(note->fixIts.size(), 1u) << run.printed;
  const RecordedFixIt& fixIt = note->fixIts.front();
  EXPECT_EQ(fixIt.text, c.insertion);
  EXPECT_EQ(fixIt.line, where.line);
  EXPECT_EQ(fixIt.column, where.column);
  EXPECT_EQ(fixIt.endLine, where.line);  // an insertion: the range is empty
  EXPECT_EQ(fixIt.endColumn, where.column);

  std::string fixed = c.source;
  fixed.insert(fixed.find(c.at), c.insertion);
  const auto again = runFrontendOn(fixed);
  EXPECT_EQ(errorCount(again), 0u) << fixed << "\n" << again.printed;
  EXPECT_EQ(again.field("demo::M", "in").kind, FieldKind::Message) << fixed;
  EXPECT_FALSE(again.message(c.fixed).fields.empty()) << fixed;
}

INSTANTIATE_TEST_SUITE_P(
    SameHeader, DeclarationFixIts,
    ::testing::Values(
        DeclarationFix{"Named", "namespace demo {\nstruct Inner { int a; int b; };\n"
                                "struct [[ringkernel::message]] M { Inner in; int x; };\n}\n",
                       "field 'in' of message 'demo::M' has type 'Inner', which is not a [[ringkernel::message]]",
                       "Inner {", "[[ringkernel::message]] ", "demo::Inner"},
        DeclarationFix{"Class", "namespace demo {\nclass Inner {\n public:\n  int a;\n};\n"
                                "struct [[ringkernel::message]] M { Inner in; };\n}\n",
                       "field 'in'", "Inner {", "[[ringkernel::message]] ", "demo::Inner", "the class is declared here"},
        DeclarationFix{"TypedefOfUnnamed", "namespace demo {\ntypedef struct { int a; int b; } Inner;\n"
                                           "struct [[ringkernel::message]] M { Inner in; int x; };\n}\n",
                       "an unnamed struct that only 'Inner' names", "{ int a",
                       "[[ringkernel::message]] Inner ", "demo::Inner"},
        DeclarationFix{"AliasOfUnnamedOnItsOwnLines", "namespace demo {\nusing Inner = struct\n{\n  float u;\n};\n"
                                                      "struct [[ringkernel::message]] M { Inner in[2]; };\n}\n",
                       "an unnamed struct that only 'Inner' names", "{\n  float",
                       "[[ringkernel::message]] Inner ", "demo::Inner"}),
    [](const ::testing::TestParamInfo<DeclarationFix>& info) { return std::string(info.param.name); });

// A field of an unnamed enum that a typedef names: the note at the enum's brace writes the name.
TEST(DeclarationFixIts, TheNoteAtAnUnnamedEnumNamesIt) {
  const std::string source = "namespace demo {\ntypedef enum { Red, Green } Color;\n"
                             "struct [[ringkernel::message]] M { Color c; };\n}\n";
  const auto run = runFrontendOn(source);
  const RecordedDiagnostic* error = findError(run, "an unnamed enum that only the typedef 'Color' names");
  ASSERT_NE(error, nullptr) << run.printed;
  const RecordedDiagnostic* note = findNoteAfter(run, *error, "the enum is declared here");
  ASSERT_NE(note, nullptr) << run.printed;
  ASSERT_EQ(note->fixIts.size(), 1u) << run.printed;
  const testing::Position where = positionOf(source, "{ Red");
  EXPECT_EQ(std::make_pair(note->fixIts[0].line, note->fixIts[0].column), std::make_pair(where.line, where.column));
  EXPECT_EQ(note->fixIts[0].text, "Color ");
  std::string fixed = source;
  fixed.insert(fixed.find("{ Red"), "Color ");
  const auto again = runFrontendOn(fixed);
  EXPECT_EQ(errorCount(again), 0u) << fixed << "\n" << again.printed;
  EXPECT_EQ(again.field("demo::M", "c").kind, FieldKind::Enumeration) << fixed;
}

// Two fields of one struct (or enum): two errors, one edit of the declaration between them.
TEST(DeclarationFixIts, OneEditPerDeclarationHoweverManyFieldsUseIt) {
  const std::string source = "namespace demo {\nstruct Inner { int a; };\ntypedef enum { Red } Color;\n"
                             "struct [[ringkernel::message]] M { Inner a; Color c; Inner b; Color d; };\n}\n";
  const auto run = runFrontendOn(source);
  EXPECT_EQ(errorCount(run), 4u) << run.printed;
  unsigned edits = 0;
  for (const RecordedDiagnostic& d : run.result.diagnostics) edits += static_cast<unsigned>(d.fixIts.size());
  EXPECT_EQ(edits, 2u) << run.printed;
}

// Where there is no name to write, the struct is text of a macro's definition or already carries a
// ringkernel:: attribute (misspelt), there is no edit: the error and its "fix:" note only.
TEST(DeclarationFixIts, NoneWithoutANameInAMacrosDefinitionOrBesideAnotherRingkernelAttribute) {
  const std::string sources[] = {
      "namespace demo {\nstruct [[ringkernel::message]] M { struct { int a; } s; };\n}\n",
      "namespace demo {\n#define RK_INNER struct { int a; }\ntypedef RK_INNER Inner;\n"
      "struct [[ringkernel::message]] M { Inner in; };\n}\n",
      // The misspelt attribute has its own fix-it; a second attribute would not fix anything.
      "namespace demo {\nstruct [[ringkernel::mesage]] Inner { int a; };\n"
      "struct [[ringkernel::message]] M { Inner in; };\n}\n",
      "namespace demo {\ntypedef struct [[ringkernel::mesage]] { int a; } Inner;\n"
      "struct [[ringkernel::message]] M { Inner in; };\n}\n"};
  for (const std::string& source : sources) {
    const auto run = runFrontendOn(source);
    const RecordedDiagnostic* error = findError(run, "which is not a [[ringkernel::message]]");
    ASSERT_NE(error, nullptr) << run.printed;
    EXPECT_NE(findNoteAfter(run, *error, "fix: "), nullptr) << run.printed;
    EXPECT_EQ(findNoteAfter(run, *error, "is declared here"), nullptr) << run.printed;
  }
}

}  // namespace
}  // namespace ringkernel::gen
