#include "core/import/gspmd/gspmd_program.h"

#include "core/import/gspmd/import_pipeline.h"
#include "core/import/gspmd/import_shardings.h"

namespace shardscope::import_ {

namespace {

using gspmd::kXlaShardingAttr;

// Calls `fn(op, what)` for every place of `module` that holds an `mhlo.sharding`.
template <typename Fn> void forEachGspmdSharding(const ir::Module& module, Fn&& fn) {
  for (ir::Operation* function : module.functions()) {
    ir::Type type = ir::func::type(*function);
    for (unsigned i = 0; i < type.elements().size(); ++i)
      if (const ir::DictionaryAttr* attrs = ir::func::argAttrs(*function, i);
          attrs && attrs->get(kXlaShardingAttr))
        fn(*function, "argument " + std::to_string(i) + " of @" +
                          std::string(ir::func::name(*function)));
    for (unsigned i = 0; i < type.results().size(); ++i)
      if (const ir::DictionaryAttr* attrs = ir::func::resultAttrs(*function, i);
          attrs && attrs->get(kXlaShardingAttr))
        fn(*function, "result " + std::to_string(i) + " of @" +
                          std::string(ir::func::name(*function)));
    static_cast<const ir::Operation*>(function)->walk([&](const ir::Operation& op) {
      if (&op != function && op.hasAttr(kXlaShardingAttr))
        fn(op, "'" + std::string(op.name()) + "'");
    });
  }
}

// Forwards diagnostics and counts them.
struct CountingSink final : support::DiagnosticSink {
  explicit CountingSink(support::DiagnosticSink& next) : next(next) {}
  void report(support::Diagnostic diagnostic) override {
    ++count;
    next.report(std::move(diagnostic));
  }
  support::DiagnosticSink& next;
  int count = 0;
};

} // namespace

bool hasGspmdShardings(const ir::Module& module) {
  bool found = false;
  forEachGspmdSharding(module, [&](const ir::Operation&, const std::string&) { found = true; });
  return found;
}

bool importGspmdProgram(ir::Module& module, support::DiagnosticSink& sink) {
  gspmd::ImportShardingsOptions options;
  options.axisPrefix = "axis_";
  options.unreadableSeverity = support::Severity::Warning;
  CountingSink counting(sink);
  gspmd::importShardings(module, options, counting);
  if (!gspmd::importShardMaps(module, sink))
    return false;
  if (counting.count > 0)
    return true; // the importer named every sharding it left in place
  // Nothing gave a mesh (only replicated, manual or unknown shardings): XLA leaves such a module
  // as it is, and so do we, but say so.
  forEachGspmdSharding(module, [&](const ir::Operation& op, const std::string& what) {
    sink.warning(op.loc(), "'" + std::string(kXlaShardingAttr) + "' of " + what +
                               " is not imported (no tiled or maximal sharding gives a mesh); "
                               "the value is treated as unsharded");
  });
  return true;
}

} // namespace shardscope::import_
