#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

TEST(PrinterTest, NamesConstantsWithConflictSuffixes) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @f() -> tensor<i32> {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.constant dense<2> : tensor<i32>
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %d = stablehlo.add %a, %b : tensor<i32>
  return %d : tensor<i32>
})",
                                      1, sink);
  ASSERT_TRUE(module);
  std::string out = io::mlir::printModule(*module);
  EXPECT_NE(out.find("%c = stablehlo.constant dense<1> : tensor<i32>"), std::string::npos) << out;
  EXPECT_NE(out.find("%c_0 = stablehlo.constant dense<2> : tensor<i32>"), std::string::npos) << out;
  EXPECT_NE(out.find("%cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%0 = stablehlo.add %c, %c_0 : tensor<i32>"), std::string::npos) << out;
}

TEST(PrinterTest, SplitInputFileKeepsLineNumbers) {
  std::string text = "a\n// -----\nb\nc\n// -----\nd";
  auto chunks = io::mlir::splitInputFile(text);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[1].firstLine, 3u);
  EXPECT_EQ(io::mlir::paddedChunk(chunks[2]), "\n\n\n\n\nd");
}

TEST(PrinterTest, PrintsDenseElementsNestedSplatAndEmpty) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @f() {
  %0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %1 = stablehlo.constant dense<[1.5, 1.5]> : tensor<2xf32>
  %2 = stablehlo.constant dense<7> : tensor<2x2xi64>
  %3 = stablehlo.constant dense<> : tensor<0xf32>
  %4 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  return
})",
                                      1, sink);
  ASSERT_TRUE(module) << sink.diagnostics()[0].message;
  std::string out = io::mlir::printModule(*module);
  EXPECT_NE(out.find("dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>"), std::string::npos) << out;
  EXPECT_NE(out.find("dense<1.500000e+00> : tensor<2xf32>"), std::string::npos)
      << out;
  EXPECT_NE(out.find("dense<7> : tensor<2x2xi64>"), std::string::npos) << out;
  EXPECT_NE(out.find("dense<> : tensor<0xf32>"), std::string::npos) << out;
  EXPECT_NE(out.find("dense<[true, false]> : tensor<2xi1>"), std::string::npos) << out;
}

TEST(PrinterTest, SplitFileSectionsKeepNamesAndLines) {
  std::string text = "// RUN: x\n//--- part1.mlir\na\nb\n//--- part2.mlir\nc\n";
  auto sections = io::mlir::splitFileSections(text);
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[0].name, "part1.mlir");
  EXPECT_EQ(sections[0].chunk.text, "a\nb\n");
  EXPECT_EQ(sections[0].chunk.firstLine, 3u);
  EXPECT_EQ(sections[1].name, "part2.mlir");
  EXPECT_EQ(sections[1].chunk.text, "c\n");
  EXPECT_EQ(io::mlir::paddedChunk(sections[1].chunk), "\n\n\n\n\nc\n");
  EXPECT_TRUE(io::mlir::splitFileSections("no markers\n").empty());
}

// A function's names do not depend on the rest of the module: naming one function gives the
// names naming the whole module gives its values.
TEST(PrinterTest, FunctionNamesMatchModuleNames) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @f(%x: tensor<i32>) -> tensor<i32> {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.add %x, %a : tensor<i32>
  return %b : tensor<i32>
}
func.func @g(%y: tensor<i32>) -> tensor<i32> {
  %c = stablehlo.constant dense<2> : tensor<i32>
  %w:2 = stablehlo.while(%i = %y, %j = %c) : tensor<i32>, tensor<i32>
  cond {
    %lt = stablehlo.compare LT, %i, %j : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %k = stablehlo.add %i, %j : tensor<i32>
    stablehlo.return %k, %j : tensor<i32>, tensor<i32>
  }
  return %w#0 : tensor<i32>
})",
                                      1, sink);
  ASSERT_TRUE(module);
  const auto all = io::mlir::printedValueNames(*module);
  const ir::Operation* g = module->lookupFunction("g");
  const auto names = io::mlir::printedValueNames(*g);
  size_t checked = 0;
  for (const auto& [value, name] : names) {
    ASSERT_TRUE(all.count(value));
    EXPECT_EQ(name, all.at(value));
    ++checked;
  }
  // @g's argument, the constant, the while's results and both regions' arguments and values.
  EXPECT_GE(checked, 9u);
  // Only @g's values.
  for (const auto& block : ir::func::body(*module->lookupFunction("f"))->ops())
    for (const auto& result : block->results())
      EXPECT_FALSE(names.count(result.get()));
}

