// `shardscope-cli types FILE [--explicit-axes=X,Y]`: the JAX-level type of every value under
// explicit sharding (`f32[4@X,8]`), and the ops JAX would reject while tracing, in JAX's words.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"

#include "core/ir/attribute.h"

#include <algorithm>
#include <cstdio>

namespace shardscope::cli {

namespace {

struct TypesOptions {
  std::string file;
  std::optional<std::vector<std::string>> explicitAxes;
};

std::vector<std::string> splitCommas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start)
      parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

bool parseTypesArgs(const std::vector<std::string>& args, TypesOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.starts_with("--explicit-axes=")) {
      o.explicitAxes = splitCommas(a.substr(16));
    } else if (a == "--explicit-axes" && i + 1 < args.size()) {
      o.explicitAxes = splitCommas(args[++i]);
    } else if (o.file.empty() && (a == "-" || !a.starts_with("-"))) {
      o.file = a;
    } else {
      return false;
    }
  }
  return !o.file.empty();
}

struct Row {
  std::string name;
  std::string type;
  std::string origin;
};

// The value's name in the source (`%acc`, `%r#1`) when it had one: printed names restart in every
// region, source names are what the reader wrote. Falls back to the printed name.
std::string valueName(const LoadedProgram& program, const ir::Value& value) {
  if (value.nameHint().empty())
    return displayName(program, &value);
  const ir::Operation* def = value.definingOp();
  bool multi = def && def->numResults() > 1;
  return "%" + value.nameHint() + (multi ? "#" + std::to_string(value.index()) : "");
}

std::string typeText(const analysis::ExplicitTyping& typing, const ir::Value& value) {
  const analysis::ExplicitType* t = typing.typeOf(value);
  if (!t || !t->known)
    return "(untyped)";
  return analysis::shortTypeStr(*t);
}

void printRows(const std::vector<Row>& rows) {
  if (rows.empty())
    std::printf("    (none)\n");
  size_t nameWidth = 0, typeWidth = 0;
  for (const Row& r : rows) {
    nameWidth = std::max(nameWidth, r.name.size());
    typeWidth = std::max(typeWidth, r.type.size());
  }
  for (const Row& r : rows) {
    std::string line = "    " + r.name + std::string(nameWidth - r.name.size() + 2, ' ') + r.type;
    if (!r.origin.empty())
      line += std::string(typeWidth - r.type.size() + 2, ' ') + r.origin;
    std::printf("%s\n", line.c_str());
  }
}

void printAxisTypes(const ir::Module& module, const analysis::ExplicitTyping& typing,
                    const TypesOptions& o) {
  const char* source = o.explicitAxes ? "--explicit-axes"
                       : module.op().hasAttr(analysis::kAxisTypesAttr)
                           ? "module attribute shardscope.axis_types"
                           : "default: no shardscope.axis_types, every axis Auto";
  std::printf("axis types (%s)\n", source);
  for (const auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh"))
      continue;
    const std::string& name = op->attr("sym_name").as<ir::StringAttr>()->value;
    const ir::Mesh& mesh = op->attr("mesh").as<ir::MeshAttr>()->mesh;
    std::printf("  @%s = %s\n", name.c_str(),
                analysis::abstractMeshRepr(&mesh, name, typing.axisTypes()).c_str());
  }
  if (!typing.axisTypes().anyExplicit())
    std::printf("  no Explicit axis: types show shardings only inside explicit_axes "
                "computations\n");
}

std::vector<Row> valueRows(const LoadedProgram& program, const analysis::ExplicitTyping& typing,
                           const ir::Operation& fn) {
  std::vector<Row> rows;
  fn.walk([&](const ir::Operation& op) {
    if (&op == &fn)
      return;
    std::string origin = std::string(op.name()) + "  line " + std::to_string(op.loc().line);
    for (const auto& result : op.results())
      rows.push_back({valueName(program, *result), typeText(typing, *result), origin});
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      // `while` has the same arguments in `cond` and `do`: say which region.
      std::string where = op.numRegions() > 1 ? " region " + std::to_string(r) : "";
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          rows.push_back(
              {valueName(program, *arg), typeText(typing, *arg), "argument of " + origin + where});
    }
  });
  return rows;
}

void printFunction(const LoadedProgram& program, const analysis::ExplicitTyping& typing,
                   const ir::Operation& fn) {
  std::printf("\nfunc @%s\n", std::string(ir::func::name(fn)).c_str());
  const ir::Block* body = ir::func::body(fn);
  if (!body) {
    std::printf("  (declaration)\n");
    return;
  }
  std::vector<Row> args;
  for (const auto& arg : body->arguments())
    args.push_back({valueName(program, *arg), typeText(typing, *arg), ""});
  std::printf("  arguments\n");
  printRows(args);
  std::printf("  values\n");
  printRows(valueRows(program, typing, fn));
  std::vector<Row> results;
  if (const ir::Operation* ret = body->back(); ret && ret->is("func.return"))
    for (unsigned i = 0; i < ret->numOperands(); ++i)
      results.push_back({"#" + std::to_string(i), typeText(typing, *ret->operand(i)), ""});
  std::printf("  results\n");
  printRows(results);
}

} // namespace

int runTypes(const std::vector<std::string>& args) {
  TypesOptions options;
  if (!parseTypesArgs(args, options)) {
    std::fprintf(stderr, "shardscope-cli: error: usage: shardscope-cli types FILE "
                         "[--explicit-axes=X,Y]\n");
    return 1;
  }
  std::unique_ptr<LoadedProgram> program = loadProgram(options.file);
  if (!program)
    return 1;
  StderrSink sink(program->sources);
  analysis::ExplicitTypingOptions typingOptions;
  typingOptions.explicitAxes = options.explicitAxes;
  std::optional<analysis::ExplicitTyping> typing =
      program->session->explicitTypes(typingOptions, sink);
  if (!typing)
    return 1;
  std::printf("program: %s\n", options.file.c_str());
  printAxisTypes(*program->module, *typing, options);
  for (const ir::Operation* fn : program->module->functions())
    printFunction(*program, *typing, *fn);
  std::printf("\nrejected by JAX: %zu op%s\n", typing->numRejected(),
              typing->numRejected() == 1 ? "" : "s");
  if (typing->numUntyped())
    std::printf("untyped (no rule in ShardScope): %zu op%s\n", typing->numUntyped(),
                typing->numUntyped() == 1 ? "" : "s");
  return typing->numRejected() ? 1 : 0;
}

} // namespace shardscope::cli
