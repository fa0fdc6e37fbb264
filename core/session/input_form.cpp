#include "core/session/input_form.h"

#include "core/io/mlir/mlir.h"
#include "core/pipeline/pass_manager.h"
#include "core/sharding/verifier.h"

#include <span>
#include <string>

namespace shardscope::session {

namespace {

constexpr std::string_view kGspmdShardingAttr = "mhlo.sharding";
constexpr std::string_view kFrontendAttrs = "mhlo.frontend_attributes";
constexpr std::string_view kRoundTripPrefix = "xla.sdy.";

struct FormScan {
  bool shardy = false;
  bool gspmd = false;
  bool roundTrip = false;
};

bool hasRoundTripEntry(const ir::Attribute& attr) {
  const auto* dict = attr.as<ir::DictionaryAttr>();
  if (!dict)
    return false;
  for (const ir::NamedAttribute& entry : dict->entries)
    if (std::string_view(entry.name).starts_with(kRoundTripPrefix))
      return true;
  return false;
}

// Looks at one attribute dictionary: an op's, or (through `arg_attrs` and `res_attrs`) a
// function argument's or result's.
void scanAttributes(const std::vector<ir::NamedAttribute>& attrs, FormScan& scan) {
  for (const ir::NamedAttribute& attr : attrs) {
    ir::Attribute value(attr.value);
    if (attr.name == kGspmdShardingAttr)
      scan.gspmd = true;
    else if (attr.name == "sdy.sharding")
      scan.shardy = true;
    else if (attr.name == kFrontendAttrs && hasRoundTripEntry(value))
      scan.roundTrip = true;
    else if (attr.name == "arg_attrs" || attr.name == "res_attrs")
      if (const auto* array = value.as<ir::ArrayAttr>())
        for (const ir::Attribute& element : array->elements)
          if (const auto* dict = element.as<ir::DictionaryAttr>())
            scanAttributes(dict->entries, scan);
  }
}

void scanOp(const ir::Operation& op, FormScan& scan) {
  scanAttributes(op.attributes(), scan);
  if (op.is("sdy.mesh"))
    scan.shardy = true;
  if (op.is("stablehlo.custom_call")) {
    const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
    if (target) {
      std::string_view name = target->value;
      if (name == "Sharding" || name == "SPMDFullToShardShape" || name == "SPMDShardToFullShape")
        scan.gspmd = true;
      else if (name.starts_with(kRoundTripPrefix))
        scan.roundTrip = true;
    }
  }
}

// The pass XLA runs to bring `form` into Shardy's form; empty when there is nothing to import.
std::string_view importPipelineFor(InputForm form) {
  switch (form) {
  case InputForm::Gspmd:
    return "xla-sdy-stablehlo-import-pipeline";
  case InputForm::ShardyRoundTrip:
    return "xla-sdy-round-trip-import-pipeline";
  case InputForm::Unsharded:
  case InputForm::Shardy:
    break;
  }
  return {};
}

bool importForm(ir::Module& module, InputForm form, uint32_t fileId,
                support::DiagnosticSink& sink) {
  std::string_view passName = importPipelineFor(form);
  if (passName.empty())
    return true;
  const pipeline::PassInfo* info = pipeline::PassRegistry::builtin().lookup(passName);
  if (!info) {
    sink.error({fileId, 1, 1, 0}, "the program's shardings are in " +
                                      std::string(inputFormName(form)) + " form, but this build "
                                      "has no -" + std::string(passName) + " to import them");
    return false;
  }
  pipeline::PassInvocation invocation{info, {}};
  return pipeline::runPasses(module, std::span(&invocation, 1), sink);
}

bool carriesSharding(const ir::Module& module) {
  FormScan scan;
  module.op().walk([&](const ir::Operation& op) { scanOp(op, scan); });
  return scan.shardy || scan.gspmd || scan.roundTrip;
}

// A module compiled for several partitions that shows no sharding is the worst thing to show
// silently: the user would take it for an unsharded program.
void warnIfShardingMissing(const ir::Module& module, uint32_t fileId,
                           support::DiagnosticSink& sink) {
  const auto* partitions = module.op().attr("mhlo.num_partitions").as<ir::IntegerAttr>();
  if (!partitions || partitions->value <= 1 || carriesSharding(module))
    return;
  support::SourceLocation at = module.op().loc();
  if (at.fileId != fileId)
    at = {fileId, 1, 1, 0};
  sink.warning(at, "the module is compiled for mhlo.num_partitions = " +
                       std::to_string(partitions->value) +
                       " partitions but carries no sharding ShardScope can read: it is shown "
                       "as if every value were replicated");
}

} // namespace

std::string_view inputFormName(InputForm form) {
  switch (form) {
  case InputForm::Unsharded:
    return "unsharded";
  case InputForm::Shardy:
    return "Shardy";
  case InputForm::Gspmd:
    return "GSPMD";
  case InputForm::ShardyRoundTrip:
    return "Shardy round-trip";
  }
  return "unknown";
}

std::string_view inputFormDescription(InputForm form) {
  switch (form) {
  case InputForm::Unsharded:
    return "no shardings";
  case InputForm::Shardy:
    return "Shardy dialect (sdy.mesh, #sdy.sharding)";
  case InputForm::Gspmd:
    return "GSPMD (mhlo.sharding strings), imported as XLA's -xla-sdy-stablehlo-import-pipeline";
  case InputForm::ShardyRoundTrip:
    return "Shardy round-trip (xla.sdy.* frontend attributes), imported as XLA's "
           "-xla-sdy-round-trip-import-pipeline";
  }
  return "";
}

InputForm detectInputForm(const ir::Module& module) {
  FormScan scan;
  module.op().walk([&](const ir::Operation& op) { scanOp(op, scan); });
  if (scan.roundTrip)
    return InputForm::ShardyRoundTrip;
  if (scan.gspmd)
    return InputForm::Gspmd;
  if (scan.shardy)
    return InputForm::Shardy;
  return InputForm::Unsharded;
}

LoadedModule loadModule(std::string_view text, uint32_t fileId, support::DiagnosticSink& sink) {
  support::ErrorTrackingSink tracking(sink);
  LoadedModule loaded;
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(text, fileId, tracking);
  if (!module || tracking.hadError())
    return loaded;
  loaded.form = detectInputForm(*module);
  if (!importForm(*module, loaded.form, fileId, tracking) || tracking.hadError())
    return loaded;
  if (!sharding::verifyModule(*module, tracking) || tracking.hadError())
    return loaded;
  warnIfShardingMissing(*module, fileId, tracking);
  loaded.module = std::move(module);
  return loaded;
}

} // namespace shardscope::session
