// `shardscope-cli grad FILE --wrt ARGS` and `shardscope-cli transpose FILE --linear-in ARGS`:
// build the gradient (or transpose) of a function with the variance-aware collective rules of
// the "efficient transpose" design (or the naive ones with --naive), print it, list its
// collectives with their cost, and compare with the other rules.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"

#include "core/io/mlir/mlir.h"
#include "core/session/program.h"
#include "core/session/transforms.h"
#include "core/support/format_bytes.h"

#include <cstdio>
#include <map>

namespace shardscope::cli {

namespace {

using session::Transform;

struct AutodiffOptions {
  std::string file;
  std::string function;
  std::vector<std::string> arguments;
  bool argumentsGiven = false;
  bool naive = false;
};

const char* usage(Transform t) {
  return t == Transform::Grad
             ? "usage: shardscope-cli grad FILE --wrt ARGS [--function F] [--naive]\n"
             : "usage: shardscope-cli transpose FILE --linear-in ARGS [--function F] [--naive]\n";
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty())
      out.push_back(item);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

bool parseArgs(Transform t, const std::vector<std::string>& args, AutodiffOptions& o) {
  std::string flag = t == Transform::Grad ? "--wrt" : "--linear-in";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (a.size() > flag.size() && a.starts_with(flag + "=")) {
        out = a.substr(flag.size() + 1);
        return true;
      }
      if (i + 1 >= args.size())
        return false;
      out = args[++i];
      return true;
    };
    std::string text;
    if (a == flag || a.starts_with(flag + "=")) {
      if (!value(text)) {
        std::fprintf(stderr, "shardscope-cli: error: %s needs a value\n%s", flag.c_str(), usage(t));
        return false;
      }
      for (std::string& item : splitList(text))
        o.arguments.push_back(item);
      o.argumentsGiven = true;
    } else if (a == "--function" && i + 1 < args.size()) {
      o.function = args[++i];
    } else if (a == "--naive") {
      o.naive = true;
    } else if (o.file.empty() && (a == "-" || !a.starts_with("-"))) {
      o.file = a;
    } else {
      std::fprintf(stderr, "shardscope-cli: error: unexpected argument '%s'\n%s", a.c_str(),
                   usage(t));
      return false;
    }
  }
  if (o.file.empty() || !o.argumentsGiven) {
    std::fprintf(stderr, "shardscope-cli: error: missing %s\n%s",
                 o.file.empty() ? "FILE" : flag.c_str(), usage(t));
    return false;
  }
  return true;
}

// The printed text of function `name` of `module` (the module printer's output for it).
std::string printFunction(const ir::Module& module, std::string_view name) {
  std::string text = io::mlir::printModule(module);
  size_t start = std::string::npos;
  for (std::string_view prefix : {"  func.func @", "  func.func private @"}) {
    std::string header = std::string(prefix) + std::string(name) + "(";
    size_t at = text.find(header);
    if (at != std::string::npos && (at == 0 || text[at - 1] == '\n'))
      start = at;
  }
  if (start == std::string::npos)
    return "";
  size_t end = text.find("\n  }\n", start);
  std::string body =
      text.substr(start, end == std::string::npos ? std::string::npos : end + 4 - start);
  // Un-indent by the module's two spaces.
  std::string out;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t nl = body.find('\n', pos);
    std::string line = body.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
    out += line.starts_with("  ") ? line.substr(2) : line;
    if (nl == std::string::npos)
      break;
    pos = nl + 1;
  }
  return out;
}

std::string locText(support::SourceLocation loc) {
  return loc.isValid() ? std::to_string(loc.line) + ":" + std::to_string(loc.column) : "?";
}

std::string joinAxes(const std::vector<std::string>& axes) {
  std::string out;
  for (const std::string& axis : axes)
    out += (out.empty() ? "" : ",") + axis;
  return out.empty() ? "-" : out;
}

std::string axisTotals(const analysis::CostSummary& costs) {
  std::string out = support::formatBytes(costs.totalBytesSent);
  for (const analysis::AxisTraffic& axis : costs.perAxis)
    out += "; " + axis.axis + " " + support::formatBytes(axis.bytesSent);
  return out;
}

// The op of the source function each new op came from: the one at the same location.
std::map<std::pair<uint32_t, uint32_t>, std::string> sourceOps(const ir::Operation& fn) {
  std::map<std::pair<uint32_t, uint32_t>, std::string> out;
  fn.walk([&](const ir::Operation& op) {
    if (op.loc().isValid())
      out.emplace(std::make_pair(op.loc().line, op.loc().column), std::string(op.name()));
  });
  return out;
}

void printCollectives(const analysis::CostSummary& costs, const ir::Operation& source) {
  auto from = sourceOps(source);
  if (costs.collectives.empty()) {
    std::printf("  (none)\n");
    return;
  }
  std::printf("  %-8s %-28s %-8s %6s %12s  %s\n", "loc", "op", "axes", "group", "sent", "from");
  for (const analysis::CollectiveCost& cost : costs.collectives) {
    std::string op(cost.op->name());
    if (cost.op->hasAttr("shardscope.all_gather_invariant"))
      op += " (invariant)";
    auto it = from.find({cost.op->loc().line, cost.op->loc().column});
    std::string origin =
        it == from.end() ? "" : "'" + it->second + "' at " + locText(cost.op->loc());
    std::printf("  %-8s %-28s %-8s %6lld %12s  %s\n", locText(cost.op->loc()).c_str(), op.c_str(),
                joinAxes(cost.axes).c_str(), static_cast<long long>(cost.groupSize),
                support::formatBytes(cost.bytesSent).c_str(), origin.c_str());
  }
}

