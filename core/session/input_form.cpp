#include "core/session/input_form.h"

#include "core/import/common/common_import_steps.h"
#include "core/import/gspmd/gspmd_program.h"
#include "core/import/round_trip/round_trip_import.h"
#include "core/import/gspmd/export_shardings.h"
#include "core/io/mlir/mlir.h"
#include "core/sharding/value_sharding.h"
#include "core/sharding/verifier.h"
#include "core/verify/stablehlo_verifier.h"

#include <string>

namespace shardscope::session {

namespace {

bool hasShardyShardings(const ir::Module& module) {
  bool found = false;
  auto scan = [&](const std::vector<ir::NamedAttribute>& attrs, auto& self) -> void {
    for (const ir::NamedAttribute& attr : attrs) {
      if (attr.name == "sdy.sharding") {
        found = true;
        return;
      }
      if (attr.name == "arg_attrs" || attr.name == "res_attrs")
        if (const auto* array = ir::Attribute(attr.value).as<ir::ArrayAttr>())
          for (const ir::Attribute& element : array->elements)
            if (const auto* dict = element.as<ir::DictionaryAttr>())
              self(dict->entries, self);
    }
  };
  module.op().walk([&](const ir::Operation& op) {
    if (!found && op.is("sdy.mesh"))
      found = true;
    if (!found)
      scan(op.attributes(), scan);
  });
  return found;
}

bool importForm(ir::Module& module, InputForm form, support::DiagnosticSink& sink) {
  switch (form) {
  case InputForm::Gspmd:
    // What `-xla-sdy-stablehlo-import-pipeline` runs, with shardings it cannot read kept as
    // warnings instead of failing the load.
    return import_::runCommonPreImport(module, {}, sink) &&
           import_::importGspmdProgram(module, sink) && import_::runCommonPostImport(module, sink);
  case InputForm::ShardyRoundTrip:
    return import_::importSdyRoundTripProgram(module, sink);
  case InputForm::Unsharded:
  case InputForm::Shardy:
    break;
  }
  return true;
}

// A module compiled for several partitions that shows no sharding is the worst thing to show
// silently: the user would take it for an unsharded program.
void warnIfShardingMissing(const ir::Module& module, InputForm form, uint32_t fileId,
                           support::DiagnosticSink& sink) {
  const auto* partitions = module.op().attr("mhlo.num_partitions").as<ir::IntegerAttr>();
  if (!partitions || partitions->value <= 1 || form != InputForm::Unsharded)
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
    return "GSPMD (mhlo.sharding strings, @Sharding and @SPMDFullToShardShape calls), imported "
           "into Shardy's form as XLA's -xla-sdy-stablehlo-import-pipeline does";
  case InputForm::ShardyRoundTrip:
    return "Shardy round-trip (xla.sdy.* frontend attributes and custom calls), imported as "
           "XLA's -xla-sdy-round-trip-import-pipeline does";
  }
  return "";
}

InputForm detectInputForm(const ir::Module& module) {
  if (import_::hasSdyRoundTripAttrs(module))
    return InputForm::ShardyRoundTrip;
  if (import_::hasGspmdShardings(module))
    return InputForm::Gspmd;
  if (hasShardyShardings(module))
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
  if (!importForm(*module, loaded.form, tracking) || tracking.hadError())
    return loaded;
  if (!sharding::verifyModule(*module, tracking) || tracking.hadError())
    return loaded;
  if (!verify::verifyStablehlo(*module, tracking))
    return loaded;
  warnIfShardingMissing(*module, loaded.form, fileId, tracking);
  loaded.module = std::move(module);
  return loaded;
}

std::string gspmdNotation(const ir::Module& module, const ir::Value& value) {
  std::optional<ir::TensorSharding> s = sharding::valueSharding(value);
  if (!s)
    return {};
  return import_::gspmd::gspmdString(*s, module, import_::gspmd::enclosingManualAxes(value));
}

} // namespace shardscope::session
