// Explicit types through ops with regions: `stablehlo.while` (JAX's `while_loop`), `stablehlo.case`
// (`cond` / `switch`), `sdy.named_computation` (`auto_axes` / `explicit_axes`) and
// `sdy.manual_computation` (`shard_map`). The control-flow messages follow `_check_carry_type` in
// jax/_src/lax/control_flow/loops.py and `_check_tree_and_avals` / `_show_diff` in
// jax/_src/lax/control_flow/common.py, with their line breaks folded into spaces (a diagnostic is
// one line).
#include "core/analysis/detail/explicit_typing_builder.h"

#include "core/ir/attribute.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

// JAX's `core.typematch`: same shape, dtype and sharding.
bool typeMatch(const ExplicitType& a, const ExplicitType& b) {
  return a.type == b.type && a.sameSharding(b);
}

// `core.aval_mismatch_extra`: what besides the sharding differs.
std::string mismatchExtra(const ExplicitType& a, const ExplicitType& b) {
  if (!a.type.isTensor() || !b.type.isTensor())
    return "";
  std::vector<std::string> parts;
  if (a.type.elementType() != b.type.elementType())
    parts.push_back("the dtypes do not match");
  if (!std::equal(a.type.shape().begin(), a.type.shape().end(), b.type.shape().begin(),
                  b.type.shape().end()))
    parts.push_back("the shapes do not match");
  if (parts.empty())
    return "";
  return ", so " + (parts.size() == 1 ? parts[0] : parts[0] + ", and " + parts[1]);
}

std::string capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z')
    s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

// The `differences` paragraph of `_check_carry_type`, on one line.
std::string carryDifferences(const std::vector<ExplicitType>& in,
                             const std::vector<ExplicitType>& out) {
  std::vector<std::string> diffs;
  for (size_t i = 0; i < in.size(); ++i) {
    if (typeMatch(in[i], out[i]))
      continue;
    std::string component =
        in.size() == 1 ? "the input carry" : "the input carry at path [" + std::to_string(i) + "]";
    diffs.push_back(component + " has type " + longTypeStr(in[i]) +
                    " but the corresponding output carry component has type " +
                    longTypeStr(out[i]) + mismatchExtra(in[i], out[i]));
  }
  if (diffs.size() == 1)
    return capitalized(diffs[0]) + ".";
  std::string text;
  for (size_t i = 0; i < diffs.size(); ++i)
    text += (i ? " * " : "* ") + diffs[i] + (i + 1 == diffs.size() ? "." : ";");
  return text;
}

// `_show_diff` over the outputs of two branches: one string per output, a tuple of them when
// there are several.
std::string branchDiff(const std::vector<ExplicitType>& a, const std::vector<ExplicitType>& b) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < a.size(); ++i)
    parts.push_back(typeMatch(a[i], b[i])
                        ? longTypeStr(a[i])
                        : "DIFFERENT " + longTypeStr(a[i]) + " vs. " + longTypeStr(b[i]));
  if (parts.size() == 1)
    return parts[0];
  std::string text = "(";
  for (size_t i = 0; i < parts.size(); ++i)
    text += (i ? ", '" : "'") + parts[i] + "'";
  return text + ")";
}

bool allMatch(const std::vector<ExplicitType>& a, const std::vector<ExplicitType>& b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!typeMatch(a[i], b[i]))
      return false;
  return true;
}

// The branch check of `cond` (two branches: true is branch 1, false branch 0) or `switch`.
std::optional<JaxError> checkBranches(const std::vector<std::vector<ExplicitType>>& outs) {
  for (size_t i = 1; i < outs.size(); ++i) {
    if (anyUnknown(outs[0]) || anyUnknown(outs[i]) || allMatch(outs[0], outs[i]))
      continue;
    if (outs.size() == 2)
      return JaxError{"TypeError", "true_fun and false_fun output must have identical types, got " +
                                       branchDiff(outs[1], outs[0]) + "."};
    return JaxError{"TypeError", "branch 0 and " + std::to_string(i) +
                                     " outputs must have identical types, got " +
                                     branchDiff(outs[0], outs[i]) + "."};
  }
  return std::nullopt;
}

// `t` seen where `types` are in force: axes that are not Explicit there leave the type.
ExplicitType restricted(const ExplicitType& t, const AxisTypes& types, const std::string& context) {
  if (!t.known || t.mesh.empty() || !types.hasExplicitAxis(t.mesh))
    return t.known ? unshardedType(t.type, context) : t;
  ExplicitType result = t;
  auto keep = [&](std::vector<ir::AxisRef>& axes) {
    std::erase_if(axes, [&](const ir::AxisRef& a) { return !types.isExplicit(t.mesh, a.name); });
  };
  for (DimSpec& dim : result.dims)
    keep(dim);
  keep(result.unreduced);
  return result;
}

const ir::TensorSharding* shardingAt(const ir::Operation& op, std::string_view attr, unsigned i) {
  const auto* list = op.attr(attr).as<ir::ShardingPerValueAttr>();
  return list && i < list->shardings.size() ? &list->shardings[i] : nullptr;
}

} // namespace

