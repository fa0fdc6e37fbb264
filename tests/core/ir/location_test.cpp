#include "core/ir/location.h"

#include <gtest/gtest.h>

using namespace shardscope;

TEST(LocationTableTest, ShortJaxNameIsTheLastPathComponentWithoutParameters) {
  EXPECT_EQ(ir::shortJaxName("jit(f)/jit(main)/dot_general"), "dot_general");
  EXPECT_EQ(ir::shortJaxName("jit(<lambda>)/jit(main)/reshape[new_sizes=(2, 4) dimensions=None]"),
            "reshape");
  // A `/` inside parameters does not split.
  EXPECT_EQ(ir::shortJaxName("jit(f)/pjit[name=a/b]"), "pjit");
  EXPECT_EQ(ir::shortJaxName("jit(f/g)"), "jit(f/g)");
  EXPECT_EQ(ir::shortJaxName("add:"), "add");
  EXPECT_EQ(ir::shortJaxName("x"), "x");
}

TEST(LocationTableTest, LabelsPreferTheInnermostNameOfTheChain) {
  ir::LocationTable table;
  ir::DebugLocation file;
  file.kind = ir::DebugLocation::Kind::FileLineCol;
  file.text = "f.py";
  file.line = 12;
  file.column = 3;
  ir::DebugLoc fileId = table.add(file);
  ir::DebugLocation full;
  full.kind = ir::DebugLocation::Kind::Name;
  full.text = "jit(f)/jit(main)/dot_general";
  full.children = {fileId};
  ir::DebugLoc fullId = table.add(full);
  ir::DebugLocation outer;
  outer.kind = ir::DebugLocation::Kind::Name;
  outer.text = "dot_general:";
  outer.children = {fullId};
  ir::DebugLoc outerId = table.add(outer);

  EXPECT_EQ(table.jaxName(outerId), "jit(f)/jit(main)/dot_general");
  EXPECT_EQ(table.label(outerId), "jit(f)/jit(main)/dot_general");
  EXPECT_EQ(table.label(fileId), "f.py:12");
  EXPECT_EQ(table.jaxName(fileId), "");
  EXPECT_EQ(table.label(ir::kUnknownLoc), "");
  EXPECT_EQ(table.str(ir::kUnknownLoc), "loc(unknown)");
  // Out-of-range ids read as unknown.
  EXPECT_EQ(table.str(1000), "loc(unknown)");
}
