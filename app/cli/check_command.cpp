// `shardscope-cli check`: a human summary of a program's meshes, values and shardings.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/import/gspmd/export_shardings.h"
#include "core/ir/attribute.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <cstdio>
#include <span>

namespace shardscope::cli {

namespace {

// One row of a value table: name, typed notation, PartitionSpec, where it comes from, and the
// sharding as XLA's GSPMD string.
struct ValueRow {
  std::string name;
  std::string typed;
  std::string spec;
  std::string origin;
  std::string gspmd;
};

std::string gspmdOf(const LoadedProgram& program, const ir::TensorSharding* sharding,
                    std::span<const std::string> manualAxes = {}) {
  std::string text =
      sharding ? import_::gspmd::gspmdString(*sharding, *program.module, manualAxes) : "";
  return text.empty() ? "-" : text;
}

// JAX's typed form; inside a manual computation `variance` adds its `{V:...}` set to the braces.
std::string typedNotation(ir::Type type, const ir::TensorSharding* sharding,
                          const analysis::VarianceSet* variance = nullptr) {
  if (!type.isTensor())
    return type.str();
  std::vector<std::string> varying = variance ? variance->axes() : std::vector<std::string>{};
  if (sharding)
    return sharding::jaxTypedNotation(*sharding, type, varying);
  std::string out = sharding::jaxDtypeName(type.elementType()) + "[";
  for (size_t d = 0; d < type.shape().size(); ++d) {
    if (d)
      out += ',';
    int64_t size = type.shape()[d];
    out += size == ir::kDynamicSize ? "?" : std::to_string(size);
  }
  return out + "]" + sharding::jaxVaryingUnreducedSuffix(varying, {});
}

// Inside a manual computation the typed notation carries the value's variance, `{V:i,j}`.
ValueRow rowFor(const LoadedProgram& program, const ir::Value& value, std::string origin,
                const analysis::VarianceAnalysis* variance = nullptr) {
  // What the devices hold: a partial result before its reduction says so (`unreduced={'x'}`).
  std::optional<ir::TensorSharding> s = sharding::heldSharding(value);
  const ir::TensorSharding* sharding = s ? &*s : nullptr;
  const analysis::VarianceSet* v = variance ? variance->varianceOf(value) : nullptr;
  return {displayName(program, &value), typedNotation(value.type(), sharding, v),
          sharding ? sharding::partitionSpecNotation(*sharding) : std::string("-"),
          std::move(origin),
          gspmdOf(program, sharding, import_::gspmd::enclosingManualAxes(value))};
}

void printRows(const std::vector<ValueRow>& rows) {
  size_t nameWidth = 0, typedWidth = 0, specWidth = 0, originWidth = 0;
  for (const ValueRow& r : rows) {
    nameWidth = std::max(nameWidth, r.name.size());
    typedWidth = std::max(typedWidth, r.typed.size());
    specWidth = std::max(specWidth, r.spec.size());
    originWidth = std::max(originWidth, r.origin.size());
  }
  for (const ValueRow& r : rows)
    std::printf("    %-*s  %-*s  %-*s  %-*s  %s\n", static_cast<int>(nameWidth), r.name.c_str(),
                static_cast<int>(typedWidth), r.typed.c_str(), static_cast<int>(specWidth),
                r.spec.c_str(), static_cast<int>(originWidth), r.origin.c_str(),
                r.gspmd.c_str());
}

void printMeshes(const ir::Module& module) {
  std::vector<const ir::Operation*> meshes;
  for (const auto& op : module.body().ops())
    if (op->is("sdy.mesh"))
      meshes.push_back(op.get());
  std::printf("meshes: %zu\n", meshes.size());
  for (const ir::Operation* op : meshes) {
    const auto* mesh = op->attr("mesh").as<ir::MeshAttr>();
    std::string text;
    ir::printMesh(mesh->mesh, text);
    sharding::MeshView view(mesh->mesh);
    const char* kind = view.isMaximal() ? "maximal, " : view.isEmpty() ? "empty, " : "";
    std::printf("  @%s = %s  (%s%lld device%s)\n", op->attr("sym_name").as<ir::StringAttr>()->value.c_str(),
                text.c_str(), kind, static_cast<long long>(view.totalSize()),
                view.totalSize() == 1 ? "" : "s");
  }
}

std::string lineOf(const ir::Operation& op) { return "line " + std::to_string(op.loc().line); }

// One row per operand (`in`) or result (`out`) of a manual computation: the body's local value
// with its variance, the in/out sharding, and the global type outside.
void printManualValues(const LoadedProgram& program, const analysis::ManualComputationView& view,
                       const analysis::VarianceAnalysis& variance) {
  const ir::Block& body = view.op->region(0).front();
  std::vector<ValueRow> rows;
  auto add = [&](const analysis::LocalValueView& v, const ir::Value* local, bool in) {
    const analysis::VarianceSet* set = local ? variance.varianceOf(*local) : nullptr;
    std::string typed =
        v.localType && v.localType.isTensor()
            ? sharding::jaxTypedNotation(v.bodySharding, v.localType,
                                         set ? set->axes() : std::vector<std::string>{})
            : v.globalType.str() + (set ? set->str() : "");
    std::string where = std::string(in ? "operand #" : "result #") + std::to_string(v.index) +
                        (in ? " of " : " as ") + typedNotation(v.globalType, &v.sharding);
    rows.push_back({std::string(in ? "  in   " : "  out  ") + displayName(program, local),
                    typed, sharding::partitionSpecNotation(v.sharding),
                    where, gspmdOf(program, &v.sharding)});
  };
  for (const analysis::LocalValueView& v : view.arguments)
    add(v, v.index < body.numArguments() ? body.argument(v.index) : nullptr, /*in=*/true);
  const ir::Operation* ret = body.back();
  for (const analysis::LocalValueView& v : view.results)
    add(v, ret && v.index < ret->numOperands() ? ret->operand(v.index) : nullptr, /*in=*/false);
  printRows(rows);
}

void printManualComputation(const LoadedProgram& program,
                            const analysis::ManualComputationView& view,
                            const analysis::VarianceAnalysis& variance) {
  auto braces = [](const std::vector<std::string>& axes) {
    std::string out = "{";
    for (size_t i = 0; i < axes.size(); ++i)
      out += (i ? ", \"" : "\"") + axes[i] + "\"";
    return out + "}";
  };
  std::printf("    sdy.manual_computation  %s  manual_axes=%s%s%s\n", lineOf(*view.op).c_str(),
              braces(view.manualAxes).c_str(),
              view.freeAxes.empty() ? "" : ("  free_axes=" + braces(view.freeAxes)).c_str(),
              view.parent ? ("  nested in " + lineOf(*view.parent)).c_str() : "");
  printManualValues(program, view, variance);
  std::vector<std::string> collectives, sites;
  for (const analysis::CollectiveUse& use : variance.collectives())
    if (use.manualComputation == view.op) {
      std::string line = lineOf(*use.op) + "  " + std::string(use.op->name()) + "  " +
                         analysis::describeCollective(*use.op, use.kind, use.match);
      // all_gather and all_gather_invariant print alike: say which reading was chosen and why.
      for (const analysis::CollectiveReading& reading : variance.readings())
        if (reading.op == use.op)
          line += "  (read so: " + reading.reason + ")";
      collectives.push_back(std::move(line));
    }
  for (const analysis::PbroadcastSite& site : variance.pbroadcasts())
    if (site.manualComputation == view.op)
      sites.push_back(lineOf(*site.op) + "  " + std::string(site.op->name()) + "  operand #" +
                      std::to_string(site.operandIndex) + "  over " +
                      analysis::quotedAxes(site.axes) + "  (" +
                      analysis::pbroadcastReasonName(site.reason) + ")");
  std::printf("      collectives: %zu\n", collectives.size());
  for (const std::string& line : collectives)
    std::printf("        %s\n", line.c_str());
  std::printf("      implicit pbroadcasts: %zu\n", sites.size());
  for (const std::string& line : sites)
    std::printf("        %s\n", line.c_str());
}

void printManualComputations(const LoadedProgram& program, const ir::Operation& fn,
                             const analysis::VarianceAnalysis& variance) {
  std::vector<const analysis::ManualComputationView*> views;
  for (const analysis::ManualComputationView& view : variance.manualComputations())
    if (view.op->parentOfName("func.func") == &fn)
      views.push_back(&view);
  if (views.empty())
    return;
  std::printf("  manual computations\n");
  for (const analysis::ManualComputationView* view : views)
    printManualComputation(program, *view, variance);
}

void printFunction(const LoadedProgram& program, const ir::Operation& fn,
                   const analysis::VarianceAnalysis& variance) {
  const auto* visibility = fn.attr("sym_visibility").as<ir::StringAttr>();
  std::printf("\nfunc @%s%s\n", std::string(ir::func::name(fn)).c_str(),
              visibility ? (" (" + visibility->value + ")").c_str() : "");
  const ir::Block* body = ir::func::body(fn);
  if (!body) {
    std::printf("  (declaration)\n");
    return;
  }
  std::vector<ValueRow> args;
  for (const auto& arg : body->arguments())
    args.push_back(rowFor(program, *arg, "argument"));
  std::printf("  arguments\n");
  printRows(args);

  std::vector<ValueRow> values;
  static_cast<const ir::Operation&>(fn).walk([&](const ir::Operation& op) {
    if (&op == &fn)
      return;
    std::string origin = std::string(op.name()) + "  line " + std::to_string(op.loc().line);
    for (const auto& result : op.results())
      values.push_back(rowFor(program, *result, origin, &variance));
  });
  std::printf("  values\n");
  if (values.empty())
    std::printf("    (none)\n");
  printRows(values);

  ir::Type type = ir::func::type(fn);
  std::vector<ValueRow> results;
  for (unsigned i = 0; i < type.results().size(); ++i) {
    const ir::DictionaryAttr* attrs = ir::func::resultAttrs(fn, i);
    const auto* s = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr;
    ir::Type t = type.results()[i];
    std::string typed = t.isTensor() && s ? sharding::jaxTypedNotation(s->sharding, t) : t.str();
    results.push_back({"#" + std::to_string(i), typed,
                       s ? sharding::partitionSpecNotation(s->sharding) : std::string("-"),
                       "result", gspmdOf(program, s ? &s->sharding : nullptr)});
  }
  std::printf("  results\n");
  if (results.empty())
    std::printf("    (none)\n");
  printRows(results);
  printManualComputations(program, fn, variance);
}

// Prints the analysis' diagnostics with caret context to stderr and their count to stdout.
// Returns true when one of them is an error.
bool reportDiagnostics(const LoadedProgram& program,
                       const std::vector<support::Diagnostic>& diagnostics) {
  size_t errors = 0, warnings = program.loadWarnings;
  StderrSink sink(program.sources);
  for (const support::Diagnostic& diag : diagnostics) {
    errors += diag.severity == support::Severity::Error;
    warnings += diag.severity == support::Severity::Warning;
    sink.report(diag);
  }
  if (errors + warnings == 0) {
    std::printf("\ndiagnostics: none\n");
    return false;
  }
  std::string counts;
  if (errors)
    counts = std::to_string(errors) + (errors == 1 ? " error" : " errors");
  if (warnings)
    counts += (errors ? ", " : "") + std::to_string(warnings) +
              (warnings == 1 ? " warning" : " warnings");
  std::printf("\ndiagnostics: %s\n", counts.c_str());
  return errors > 0;
}

} // namespace

int runCheck(const std::vector<std::string>& args) {
  std::string file;
  ResourceLimits limits;
  for (size_t i = 0; i < args.size(); ++i) {
    if (std::optional<bool> ok = parseLimitOption(args, i, limits)) {
      if (!*ok)
        return 1;
    } else if (file.empty()) {
      file = args[i];
    } else {
      file.clear();
      break;
    }
  }
  if (file.empty()) {
    std::fprintf(stderr, "shardscope-cli: error: usage: shardscope-cli check FILE "
                         "[--max-devices N]\n");
    return 1;
  }
  std::unique_ptr<LoadedProgram> program = loadProgram(file);
  if (!program)
    return 1;
  {
    // The block maps below visit every device of every mesh.
    StderrSink sink(program->sources);
    if (!checkMeshDevices(*program->module, limits.maxDevices, sink))
      return 1;
  }
  // Variance types, implicit pbroadcasts and the replication check of manual computations; under
  // explicit sharding, the ops JAX would reject while tracing (`types` shows every type).
  StderrSink sink(program->sources);
  const session::StageAnalyses* analyses =
      program->session->analyses(session::Stage::AsWritten, sink);
  if (!analyses || !analyses->shardMaps)
    return 1;
  std::printf("program: %s\n", file.c_str());
  std::printf("form: %s\n", std::string(session::inputFormDescription(program->form)).c_str());
  printMeshes(*program->module);
  for (const ir::Operation* fn : program->module->functions())
    printFunction(*program, *fn, analyses->shardMaps->variance);
  std::fflush(stdout);
  return reportDiagnostics(*program, analyses->diagnostics) ? 1 : 0;
}

} // namespace shardscope::cli