void ExplicitTypingBuilder::typeWhile(const ir::Operation& op, const AxisTypes& types) {
  std::vector<ExplicitType> carry = operandTypes(op);
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    if (op.region(r).empty())
      continue;
    const ir::Block& block = op.region(r).front();
    for (unsigned i = 0; i < block.numArguments() && i < carry.size(); ++i)
      set(*block.argument(i), carry[i]);
    typeBlock(block, types);
  }
  std::vector<ExplicitType> out =
      op.numRegions() > 1 ? returnTypes(op.region(1)) : std::vector<ExplicitType>();
  if (!anyUnknown(carry) && !anyUnknown(out) && out.size() == carry.size() && !allMatch(carry, out))
    return reject(op, {"TypeError", "while_loop body function carry input and carry output must "
                                    "have equal types, but they differ: " +
                                        carryDifferences(carry, out) +
                                        " Revise the function so that all output types match "
                                        "the corresponding input types."});
  for (unsigned i = 0; i < op.numResults(); ++i)
    set(*op.result(i), i < carry.size() ? carry[i] : unknownType(op.result(i)->type()));
}

void ExplicitTypingBuilder::typeCase(const ir::Operation& op, const AxisTypes& types) {
  std::vector<std::vector<ExplicitType>> outs;
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    if (!op.region(r).empty())
      typeBlock(op.region(r).front(), types);
    outs.push_back(returnTypes(op.region(r)));
  }
  if (std::optional<JaxError> error = checkBranches(outs))
    return reject(op, *error);
  // `cond_p` has the output types of branch 0.
  for (unsigned i = 0; i < op.numResults(); ++i)
    set(*op.result(i),
        !outs.empty() && i < outs[0].size() ? outs[0][i] : unknownType(op.result(i)->type()));
}

void ExplicitTypingBuilder::typeNamedComputation(const ir::Operation& op, const AxisTypes& types) {
  AxisTypes inner = types;
  if (const auto* dict = op.attr(kAxisTypesAttr).as<ir::DictionaryAttr>()) {
    auto overrides = readAxisTypeOverrides(*dict, op.loc(), m_sink);
    if (!overrides)
      return setUnknown(op);
    inner = types.overridden(m_module, *overrides);
  }
  std::vector<ExplicitType> operands = operandTypes(op);
  const std::string& context = m_out.m_contextMesh;
  if (op.numRegions() == 0 || op.region(0).empty())
    return setUnknown(op);
  const ir::Block& block = op.region(0).front();
  for (unsigned i = 0; i < block.numArguments(); ++i) {
    const ir::Value& arg = *block.argument(i);
    const ir::TensorSharding* in = shardingAt(op, "in_shardings", i);
    set(arg, in ? typeFromSharding(arg.type(), in, inner, context)
                : restricted(i < operands.size() ? operands[i] : unknownType(arg.type()), inner,
                             context));
  }
  typeBlock(block, inner);
  std::vector<ExplicitType> out = returnTypes(op.region(0));
  for (unsigned i = 0; i < op.numResults(); ++i) {
    const ir::Value& result = *op.result(i);
    const ir::TensorSharding* s = shardingAt(op, "out_shardings", i);
    set(result,
        s ? typeFromSharding(result.type(), s, types, context)
          : restricted(i < out.size() ? out[i] : unknownType(result.type()), types, context));
  }
}

void ExplicitTypingBuilder::typeManualComputation(const ir::Operation& op, const AxisTypes& types) {
  std::map<std::string, AxisType, std::less<>> manual;
  if (const auto* axes = op.attr("manual_axes").as<ir::ManualAxesAttr>())
    for (const std::string& axis : axes->axes)
      manual[axis] = AxisType::Manual;
  // Inside, the manual axes are Manual and so leave the types of the body's values.
  AxisTypes inner = types.overridden(m_module, manual);
  const std::string& context = m_out.m_contextMesh;
  if (op.numRegions() > 0 && !op.region(0).empty()) {
    const ir::Block& block = op.region(0).front();
    for (unsigned i = 0; i < block.numArguments(); ++i) {
      const ir::Value& arg = *block.argument(i);
      set(arg, typeFromSharding(arg.type(), shardingAt(op, "in_shardings", i), inner, context));
    }
    typeBlock(block, inner);
  }
  // `_unshard_shaped_array`: each result dimension is sharded by the axes its `out_shardings`
  // entry names followed by the free (non-manual) axes the returned body value is sharded by, so
  // a partial-manual computation keeps its free explicit axes on the way out.
  std::vector<ExplicitType> returned;
  if (op.numRegions() > 0 && !op.region(0).empty())
    returned = returnTypes(op.region(0));
  for (unsigned i = 0; i < op.numResults(); ++i) {
    const ir::Value& result = *op.result(i);
    ExplicitType type =
        typeFromSharding(result.type(), shardingAt(op, "out_shardings", i), types, context);
    if (i < returned.size() && returned[i].known && type.known &&
        returned[i].dims.size() == type.dims.size()) {
      if (type.mesh.empty())
        type.mesh = returned[i].mesh;
      // An axis the out_shardings entry already places (on any dimension) stays where it is.
      auto placed = [&](const ir::AxisRef& axis) {
        return std::any_of(type.dims.begin(), type.dims.end(), [&](const DimSpec& dim) {
          return std::find(dim.begin(), dim.end(), axis) != dim.end();
        });
      };
      for (size_t d = 0; d < type.dims.size(); ++d)
        for (const ir::AxisRef& axis : returned[i].dims[d])
          if (!placed(axis))
            type.dims[d].push_back(axis);
    }
    set(result, std::move(type));
  }
}

} // namespace shardscope::analysis