void printTotals(const char* label, const analysis::CostSummary& costs) {
  std::string axes;
  for (const analysis::AxisTraffic& axis : costs.perAxis)
    axes += (axes.empty() ? "" : ", ") + axis.axis + " " + std::to_string(axis.bytesSent) + " B";
  size_t n = costs.collectives.size();
  std::printf("  %-10s %2zu collective%s %8lld B%s\n", label, n, n == 1 ? " " : "s",
              static_cast<long long>(costs.totalBytesSent),
              axes.empty() ? "" : ("  (" + axes + ")").c_str());
}

// Partitioning inserts collectives outside manual computations: when it adds any to the two
// functions, print their totals.
void printPartitioned(const session::TransformResult& result, size_t written) {
  session::PartitionedCosts p = result.partitionedCosts();
  if (!p.partitioned) {
    std::printf("\nafter partitioning: the module does not partition%s%s\n",
                p.error.empty() ? "" : ": ", p.error.c_str());
    return;
  }
  if (p.efficient.collectives.size() + p.naive.collectives.size() == written)
    return;
  std::printf("\nafter partitioning (with the collectives the partitioner inserts):\n");
  printTotals("efficient", p.efficient);
  printTotals("naive", p.naive);
}

// Prints located diagnostics with their source line and caret, the others (no function, ...) as
// `shardscope-cli: error: ...`.
class CommandSink final : public support::DiagnosticSink {
public:
  explicit CommandSink(const support::SourceManager& sources) : m_located(sources) {}
  void report(support::Diagnostic d) override {
    m_failed = m_failed || d.severity == support::Severity::Error;
    if (d.loc.isValid())
      m_located.report(std::move(d));
    else
      std::fprintf(stderr, "shardscope-cli: %s: %s\n", support::severityName(d.severity),
                   d.message.c_str());
  }
  bool failed() const { return m_failed; }

private:
  StderrSink m_located;
  bool m_failed = false;
};

int runAutodiff(Transform t, const std::vector<std::string>& args) {
  AutodiffOptions o;
  if (!parseArgs(t, args, o))
    return 1;
  std::unique_ptr<LoadedProgram> program = loadProgram(o.file);
  if (!program)
    return 1;
  CommandSink tracking(program->sources);
  session::TransformRequest request;
  request.kind = t;
  request.function = o.function;
  request.arguments = o.arguments;
  request.naive = o.naive;
  std::optional<session::TransformResult> result =
      session::transformFunction(*program->session, request, tracking);
  if (!result || tracking.failed())
    return 1;
  const ir::Module& module = *result->module;
  std::string name(ir::func::name(*result->function));
  std::string otherName(ir::func::name(*result->compared));
  std::string what = t == Transform::Grad ? "gradient" : "transpose";
  std::string wrtText;
  const ir::Block& body = *ir::func::body(*result->source);
  for (unsigned j : result->arguments) {
    const std::string& hint = body.argument(j)->nameHint();
    wrtText +=
        (wrtText.empty() ? "" : ", ") + (hint.empty() ? "#" + std::to_string(j) : "%" + hint);
  }
  std::printf("// %s of @%s with respect to %s (%s rules)\n", what.c_str(),
              std::string(ir::func::name(*result->source)).c_str(), wrtText.c_str(),
              autodiff::collectiveRulesName(result->rules));
  std::string printed = printFunction(module, name);
  std::fwrite(printed.data(), 1, printed.size(), stdout);
  const analysis::CostSummary& costs = result->costs;
  std::printf("\ncollectives of @%s (ring model, bytes sent per device):\n", name.c_str());
  printCollectives(costs, *result->source);
  std::printf("total: %s\n", axisTotals(costs).c_str());
  const analysis::CostSummary& efficient = result->efficientCosts();
  const analysis::CostSummary& naive = result->naiveCosts();
  std::printf("\ncompared with the %s rules (@%s), bytes sent per device:\n",
              autodiff::collectiveRulesName(result->otherRules), otherName.c_str());
  printTotals("efficient", efficient);
  printTotals("naive", naive);
  int64_t saved = naive.totalBytesSent - efficient.totalBytesSent;
  long long fewer = static_cast<long long>(naive.collectives.size()) -
                    static_cast<long long>(efficient.collectives.size());
  std::string count;
  if (fewer != 0)
    count = std::to_string(fewer > 0 ? fewer : -fewer) + (fewer > 0 ? " fewer" : " more") +
            " collective" + (fewer == 1 || fewer == -1 ? "" : "s");
  if (saved > 0)
    std::printf("the efficient rules save %lld B per device%s\n", static_cast<long long>(saved),
                count.empty() ? "" : (" and run " + count).c_str());
  else if (saved < 0)
    std::printf("the efficient rules send %lld B more per device%s\n",
                static_cast<long long>(-saved), count.empty() ? "" : (" and run " + count).c_str());
  else if (!count.empty())
    std::printf("the efficient rules run %s (the same bytes under the ring model)\n",
                count.c_str());
  else
    std::printf("both rules run the same collectives\n");
  printPartitioned(*result, efficient.collectives.size() + naive.collectives.size());
  return 0;
}

} // namespace

int runGrad(const std::vector<std::string>& args) { return runAutodiff(Transform::Grad, args); }

int runTranspose(const std::vector<std::string>& args) {
  return runAutodiff(Transform::Transpose, args);
}

} // namespace shardscope::cli
