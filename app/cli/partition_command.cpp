// `shardscope-cli partition FILE`: lowers a sharded program to the code each device runs, and
// lists every collective — written in the program or inserted by partitioning — with why it is
// there and what it costs under the ring model.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/io/mlir/mlir.h"
#include "core/session/program.h"
#include "core/support/format_bytes.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace shardscope::cli {

namespace {

struct PartitionOptions {
  std::string file;
  bool printProgram = true;
  io::mlir::ValueNames names = io::mlir::ValueNames::Numbered;
  bool propagate = true;
};

std::string locText(support::SourceLocation loc) {
  if (!loc.isValid())
    return "?";
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items)
    out += (out.empty() ? "" : ",") + item;
  return out.empty() ? "-" : out;
}

// The collectives table: one row per collective, the columns but the last padded to their
// widest entry. The last column (why the collective is there, often a few hundred characters)
// needs no width, so it is formatted as each row is printed: a program with hundreds of thousands
// of inserted collectives never holds its table.
void printTable(const session::Program& program, const analysis::CostSummary& costs) {
  constexpr size_t kColumns = 7;
  constexpr std::array<bool, kColumns> right = {false, false, false, true, true, true, true};
  auto cellsOf = [](const analysis::CollectiveCost& cost) -> std::array<std::string, kColumns> {
    return {locText(cost.op->loc()),        std::string(cost.op->name()),
            join(cost.axes),                std::to_string(cost.groupSize),
            std::to_string(cost.numGroups), support::formatBytes(cost.bytesSent),
            support::formatBytes(cost.bytesReceived)};
  };
  const std::array<std::string, kColumns> header = {"loc",    "op",   "axes",    "group",
                                                    "groups", "sent", "received"};
  std::array<size_t, kColumns> widths{};
  auto widen = [&](const std::array<std::string, kColumns>& cells) {
    for (size_t c = 0; c < kColumns; ++c)
      widths[c] = std::max(widths[c], cells[c].size());
  };
  widen(header);
  for (const analysis::CollectiveCost& cost : costs.collectives)
    widen(cellsOf(cost));
  std::string line;
  auto printRow = [&](const std::array<std::string, kColumns>& cells, const std::string& why) {
    line.assign(" ");
    for (size_t c = 0; c < kColumns; ++c) {
      size_t pad = widths[c] - cells[c].size();
      line += ' ';
      if (right[c])
        line.append(pad, ' ');
      line += cells[c];
      if (!right[c])
        line.append(pad, ' ');
    }
    line += "  ";
    line += why;
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stdout);
  };
  std::printf("collectives (ring model, bytes per device):\n");
  printRow(header, "why");
  for (const analysis::CollectiveCost& cost : costs.collectives) {
    std::string reason = program.causeOf(*cost.op).why;
    if (!cost.note.empty())
      reason += " (" + cost.note + ")";
    printRow(cellsOf(cost), reason);
  }
  std::printf("total sent per device: %s", support::formatBytes(costs.totalBytesSent).c_str());
  for (const analysis::AxisTraffic& axis : costs.perAxis)
    std::printf("; %s %s", axis.axis.c_str(), support::formatBytes(axis.bytesSent).c_str());
  std::printf("\n");
}

} // namespace

int runPartition(const std::vector<std::string>& args) {
  PartitionOptions o;
  ResourceLimits limits;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (std::optional<bool> ok = parseLimitOption(args, i, limits)) {
      if (!*ok)
        return 1;
    } else if (a == "--collectives-only")
      o.printProgram = false;
    else if (a == "--source-names")
      o.names = io::mlir::ValueNames::Source;
    else if (o.file.empty() && (a == "-" || !a.starts_with("-")))
      o.file = a;
    else {
      std::fprintf(stderr, "shardscope-cli: error: unexpected argument '%s'\nusage: "
                           "shardscope-cli partition FILE [--collectives-only] [--source-names] "
                           "[--max-devices N]\n",
                   a.c_str());
      return 1;
    }
  }
  if (o.file.empty()) {
    std::fprintf(stderr, "shardscope-cli: error: missing FILE\n");
    return 1;
  }
  support::SourceManager loadSources;
  struct Sink final : support::DiagnosticSink {
    const support::SourceManager* sources = nullptr;
    void report(support::Diagnostic d) override {
      std::string formatted = d.loc.isValid() ? sources->format(d)
                                              : "shardscope-cli: error: " + d.message + "\n";
      std::fwrite(formatted.data(), 1, formatted.size(), stderr);
    }
  } sink;
  sink.sources = &loadSources;
  auto program = loadSessionProgram(o.file, loadSources, sink);
  if (!program)
    return 1;
  sink.sources = &program->sources();
  // Partitioning lays out every device: refuse a mesh too large to finish first.
  if (!checkMeshDevices(program->asWritten(), limits.maxDevices, sink))
    return 1;
  // Costs are those of the global program, where every collective still names its mesh axes.
  const session::StageAnalyses* partitioned =
      program->analyses(session::Stage::Partitioned, sink);
  if (!partitioned)
    return 1;
  // What the analyses of the partitioned program found (a reduction whose init partitioning
  // applies on every device): warnings, the program is still printed.
  for (const support::Diagnostic& d : partitioned->diagnostics)
    sink.report(d);
  const ir::Module* local = program->stage(session::Stage::PerDevice, sink);
  if (!local)
    return 1;
  if (o.printProgram) {
    // Streamed: the per-device program of a large one is many times its size (145 MB for a
    // 100k-op program with a collective or two per op), and holding it whole cost a tenth of
    // the command's memory and a fifth of its time in page faults.
    if (!io::mlir::printModule(*local, writeStdout, o.names) || !writeStdout("\n"))
      return 1;
  }
  printTable(*program, partitioned->collectives);
  // The process ends here: freeing the program and its stage modules (the per-device one of a
  // 100k-op program has half a million ops) is 8% of the command's time and is left to the OS.
  // Leak checkers (sanitizer builds) still see everything freed.
  if constexpr (!kLeakCheck)
    (void)program.release();
  return 0;
}

} // namespace shardscope::cli