TEST(PrinterTest, RecordsTheLineEveryOpStartsOn) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %x : tensor<4xf32>
  %1 = stablehlo.reduce(%0 init: %0) applies stablehlo.add across dimensions = [] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.while"(%1) ({
  ^bb0(%a: tensor<4xf32>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%a: tensor<4xf32>):
    stablehlo.return %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
})",
                                      1, sink);
  ASSERT_TRUE(module) << sink.diagnostics().front().message;
  std::vector<io::mlir::PrintedOpLine> lines;
  const std::string out = io::mlir::printModule(*module, lines);
  EXPECT_EQ(out, io::mlir::printModule(*module));
  // Every op is listed once, and the line it names starts with that op as the text shows it.
  size_t ops = 0;
  module->op().walk([&](const ir::Operation&) { ++ops; });
  // All but the module itself and the body of the compact reduce (`applies stablehlo.add`), whose
  // two ops are part of the reduce's line.
  EXPECT_EQ(lines.size() + 3, ops);
  std::vector<std::string> text{"", ""}; // text[1] is line 1
  for (char c : out) {
    if (c == '\n')
      text.emplace_back();
    else
      text.back().push_back(c);
  }
  auto lineOf = [&](std::string_view name) {
    for (const io::mlir::PrintedOpLine& l : lines)
      if (l.op->name() == name)
        return l.line;
    return 0u;
  };
  ASSERT_GT(lineOf("stablehlo.while"), 0u);
  EXPECT_NE(text[lineOf("func.func")].find("func.func @f"), std::string::npos);
  EXPECT_NE(text[lineOf("stablehlo.abs")].find("stablehlo.abs"), std::string::npos);
  EXPECT_NE(text[lineOf("stablehlo.while")].find("stablehlo.while"), std::string::npos);
  EXPECT_NE(text[lineOf("stablehlo.constant")].find("stablehlo.constant dense<true>"),
            std::string::npos);
  EXPECT_NE(text[lineOf("func.return")].find("return %"), std::string::npos);
  // The constant inside the condition region is printed after the while's first line.
  EXPECT_GT(lineOf("stablehlo.constant"), lineOf("stablehlo.while"));
}

TEST(PrinterTest, SourceNamesKeepWhatTheSourceWroteAndNameTheRestByTheirOp) {
  support::CollectingSink sink;
  const char* text = R"(func.func @f(%arg0: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %7 = stablehlo.add %arg0, %x : tensor<4xf32>
  %3:2 = stablehlo.while(%iterArg = %7, %iterArg_0 = %x) : tensor<4xf32>, tensor<4xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<4xf32>, tensor<4xf32>
  }
  %1 = stablehlo.multiply %3#0, %3#1 : tensor<4xf32>
  %2 = stablehlo.abs %1 : tensor<4xf32>
  %9 = stablehlo.negate %2 : tensor<4xf32>
  return %9 : tensor<4xf32>
})";
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module) << sink.diagnostics().front().message;
  // MLIR's numbering ignores the source's numbers...
  const std::string numbered = io::mlir::printModule(*module);
  EXPECT_NE(numbered.find("%0 = stablehlo.add %arg0, %arg1"), std::string::npos) << numbered;
  EXPECT_NE(numbered.find("%1:2 = stablehlo.while"), std::string::npos) << numbered;
  // ... source names keep them, out of order and grouped as written.
  const std::string source =
      io::mlir::printModule(*module, 0, io::mlir::ValueNames::Source);
  EXPECT_NE(source.find("%7 = stablehlo.add %arg0, %x"), std::string::npos) << source;
  EXPECT_NE(source.find("%3:2 = stablehlo.while"), std::string::npos) << source;
  EXPECT_NE(source.find("%1 = stablehlo.multiply %3#0, %3#1"), std::string::npos) << source;
  EXPECT_NE(source.find("return %9"), std::string::npos) << source;

  // Values a pass made (no source name, or one that is not a value id) are named after their op;
  // a source number given twice (a duplicated op) keeps it once.
  ir::Operation* fn = nullptr;
  module->op().walk([&](ir::Operation& op) {
    if (op.is("func.func"))
      fn = &op;
  });
  ASSERT_TRUE(fn);
  std::vector<ir::Operation*> ops;
  for (const auto& op : fn->region(0).front().ops())
    ops.push_back(op.get());
  ASSERT_EQ(ops.size(), 6u); // add, while, multiply, abs, negate, return
  ops[2]->result(0)->setNameHint("");      // multiply: made by a pass
  ops[3]->result(0)->setNameHint("2_bar"); // abs: not a value id
  ops[4]->result(0)->setNameHint("7");     // negate: a second %7
  const std::string renamed =
      io::mlir::printModule(*module, 0, io::mlir::ValueNames::Source);
  EXPECT_NE(renamed.find("%multiply = stablehlo.multiply %3#0, %3#1"), std::string::npos)
      << renamed;
  EXPECT_NE(renamed.find("%abs = stablehlo.abs %multiply"), std::string::npos) << renamed;
  EXPECT_NE(renamed.find("%negate_7 = stablehlo.negate %abs"), std::string::npos) << renamed;
  EXPECT_NE(renamed.find("%7 = stablehlo.add"), std::string::npos) << renamed;

  // The text parses as MLIR again, to a module that prints the same both ways, and the names
  // table gives what the text shows.
  support::CollectingSink again;
  auto reparsed = io::mlir::parseModule(renamed, 1, again);
  ASSERT_TRUE(reparsed) << again.diagnostics().front().message << "\n" << renamed;
  EXPECT_EQ(io::mlir::printModule(*reparsed, 0, io::mlir::ValueNames::Source), renamed);
  EXPECT_EQ(io::mlir::printModule(*reparsed), io::mlir::printModule(*module));
  const auto names = io::mlir::printedValueNames(*module, io::mlir::ValueNames::Source);
  EXPECT_EQ(names.at(ops[0]->result(0)), "%7");
  EXPECT_EQ(names.at(ops[1]->result(1)), "%3#1");
  EXPECT_EQ(names.at(ops[4]->result(0)), "%negate_7");
}

