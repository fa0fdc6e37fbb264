#include "core/report/report.h"

#include "core/support/atomic_file.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>

namespace shardscope::report {
namespace {

using Json = nlohmann::json;

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A small JSON Schema checker for the parts of draft 2020-12 the report schema uses: `type`,
// `required`, `properties`, `items`, `enum`, `const`, `oneOf` and local `$ref`s. Appends one
// message per violation to `errors`.
class SchemaChecker {
public:
  explicit SchemaChecker(Json root) : m_root(std::move(root)) {}

  void check(const Json& schema, const Json& value, const std::string& path,
             std::vector<std::string>& errors) const {
    if (schema.contains("$ref")) {
      std::string ref = schema["$ref"];
      check(m_root.at(Json::json_pointer(ref.substr(1))), value, path, errors);
      return;
    }
    if (schema.contains("oneOf")) {
      int matches = 0;
      for (const Json& option : schema["oneOf"]) {
        std::vector<std::string> sub;
        check(option, value, path, sub);
        matches += sub.empty();
      }
      if (matches != 1)
        errors.push_back(path + ": matches " + std::to_string(matches) + " oneOf options");
      return;
    }
    if (schema.contains("type") && !hasType(schema["type"], value))
      errors.push_back(path + ": expected type " + schema["type"].dump() + ", got " + value.dump().substr(0, 60));
    if (schema.contains("const") && schema["const"] != value)
      errors.push_back(path + ": expected " + schema["const"].dump());
    if (schema.contains("enum") &&
        std::find(schema["enum"].begin(), schema["enum"].end(), value) == schema["enum"].end())
      errors.push_back(path + ": " + value.dump() + " not in enum");
    if (value.is_object()) {
      for (const Json& key : schema.value("required", Json::array()))
        if (!value.contains(key.get<std::string>()))
          errors.push_back(path + ": missing required '" + key.get<std::string>() + "'");
      Json properties = schema.value("properties", Json::object());
      for (const auto& [key, sub] : properties.items())
        if (value.contains(key))
          check(sub, value[key], path + "/" + key, errors);
    }
    if (value.is_array() && schema.contains("items"))
      for (size_t i = 0; i < value.size(); ++i)
        check(schema["items"], value[i], path + "/" + std::to_string(i), errors);
  }

private:
  static bool hasType(const Json& type, const Json& value) {
    if (type.is_array())
      return std::any_of(type.begin(), type.end(), [&](const Json& t) { return hasType(t, value); });
    std::string t = type;
    return (t == "object" && value.is_object()) || (t == "array" && value.is_array()) ||
           (t == "string" && value.is_string()) || (t == "integer" && value.is_number_integer()) ||
           (t == "number" && value.is_number()) || (t == "boolean" && value.is_boolean()) ||
           (t == "null" && value.is_null());
  }
  Json m_root;
};

class ReportTest : public ::testing::Test {
protected:
  std::unique_ptr<session::Program> load(const std::string& relative) {
    support::CollectingSink sink;
    auto program = session::Program::load(std::string(SHARDSCOPE_SOURCE_DIR) + "/" + relative, sink);
    EXPECT_TRUE(program) << relative;
    return program;
  }
  std::string render(session::Program& program, Format format, const ReportOptions& options = {}) {
    support::CollectingSink sink;
    std::optional<std::string> text = renderReport(program, options, format, sink);
    EXPECT_TRUE(text) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
    return text.value_or("");
  }
  std::vector<std::string> validate(const std::string& text) {
    Json schema = Json::parse(readFile(std::string(SHARDSCOPE_SOURCE_DIR) +
                                       "/resources/report.schema.json"));
    std::vector<std::string> errors;
    SchemaChecker(schema).check(schema, Json::parse(text), "", errors);
    return errors;
  }
};

TEST_F(ReportTest, JsonOfEveryExampleFollowsTheSchema) {
  for (const char* file : {"resources/examples/shard_map_matmul.mlir",
                           "resources/examples/mlp_tensor_parallel.mlir",
                           "tests/data/session/reshard_chain.mlir",
                           "tests/data/session/shard_map_seed.mlir",
                           "tests/data/session/loop.mlir"}) {
    auto program = load(file);
    ASSERT_TRUE(program);
    std::vector<std::string> errors = validate(render(*program, Format::Json));
    EXPECT_TRUE(errors.empty()) << file << ": " << errors.size() << " errors, first: "
                                << (errors.empty() ? "" : errors[0]);
  }
}

TEST_F(ReportTest, JsonListsInsertedCollectivesWithWhyAndCostPerAxis) {
  auto program = load("tests/data/session/reshard_chain.mlir");
  Json data = Json::parse(render(*program, Format::Json));
  const Json& items = data["collectives"]["items"];
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items[0]["category"], "inserted");
  EXPECT_NE(items[0]["why"].get<std::string>().find("inserted"), std::string::npos);
  EXPECT_EQ(items[0]["perAxis"][0]["axis"], "x");
  EXPECT_GT(data["collectives"]["totalBytesSent"].get<int64_t>(), 0);
  EXPECT_EQ(data["program"]["file"], "reshard_chain.mlir"); // no directories
  EXPECT_EQ(data["stages"].size(), 4u);
}

TEST_F(ReportTest, JaxNamesFromDebugLocationsReachTablesAndGraph) {
  // A program as JAX prints it: the ppermute is named `jit(f)/shard_map/ppermute` (inside
  // `ppermute:`), the argument `x`, and the collective table and value table say so.
  auto program = load("tests/data/jax/shard_map_shift.mlir");
  ASSERT_TRUE(program);
  std::string json = render(*program, Format::Json);
  EXPECT_TRUE(validate(json).empty());
  Json data = Json::parse(json);
  bool argumentNamed = false, permuteNamed = false;
  for (const Json& row : data["values"]["rows"]) {
    if (row["op"] == "argument" && row["name"] == "%arg0")
      argumentNamed = row.value("jaxName", "") == "x";
    if (row["op"] == "stablehlo.collective_permute")
      permuteNamed = row.value("jaxName", "") == "jit(f)/shard_map/ppermute";
  }
  EXPECT_TRUE(argumentNamed);
  EXPECT_TRUE(permuteNamed);
  bool collectiveNamed = false;
  for (const Json& item : data["collectives"]["items"])
    if (item["op"] == "stablehlo.collective_permute")
      collectiveNamed = item.value("jaxName", "") == "jit(f)/shard_map/ppermute";
  EXPECT_TRUE(collectiveNamed);
  // The HTML shows the short name with the full one as its tooltip.
  std::string html = render(*program, Format::Html);
  EXPECT_NE(html.find("<span class=\"jax\" title=\"jit(f)/shard_map/ppermute\">ppermute</span>"),
            std::string::npos);
}

TEST_F(ReportTest, OutputIsByteForByteDeterministic) {
  for (Format format : {Format::Html, Format::Json, Format::Dot, Format::Svg}) {
    auto a = load("resources/examples/shard_map_matmul.mlir");
    auto b = load("resources/examples/shard_map_matmul.mlir");
    EXPECT_EQ(render(*a, format), render(*b, format)) << formatName(format);
  }
}

TEST_F(ReportTest, ConcurrentStagesGiveTheSameBytesAsSequential) {
  // With a task starter the stages are derived on the caller's worker thread while the report
  // collects them; without, everything runs on this thread. The documents must not differ.
  ReportOptions threaded;
  int started = 0;
  threaded.startTask = [&](std::function<void()> work) -> std::function<void()> {
    ++started;
    auto thread = std::make_shared<std::thread>(std::move(work));
    return [thread] { thread->join(); };
  };
  for (Format format : {Format::Html, Format::Json}) {
    auto sequentialProgram = load("resources/examples/mlp_tensor_parallel.mlir");
    auto threadedProgram = load("resources/examples/mlp_tensor_parallel.mlir");
    ASSERT_TRUE(sequentialProgram && threadedProgram);
    EXPECT_EQ(render(*sequentialProgram, format), render(*threadedProgram, format, threaded));
  }
  EXPECT_EQ(started, 2);
}

TEST_F(ReportTest, HtmlIsSelfContained) {
  auto program = load("resources/examples/mlp_tensor_parallel.mlir");
  std::string html = render(*program, Format::Html);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"ss-graph\""), std::string::npos);
  EXPECT_NE(html.find("id=\"value-table\""), std::string::npos);
}

