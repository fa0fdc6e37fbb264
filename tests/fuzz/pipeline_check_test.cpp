// The pipeline fuzz target's pieces without libFuzzer: its committed corpus and regressions pass
// its check, and its structure-aware mutator makes the edits it promises while keeping most
// mutants loadable (otherwise it would be no better than byte mutations).
#include "tests/fuzz/module_mutator.h"
#include "tests/fuzz/pipeline_check.h"

#include "core/session/program.h"
#include "core/support/diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using shardscope::fuzz::applyModuleEdit;
using shardscope::fuzz::checkPipeline;
using shardscope::fuzz::ModuleEdit;

std::vector<std::pair<std::string, std::string>> filesIn(const fs::path& dir) {
  std::vector<fs::path> paths;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() != ".md")
      paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::pair<std::string, std::string>> files;
  for (const fs::path& p : paths) {
    std::ifstream in(p, std::ios::binary);
    files.emplace_back(p.filename().string(),
                       std::string(std::istreambuf_iterator<char>(in), {}));
  }
  return files;
}

const fs::path kFuzzDir = SHARDSCOPE_FUZZ_DIR;

constexpr const char* kMatmul = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.transpose %0, dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)";

bool loads(const std::string& text) {
  shardscope::support::CollectingSink sink;
  return shardscope::session::Program::fromText("m.mlir", text, sink) != nullptr;
}

TEST(PipelineFuzzCorpus, CorpusAndRegressionsPassTheCheck) {
  auto corpus = filesIn(kFuzzDir / "corpus_pipeline");
  EXPECT_GE(corpus.size(), 20u);
  auto regressions = filesIn(kFuzzDir / "regressions" / "pipeline");
  corpus.insert(corpus.end(), regressions.begin(), regressions.end());
  for (const auto& [name, text] : corpus)
    EXPECT_EQ(checkPipeline(text), "") << name;
}

TEST(PipelineFuzzCheck, ValidProgramRunsThroughEveryStage) {
  ASSERT_TRUE(loads(kMatmul));
  EXPECT_EQ(checkPipeline(kMatmul), "");
}

// A shard_map that adds each device's partition id, checked against a reference twin that does
// not: the sharded run cannot match, as a pipeline that broke the program's meaning would not.
constexpr const char* kWrongReference = R"(sdy.mesh @mesh = <["i"=4]>
func.func @main(%x: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%b: tensor<2x2xi32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %q = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
    %s = stablehlo.broadcast_in_dim %q, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %y = stablehlo.add %b, %s : tensor<2x2xi32>
    sdy.return %y : tensor<2x2xi32>
  } : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %r : tensor<8x2xi32>
}
func.func @main_reference(%x: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %x : tensor<8x2xi32>
}
)";

TEST(PipelineFuzzCheck, DivergenceFromTheReferenceIsAFinding) {
  ASSERT_TRUE(loads(kWrongReference));
  std::string finding = checkPipeline(kWrongReference);
  EXPECT_NE(finding.find("diverges from the reference run"), std::string::npos) << finding;
  // Located at the op whose value is compared: the function's return (line 10).
  EXPECT_NE(finding.find(" at 10:3 ('func.return' result 0, reference)"), std::string::npos)
      << finding;
  // The same shard_map against a twin that adds the partition ids too is no finding.
  std::string twin = kWrongReference;
  size_t at = twin.find("  return %x : tensor<8x2xi32>\n}\n");
  ASSERT_NE(at, std::string::npos);
  twin.replace(at, std::string("  return %x : tensor<8x2xi32>\n}\n").size(),
               "  %i = stablehlo.iota dim = 0 : tensor<8x2xi32>\n"
               "  %c = stablehlo.constant dense<2> : tensor<8x2xi32>\n"
               "  %d = stablehlo.divide %i, %c : tensor<8x2xi32>\n"
               "  %y = stablehlo.add %x, %d : tensor<8x2xi32>\n"
               "  return %y : tensor<8x2xi32>\n}\n");
  EXPECT_EQ(checkPipeline(twin), "");
}

