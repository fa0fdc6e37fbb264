// The report document: program summary, meshes, stages with their graphs, values, collectives,
// diagnostics, and optionally a diff and a run.
#include "core/report/detail/report_model.h"


#include "core/analysis/collective_cost.h"
#include "core/analysis/shard_map_analysis.h"
#include "core/import/gspmd/export_shardings.h"
#include "core/session/execution.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <functional>
#include <mutex>
#include <utility>

namespace shardscope::report::detail {

using Json = nlohmann::ordered_json;

namespace {

std::string baseName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

Json locJson(support::SourceLocation loc) {
  if (!loc.isValid())
    return nullptr;
  return Json{{"line", loc.line}, {"column", loc.column}};
}

int64_t countOps(const ir::Module& module) {
  int64_t count = 0;
  for (const ir::Operation* fn : module.functions())
    static_cast<const ir::Operation*>(fn)->walk([&](const ir::Operation& op) {
      count += &op != fn && !op.name().ends_with("return");
    });
  return count;
}

// The most devices a mesh lists in the report document.
constexpr int64_t kMaxListedDevices = 4096;

Json meshesJson(const ir::Module& module) {
  Json meshes = Json::array();
  for (const auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh"))
      continue;
    const auto* attr = op->attr("mesh").as<ir::MeshAttr>();
    const auto* name = op->attr("sym_name").as<ir::StringAttr>();
    if (!attr || !name)
      continue;
    sharding::MeshView view(attr->mesh);
    Json axes = Json::array();
    for (const ir::MeshAxis& axis : attr->mesh.axes)
      axes.push_back({{"name", axis.name}, {"size", axis.size}});
    // The first devices only: a pod-sized mesh would otherwise put millions of entries in the
    // document (the HTML shows fewer still); `deviceCount` says how many there are.
    Json devices = Json::array();
    int64_t listed = std::min<int64_t>(view.totalSize(), kMaxListedDevices);
    for (int64_t p = 0; p < listed; ++p)
      devices.push_back({{"id", view.deviceIdAt(p)}, {"coordinates", view.coordinatesAt(p)}});
    meshes.push_back({{"name", name->value},
                      {"axes", axes},
                      {"deviceCount", view.totalSize()},
                      {"devices", devices}});
  }
  return meshes;
}

Json valueRow(const ir::Module& module, const std::string& function, const std::string& name,
              const std::string& op, support::SourceLocation loc, const ir::Value& value,
              const analysis::VarianceAnalysis& variance, const std::string& jaxName) {
  // What the devices hold: a partial result before its reduction says so (`unreduced={'x'}`).
  std::optional<ir::TensorSharding> scratch;
  const ir::TensorSharding* s = sharding::heldShardingRef(value, scratch);
  const analysis::VarianceSet* v = variance.varianceOf(value);
  Json row{{"function", function},
              {"name", name},
              {"op", op},
              {"loc", locJson(loc)},
              {"type", value.type().str()},
              {"typed", s && s->dims.size() == static_cast<size_t>(value.type().rank())
                            ? sharding::jaxTypedNotation(*s, value.type(),
                                                         v ? v->axes() : std::vector<std::string>{})
                            : layout::typedLabel(value) + (v ? v->str() : "")},
              {"partitionSpec", s ? sharding::partitionSpecNotation(*s) : ""},
              {"shardy", s ? sharding::shardyNotation(*s) : ""},
              {"gspmd", s ? import_::gspmd::gspmdString(
                                *s, module, import_::gspmd::enclosingManualAxes(value))
                          : ""},
              {"variance", v ? v->str() : ""}};
  if (!jaxName.empty())
    row["jaxName"] = jaxName;
  return row;
}

// Every value of `module`; only the first `maxRows` rows are kept (`rowCount` counts all).
Json valuesJson(const ir::Module& module, session::Stage stage, size_t maxRows,
                AnalysisCache& cache) {
  const analysis::ShardMapAnalysis& shardMaps = cache.shardMaps(module);
  Json rows = Json::array();
  size_t count = 0;
  static const std::string unknown = "%<<UNKNOWN SSA VALUE>>";
  for (const ir::Operation* fn : module.functions()) {
    const ir::Block* body = ir::func::body(*fn);
    if (!body)
      continue;
    if (count >= maxRows) {
      // Past the table's rows: only count.
      count += body->numArguments();
      fn->walk([&](const ir::Operation& op) { count += &op == fn ? 0 : op.numResults(); });
      continue;
    }
    std::string fname(ir::func::name(*fn));
    const AnalysisCache::ValueNames& names = cache.functionNames(*fn);
    auto add = [&](const ir::Value& value, std::string_view op, support::SourceLocation loc) {
      if (count++ >= maxRows)
        return;
      auto it = names.find(&value);
      rows.push_back(valueRow(module, fname, it == names.end() ? unknown : it->second,
                              std::string(op), loc, value, shardMaps.variance,
                              module.jaxName(value)));
    };
    for (const auto& arg : body->arguments())
      add(*arg, "argument", fn->loc());
    fn->walk([&](const ir::Operation& op) {
      if (&op == fn)
        return;
      for (const auto& result : op.results())
        add(*result, op.name(), op.loc());
    });
  }
  return Json{{"stage", session::stageName(stage)}, {"rowCount", count}, {"rows", rows}};
}

Json axesJson(const std::vector<analysis::AxisTraffic>& perAxis) {
  Json out = Json::array();
  for (const analysis::AxisTraffic& t : perAxis)
    out.push_back({{"axis", t.axis}, {"bytesSent", t.bytesSent}});
  return out;
}

// Collectives and implicit pbroadcasts of `module`; only the first `maxRows` are listed, `counts`
// and the byte totals cover all.
Json collectivesJson(session::Program& program, const ir::Module& module, session::Stage stage,
                     size_t maxRows, AnalysisCache& cache) {
  const analysis::CostSummary& costs = cache.costs(module);
  Json items = Json::array();
  std::map<std::pair<uint32_t, uint32_t>, int> positions;
  std::map<std::string, int64_t> counts{{"explicit", 0}, {"inserted", 0},
                                        {"implicit-pbroadcast", 0}};
  for (const analysis::CollectiveCost& cost : costs.collectives) {
    support::SourceLocation loc = cost.op->loc();
    int k = positions[{loc.line, loc.column}]++;
    std::string id = (loc.isValid() ? "L" + std::to_string(loc.line) + "C" +
                                          std::to_string(loc.column)
                                    : std::string("op")) +
                     ":collective#" + std::to_string(k);
    session::Program::CollectiveCause cause;
    if (stage == session::Stage::Partitioned)
      cause = program.causeOf(*cost.op);
    else
      cause.why = "written in the program";
    ++counts[cause.inserted ? "inserted" : "explicit"];
    if (items.size() >= maxRows)
      continue;
    const ir::Operation* fn = cost.op->parentOfName("func.func");
    items.push_back({{"id", id},
                     {"category", cause.inserted ? "inserted" : "explicit"},
                     {"op", cost.op->name()},
                     {"function", fn ? std::string(ir::func::name(*fn)) : ""},
                     {"loc", locJson(loc)},
                     {"kind", cost.kind},
                     {"axes", cost.axes},
                     {"groupSize", cost.groupSize},
                     {"numGroups", cost.numGroups},
                     {"bytesSent", cost.bytesSent},
                     {"bytesReceived", cost.bytesReceived},
                     {"perAxis", axesJson(cost.perAxis)},
                     {"why", cause.why},
                     {"note", cost.note}});
    if (std::string jaxName = module.jaxName(*cost.op); !jaxName.empty())
      items.back()["jaxName"] = jaxName;
  }
  const analysis::ShardMapAnalysis& shardMaps = cache.shardMaps(module);
  for (const analysis::PbroadcastSite& site : shardMaps.variance.pbroadcasts()) {
    ++counts["implicit-pbroadcast"];
    if (items.size() >= maxRows)
      continue;
    const ir::Operation* fn = site.op->parentOfName("func.func");
    std::string axes = analysis::quotedAxes(site.axes);
    support::SourceLocation loc = site.op->loc();
    std::string id = (loc.isValid() ? "L" + std::to_string(loc.line) + "C" +
                                          std::to_string(loc.column)
                                    : std::string("op")) +
                     ":pvary" + std::to_string(site.operandIndex);
    items.push_back({{"id", id},
                     {"category", "implicit-pbroadcast"},
                     {"op", "pbroadcast"},
                     {"function", fn ? std::string(ir::func::name(*fn)) : ""},
                     {"loc", locJson(loc)},
                     {"kind", "pbroadcast"},
                     {"axes", site.axes},
                     {"groupSize", 1},
                     {"numGroups", 1},
                     {"bytesSent", 0},
                     {"bytesReceived", 0},
                     {"perAxis", Json::array()},
                     {"why", "implicit pbroadcast (" +
                                 std::string(analysis::pbroadcastReasonName(site.reason)) +
                                 ") of operand #" + std::to_string(site.operandIndex) + " of '" +
                                 std::string(site.op->name()) + "' over " + axes +
                                 ": JAX inserts a free pvary, no communication"},
                     {"note", ""}});
  }
  Json byCategory;
  for (const auto& [category, n] : counts)
    byCategory[category] = n;
  return Json{{"stage", session::stageName(stage)},
              {"counts", byCategory},
              {"items", items},
              {"totalBytesSent", costs.totalBytesSent},
              {"perAxis", axesJson(costs.perAxis)}};
}

Json diagnosticJson(const session::Program& program, const support::Diagnostic& d) {
  Json out{{"severity", support::severityName(d.severity)},
           {"message", d.message},
           {"loc", locJson(d.loc)},
           {"source", d.loc.isValid() ? std::string(program.sources().lineText(d.loc.fileId,
                                                                                d.loc.line))
                                      : std::string()}};
  return out;
}

Json runJson(session::Program& program, const ReportOptions& options) {
  support::CollectingSink sink;
  session::ExecutionOptions exec;
  exec.function = options.function;
  exec.checkReference = true;
  Json out{{"ok", false}};
  auto fail = [&](Json& o) {
    Json errors = Json::array();
    for (const support::Diagnostic& d : sink.diagnostics())
      errors.push_back(diagnosticJson(program, d));
    o["errors"] = errors;
    return o;
  };
  auto execution = session::Execution::create(program, exec, sink);
  if (!execution || !execution->setInputs(session::InputSpec{}) || !execution->start())
    return fail(out);
  session::StopReason reason = execution->runToEnd();
  out["function"] = std::string(ir::func::name(execution->function()));
  out["stage"] = "per-device";
  out["devices"] = execution->numDevices();
  out["inputs"] = "iota";
  out["steps"] = execution->steps();
  out["status"] = std::string(session::stopReasonName(reason));
  Json inputs = Json::array();
  for (const exec::Tensor& t : execution->inputs())
    inputs.push_back(t.str(8));
  out["inputValues"] = inputs;
  std::string error;
  Json results = Json::array();
  if (reason == session::StopReason::Finished)
    if (auto values = execution->globalResults(error))
      for (const exec::Tensor& t : *values)
        results.push_back(t.str(8));
  out["results"] = results;
  out["reference"] = execution->referenceSummary();
  Json divergences = Json::array();
  for (const session::Divergence& d : execution->divergences())
    divergences.push_back({{"op", d.op ? std::string(d.op->name()) : ""},
                           {"loc", d.op ? locJson(d.op->loc()) : Json(nullptr)},
                           {"result", d.result},
                           {"kind", d.kind},
                           {"devices", d.devices},
                           {"message", d.message}});
  out["divergences"] = divergences;
  out["ok"] = reason == session::StopReason::Finished && execution->divergences().empty();
  return fail(out);
}

std::vector<session::Stage> stagesOf(const ReportOptions& options) {
  if (!options.stages.empty())
    return options.stages;
  return {session::kStages.begin(), session::kStages.end()};
}

// The graph of one stage of a report, built by the report's thread or by the worker.
struct GraphTask {
  static constexpr int kUnclaimed = 0, kCaller = 1, kWorker = 2;
  std::atomic<int> owner{kUnclaimed};
  StageGraph graph;
  support::CollectingSink sink;
  bool ok = false;
  bool done = false; ///< set (under the tasks' mutex) when the worker has built it
};

// Derives the stages of a report on a worker (a task started through `ReportOptions::startTask`,
// on a thread the caller owns), in the order the report asks for them,
// while the caller collects each stage as soon as it exists (each stage is a clone of the previous
// one plus its passes, so they derive one after another; the report of one stage overlaps the
// derivation of the next). Only the worker calls `Program::stage` for a stage it has not
// published yet; the caller reads published stages, which no longer change. Diagnostics of each
// derivation are handed to the caller with its stage, in order, so the report is the same as
// deriving on demand. When a derivation fails the worker stops, and the caller derives that stage
// and the following ones itself, exactly as without the worker. Once every stage is derived the
// worker can go on with other work of the report (`then`).
class StageDeriver {
public:
  /// `then` runs on the worker once every stage is derived (not when a derivation fails).
  /// Without `startTask` there is no worker: the caller derives every stage on demand.
  StageDeriver(session::Program& program, const std::vector<session::Stage>& stages,
               const std::atomic<bool>* cancel, const TaskStarter& startTask,
               std::function<void()> then = {})
      : m_program(program), m_stages(stages), m_cancel(cancel), m_sinks(stages.size()),
        m_then(std::move(then)) {
    // Only the linear stages (as written → propagated → partitioned → per device), and only
    // when there is something to overlap.
    bool linear = stages.size() > 1;
    for (session::Stage stage : stages)
      linear = linear && !session::isGradientStage(stage);
    if (linear && startTask) {
      m_threaded = true;
      m_wait = startTask([this] { run(); });
    }
  }
  ~StageDeriver() { finish(); }