TEST_F(ReportTest, StageDiffListsAddedCollectives) {
  auto program = load("tests/data/session/reshard_chain.mlir");
  ReportOptions options;
  options.diffStages = std::make_pair(session::Stage::Propagated, session::Stage::Partitioned);
  Json data = Json::parse(render(*program, Format::Json, options));
  ASSERT_TRUE(data["diff"].is_object());
  EXPECT_GE(data["diff"]["summary"]["addedCollectives"].get<int>(), 1);
  // The SVG of the target stage marks the added collective.
  EXPECT_NE(render(*program, Format::Svg, options).find("diff-added"), std::string::npos);
}

TEST_F(ReportTest, DiffWithAnotherProgramComparesShardings) {
  auto a = load("resources/examples/mlp_tensor_parallel.mlir");
  auto b = load("resources/examples/mlp_data_parallel.mlir");
  ReportOptions options;
  options.diffWith = b.get();
  Json data = Json::parse(render(*a, Format::Json, options));
  EXPECT_EQ(data["diff"]["to"]["file"], "mlp_data_parallel.mlir");
  EXPECT_TRUE(validate(data.dump()).empty());
}

TEST_F(ReportTest, RunIncludesResultsAndReferenceComparison) {
  auto program = load("tests/data/session/reshard_chain.mlir");
  ReportOptions options;
  options.run = true;
  Json data = Json::parse(render(*program, Format::Json, options));
  ASSERT_TRUE(data["run"].is_object());
  EXPECT_TRUE(data["run"]["ok"].get<bool>()) << data["run"].dump();
  EXPECT_EQ(data["run"]["devices"], 4);
  EXPECT_EQ(data["run"]["results"].size(), 1u);
}