TEST(PipelineFuzzCheck, ProgramsBeyondTheLimitsAreLocatedErrors) {
  // 4 devices against a limit of 2; 8x16xf32 is 512 bytes against a limit of 100: both are
  // errors by design, reported at the mesh or the value, so the check passes.
  EXPECT_EQ(checkPipeline(kMatmul, {.maxDevices = 2}), "");
  EXPECT_EQ(checkPipeline(kMatmul, {.maxTensorBytes = 100}), "");
}

TEST(PipelineFuzzCheck, BrokenProgramsAreLocatedErrors) {
  EXPECT_EQ(checkPipeline(""), "");
  EXPECT_EQ(checkPipeline("func.func @main("), "");
  EXPECT_EQ(checkPipeline("sdy.mesh @mesh = <[\"x\"=0]>\n"), "");
}

TEST(ModuleMutator, IntegerEditReplacesOneStandaloneLiteral) {
  std::mt19937_64 random(1);
  std::string text = "%arg0 : f32, dims = [7]";
  ASSERT_TRUE(applyModuleEdit(text, ModuleEdit::Integer, random));
  // Only the 7 is a standalone literal: the digits of %arg0 and f32 are names.
  EXPECT_TRUE(text.starts_with("%arg0 : f32, dims = [")) << text;
  EXPECT_NE(text, "%arg0 : f32, dims = [7]");
  std::string none = "%arg0 : f32";
  EXPECT_FALSE(applyModuleEdit(none, ModuleEdit::Integer, random));
  EXPECT_EQ(none, "%arg0 : f32");
}

TEST(ModuleMutator, ShapeEditChangesTheDimensionsOnly) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 random(seed);
    std::string text = "tensor<4x8xf32>";
    ASSERT_TRUE(applyModuleEdit(text, ModuleEdit::Shape, random));
    EXPECT_TRUE(text.starts_with("tensor<") && text.ends_with("f32>")) << text;
    EXPECT_NE(text, "tensor<4x8xf32>");
  }
}

TEST(ModuleMutator, DimShardingEditsStayInTheShardingList) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 random(seed);
    std::string text = R"(#sdy.sharding<@mesh, [{"x"}, {}]>)";
    ASSERT_TRUE(applyModuleEdit(text, ModuleEdit::DimSharding, random));
    EXPECT_TRUE(text.starts_with("#sdy.sharding<@mesh, [{") && text.ends_with("}]>")) << text;
  }
}

TEST(ModuleMutator, IntegerListEditKeepsAList) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    std::mt19937_64 random(seed);
    std::string text = "dims = array<i64: 0, 1, 2>";
    ASSERT_TRUE(applyModuleEdit(text, ModuleEdit::IntegerList, random));
    EXPECT_TRUE(text.starts_with("dims = array<i64: ") && text.ends_with(">")) << text;
  }
}

TEST(ModuleMutator, OpNameEditStaysInTheFamily) {
  std::mt19937_64 random(3);
  std::string text = "%0 = stablehlo.add %a, %b : tensor<4xf32>";
  ASSERT_TRUE(applyModuleEdit(text, ModuleEdit::OpName, random));
  EXPECT_TRUE(text.starts_with("%0 = stablehlo.")) << text;
  EXPECT_EQ(text.find("stablehlo.reduce"), std::string::npos) << text;
}

TEST(ModuleMutator, MutantsLoadFarMoreOftenThanByteMutations) {
  // The point of the structure-aware mutator: its mutants reach the stages after the parser,
  // which random byte changes rarely do.
  std::mt19937_64 random(7);
  constexpr int kMutants = 300;
  int structured = 0, bytes = 0;
  for (int i = 0; i < kMutants; ++i) {
    std::string text = kMatmul;
    ASSERT_TRUE(shardscope::fuzz::mutateModuleText(text, random));
    structured += text != kMatmul && loads(text);
    // The byte-level counterpart: two random bytes replaced by random printable characters.
    std::string flipped = kMatmul;
    for (int k = 0; k < 2; ++k)
      flipped[random() % flipped.size()] = static_cast<char>(' ' + random() % 95);
    bytes += flipped != kMatmul && loads(flipped);
  }
  std::printf("mutants that load: %d structured, %d byte-level (of %d)\n", structured, bytes,
              kMutants);
  EXPECT_GE(structured, kMutants / 20) << "byte mutations: " << bytes;
  EXPECT_GT(structured, 2 * bytes) << "structured: " << structured << ", bytes: " << bytes;
}

} // namespace