  /// Waits until stage `i` of the list is derived (or the worker stopped before it) and moves the
  /// diagnostics of its derivation to `sink`.
  void wait(size_t i, support::DiagnosticSink& sink) {
    if (!m_threaded)
      return;
    std::unique_lock lock(m_mutex);
    m_ready.wait(lock, [&] { return m_published > i || m_done; });
    if (m_published > i)
      for (const support::Diagnostic& d : m_sinks[i].diagnostics())
        sink.report(d);
    // Else the worker stopped before stage `i`: the caller derives it and the rest itself.
  }

  /// True when `stage` (a linear stage) is known to be derived, so reading it is safe.
  bool derived(session::Stage stage) {
    if (session::isGradientStage(stage))
      return false;
    std::lock_guard lock(m_mutex);
    return m_furthest >= static_cast<int>(stage);
  }

  /// Waits for the worker (once; later calls return at once).
  void finish() {
    if (m_wait)
      std::exchange(m_wait, nullptr)();
  }

private:
  void run() {
    bool all = true;
    for (size_t i = 0; i < m_stages.size(); ++i) {
      all = !(m_cancel && m_cancel->load(std::memory_order_relaxed)) &&
            m_program.stage(m_stages[i], m_sinks[i]);
      if (!all)
        break;
      std::lock_guard lock(m_mutex);
      m_published = i + 1;
      m_furthest = std::max(m_furthest, static_cast<int>(m_stages[i]));
      m_ready.notify_all();
    }
    {
      std::lock_guard lock(m_mutex);
      m_done = true;
      m_ready.notify_all();
    }
    if (all && m_then)
      m_then();
  }