TEST_F(ReportTest, CancelledReportsProduceNothing) {
  auto program = load("resources/examples/shard_map_matmul.mlir");
  std::atomic<bool> cancel{true};
  ReportOptions options;
  options.cancel = &cancel;
  support::CollectingSink sink;
  EXPECT_FALSE(renderReport(*program, options, Format::Html, sink));
  EXPECT_TRUE(sink.hasErrors());
}

TEST_F(ReportTest, FailedWriteLeavesNoPartialFile) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "shardscope_report_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string target = (dir / "missing" / "report.html").string();
  std::string error;
  EXPECT_FALSE(support::writeFileAtomically(target, std::string("<html>"), error));
  EXPECT_FALSE(std::filesystem::exists(target));
  // An existing report is replaced whole, never truncated.
  std::string existing = (dir / "report.json").string();
  ASSERT_TRUE(support::writeFileAtomically(existing, std::string("old"), error));
  ASSERT_TRUE(support::writeFileAtomically(existing, std::string("{\"new\": 1}"), error));
  EXPECT_EQ(readFile(existing), "{\"new\": 1}");
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.is_regular_file();
  EXPECT_EQ(files, 1u); // no temporary left behind
  std::filesystem::remove_all(dir);
}

TEST(ReportFormatTest, FormatsComeFromExtensions) {
  EXPECT_EQ(formatFromPath("out/report.html"), Format::Html);
  EXPECT_EQ(formatFromPath("a.svg"), Format::Svg);
  EXPECT_EQ(formatFromPath("a.gv"), Format::Dot);
  EXPECT_EQ(formatFromPath("a.json"), Format::Json);
  EXPECT_FALSE(formatFromPath("a.txt"));
  EXPECT_FALSE(formatFromPath("dir.d/file"));
}

} // namespace
} // namespace shardscope::report