TEST(PrinterTest, SourceNamesNumberUnnamedArgumentsPastTheNamedOnes) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<f32> {
  %0 = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %0) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %m = stablehlo.multiply %a, %b : tensor<f32>
      %s = stablehlo.add %m, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %1 : tensor<f32>
})",
                                      1, sink);
  ASSERT_TRUE(module) << sink.diagnostics().front().message;
  module->op().walk([&](ir::Operation& op) {
    if (op.is("stablehlo.reduce"))
      for (const auto& arg : op.region(0).front().arguments())
        arg->setNameHint(""); // as a pass makes a body
  });
  const std::string source = io::mlir::printModule(*module, 0, io::mlir::ValueNames::Source);
  // The body's arguments are numbered past %arg0 and %arg1, with no `_N` suffixes.
  EXPECT_NE(source.find("(%arg2: tensor<f32>, %arg3: tensor<f32>)"), std::string::npos) << source;
  EXPECT_NE(source.find("%m = stablehlo.multiply %arg2, %arg3"), std::string::npos) << source;
}

TEST(PrinterTest, StreamsTheTextInPiecesThatEndBetweenOps) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  %1 = stablehlo.multiply %0, %x : tensor<4xf32>
  %2 = stablehlo.while(%it = %1) : tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.negate %it : tensor<4xf32>
    stablehlo.return %n : tensor<4xf32>
  }
  return %2 : tensor<4xf32>
})",
                                      1, sink);
  ASSERT_TRUE(module);
  const std::string whole = io::mlir::printModule(*module, 0, io::mlir::ValueNames::Source);
  std::vector<std::string> pieces;
  auto keep = [&](std::string_view piece) {
    pieces.emplace_back(piece);
    return true;
  };
  // A one-byte chunk hands over the text after every op, nested ones included.
  ASSERT_TRUE(io::mlir::printModule(*module, keep, io::mlir::ValueNames::Source, 1));
  std::string joined;
  for (const std::string& piece : pieces)
    joined += piece;
  EXPECT_EQ(joined, whole);
  // One piece after each of the 8 ops in the function's body and the while's regions, then
  // the closing braces of the function and the module.
  ASSERT_EQ(pieces.size(), 9u);
  EXPECT_TRUE(pieces[0].ends_with("%0 = stablehlo.add %x, %x : tensor<4xf32>")) << pieces[0];
  EXPECT_EQ(pieces[1], "\n    %1 = stablehlo.multiply %0, %x : tensor<4xf32>");
  EXPECT_EQ(pieces[8], "\n  }\n}\n");

  // A write that fails stops the writes: it is not called again, and the print says so.
  int calls = 0;
  auto failSecond = [&](std::string_view) { return ++calls < 2; };
  EXPECT_FALSE(io::mlir::printModule(*module, failSecond, io::mlir::ValueNames::Numbered, 1));
  EXPECT_EQ(calls, 2);
}