  session::Program& m_program;
  const std::vector<session::Stage>& m_stages;
  const std::atomic<bool>* m_cancel;
  std::vector<support::CollectingSink> m_sinks;
  std::function<void()> m_then;
  std::function<void()> m_wait; ///< waits for the worker; empty without one, or once waited for
  std::mutex m_mutex;
  std::condition_variable m_ready;
  size_t m_published = 0;
  int m_furthest = -1;
  bool m_done = false;
  bool m_threaded = false;
};

} // namespace

bool buildReportModel(session::Program& program, const ReportOptions& options, LayoutNeed need,
                      ReportModel& model, support::DiagnosticSink& sink) {
  const ir::Module& written = program.asWritten();
  std::string function = pickFunction(written, options.function);
  if (function.empty()) {
    sink.error({}, options.function.empty() ? "the program has no function"
                                            : "no function '" + options.function + "'");
    return false;
  }
  Json& data = model.data;
  data["schemaVersion"] = kSchemaVersion;
  data["generator"] = "shardscope-cli report";
  Json functions = Json::array();
  for (const ir::Operation* fn : written.functions())
    functions.push_back(std::string(ir::func::name(*fn)));
  data["program"] = {{"file", baseName(program.path())},
                     {"function", function},
                     {"functions", functions},
                     {"opCount", countOps(written)},
                     {"inputForm", std::string(session::inputFormName(program.inputForm()))}};
  data["meshes"] = meshesJson(written);
  // Placeholders fix the key order of the document (the schema's order).
  for (const char* key : {"stages", "values", "collectives", "diagnostics", "diff", "run"})
    data[key] = nullptr;

  support::CollectingSink diagnostics;
  analysis::analyzeShardMaps(written, diagnostics);
  AnalysisCache cache;
  std::vector<session::Stage> list = stagesOf(options);

  // Stage graphs are built by whichever thread gets to them first: this one in stage order, the
  // worker, once it has derived every stage, from the last stage backwards (the later stages are
  // the larger ones). Graphs are pure functions of their stage, so the report is the same either
  // way. Layout (Graphviz) stays on this thread.
  std::vector<GraphTask> tasks(list.size());
  std::mutex tasksMutex;
  std::condition_variable taskDone;
  auto buildTask = [&](size_t i) {
    GraphTask& t = tasks[i];
    t.ok = buildStageGraph(program, list[i], function, options, t.graph, t.sink, cache);
  };
  auto workerBuilds = [&] {
    for (size_t i = list.size(); i-- > 0;) {
      int unclaimed = GraphTask::kUnclaimed;
      if ((options.cancel && options.cancel->load()) ||
          !tasks[i].owner.compare_exchange_strong(unclaimed, GraphTask::kWorker))
        return; // this thread has reached stage i: it builds the rest itself
      buildTask(i);
      std::lock_guard lock(tasksMutex);
      tasks[i].done = true;
      taskDone.notify_all();
    }
  };
  StageDeriver deriver(program, list, options.cancel, options.startTask, workerBuilds);

  // Values of the propagated stage and collectives of the partitioned one, unless one stage was
  // asked for: then that stage's (collectives of the per-device stage are priced globally). They
  // are collected as soon as their stage exists (while the worker derives the next one), else
  // after the stages.
  support::CollectingSink ignored;
  bool one = options.stages.size() == 1;
  session::Stage valueStage = one ? options.stages[0] : session::Stage::Propagated;
  session::Stage collectiveStage =
      one && options.stages[0] != session::Stage::PerDevice ? options.stages[0]
                                                            : session::Stage::Partitioned;
  size_t rows = need == LayoutNeed::All ? options.maxTableRows : SIZE_MAX;
  bool valuesDone = false, collectivesDone = false;
  auto tables = [&](bool all) {
    if (!valuesDone && (all || deriver.derived(valueStage))) {
      const ir::Module* valueModule = program.stage(valueStage, ignored);
      data["values"] = valuesJson(valueModule ? *valueModule : written,
                                  valueModule ? valueStage : session::Stage::AsWritten, rows,
                                  cache);
      valuesDone = true;
    }
    if (!collectivesDone && (all || deriver.derived(collectiveStage))) {
      const ir::Module* collectiveModule = program.stage(collectiveStage, ignored);
      data["collectives"] = collectivesJson(program, collectiveModule ? *collectiveModule : written,
                                            collectiveModule ? collectiveStage
                                                             : session::Stage::AsWritten,
                                            rows, cache);
      collectivesDone = true;
    }
  };

  Json stages = Json::array();
  for (size_t i = 0; i < list.size(); ++i) {
    session::Stage stage = list[i];
    if (options.cancel && options.cancel->load()) {
      sink.error({}, "report cancelled");
      return false;
    }
    support::CollectingSink stageSink;
    deriver.wait(i, stageSink);
    GraphTask& task = tasks[i];
    if (int unclaimed = GraphTask::kUnclaimed;
        task.owner.compare_exchange_strong(unclaimed, GraphTask::kCaller)) {
      buildTask(i);
    } else {
      std::unique_lock lock(tasksMutex);
      taskDone.wait(lock, [&] { return task.done; });
    }
    StageGraph graph = std::move(task.graph);
    bool ok = task.ok;
    for (const support::Diagnostic& d : stageSink.diagnostics())
      diagnostics.report(d);
    for (const support::Diagnostic& d : task.sink.diagnostics())
      diagnostics.report(d);
    if (ok && need == LayoutNeed::All)
      layoutStageGraph(graph, options);
    const ir::Module* module = program.stage(stage, stageSink);
    Json s{{"name", session::stageName(stage)}, {"ok", ok}};
    if (module)
      s["opCount"] = countOps(*module);
    if (ok)
      s["graph"] = nullptr; // filled below, after a diff may have marked nodes
    model.graphs.push_back(std::move(graph));
    stages.push_back(std::move(s));
    tables(false);
  }
  deriver.finish();
  tables(true);
  Json diags = Json::array();
  for (const support::Diagnostic& d : program.loadDiagnostics())
    diags.push_back(diagnosticJson(program, d));
  for (const support::Diagnostic& d : diagnostics.diagnostics())
    diags.push_back(diagnosticJson(program, d));
  data["diagnostics"] = diags;

  data["diff"] = nullptr;
  if (options.diffStages || options.diffWith) {
    session::Stage fromStage = options.diffStages ? options.diffStages->first
                                                  : options.graphStage;
    session::Stage toStage = options.diffStages ? options.diffStages->second
                                                : options.graphStage;
    session::Program& other = options.diffWith ? *options.diffWith : program;
    StageGraph from, to;
    std::string otherFunction = pickFunction(other.asWritten(), options.function);
    if (!buildStageGraph(program, fromStage, function, options, from, sink, cache) ||
        !buildStageGraph(other, toStage, otherFunction.empty() ? function : otherFunction,
                         options, to, sink))
      return false;
    Json diff = diffGraphs(from, to);
    data["diff"] = {{"from", {{"file", baseName(program.path())}, {"stage", session::stageName(fromStage)}}},
                    {"to", {{"file", baseName(other.path())}, {"stage", session::stageName(toStage)}}},
                    {"summary", diff["summary"]},
                    {"changes", diff["changes"]}};
    // The stage graph of the target (same program) shows what changed.
    if (!options.diffWith)
      for (StageGraph& g : model.graphs)
        if (g.ok && g.stage == toStage)
          markDiff(diff, g);
  }
  for (size_t i = 0; i < model.graphs.size(); ++i)
    if (model.graphs[i].ok)
      stages[i]["graph"] = graphJson(model.graphs[i]);
  data["stages"] = std::move(stages);
  data["run"] = options.run ? runJson(program, options) : Json(nullptr);
  return true;
}

} // namespace shardscope::report::detail
