#include "core/import/common/import_sdy_custom_calls.h"

#include "core/import/common/frontend_attrs.h"
#include "core/import/common/op_rewrite.h"

#include <charconv>
#include <string>

namespace shardscope::import_ {

namespace {

// Shardy's `PropagationDirection` enum, in the order of its integer values.
constexpr std::string_view kDirections[] = {"NONE", "FORWARD", "BACKWARD", "BOTH"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

// Reads a frontend attribute holding an integer in MLIR syntax (`21 : i64`).
std::optional<int64_t> frontendInteger(const ir::Operation& op, std::string_view name) {
  std::optional<std::string> text = frontendString(frontendAttrs(op), name);
  if (!text)
    return std::nullopt;
  std::optional<std::string> unescaped = cUnescape(*text);
  if (!unescaped)
    return std::nullopt;
  std::string error;
  ir::Attribute attr = parseAttributeText(*unescaped, error);
  if (const auto* integer = attr.as<ir::IntegerAttr>())
    return integer->value;
  return std::nullopt;
}

class Importer {
public:
  explicit Importer(support::DiagnosticSink& sink) : m_sink(sink) {}

  // Rewrites `op` when it is one of the calls; returns false after reporting a failure.
  bool visit(ir::Operation& op) {
    std::string_view target = customCallTarget(op);
    if (target == kShardingCustomCallTarget)
      return check(op, rewriteSharding(op));
    if (target == kShardingGroupCustomCallTarget)
      return check(op, rewriteShardingGroup(op));
    if (target == kPropagationBarrierCustomCallTarget)
      return check(op, rewritePropagationBarrier(op));
    return true;
  }

private:
  // The conversion framework adds its own error after the pattern's.
  bool check(ir::Operation& op, bool ok) {
    if (ok)
      return true;
    m_sink.error(op.loc(), "failed to legalize operation '" + std::string(op.name()) +
                               "' that was explicitly marked illegal");
    return false;
  }

  bool fail(const ir::Operation& op, std::string message) {
    m_sink.error(op.loc(), std::move(message));
    return false;
  }

  bool rewriteSharding(ir::Operation& op) {
    if (op.numOperands() != 1)
      return fail(op, "expected CustomCallOp with exactly one operand");
    std::vector<int64_t> unspecifiedDims;
    if (const auto* config = op.attr("backend_config").as<ir::StringAttr>()) {
      auto dims = parseUnspecifiedDims(config->value);
      if (!dims)
        return fail(op, "malformed backend_config of a Sharding custom call: '" + config->value +
                            "'");
      unspecifiedDims = std::move(*dims);
    }
    if (op.numResults() != 1)
      return fail(op, "expected CustomCallOp with exactly one result");
    const ir::TensorSharding* sharding = ir::shardingOf(*op.result(0));
    if (!sharding)
      return fail(op, "expected CustomCallOp with a sharding attribute");
    ir::TensorSharding opened = *sharding;
    for (int64_t dim : unspecifiedDims) {
      if (dim < 0 || dim >= static_cast<int64_t>(opened.dims.size()))
        return fail(op, "unspecified dimension " + std::to_string(dim) + " out of range");
      opened.dims[dim].isClosed = false;
    }
    replaceOp(op, unaryOpLike(op, "sdy.sharding_constraint", *op.operand(0), "sharding",
                              ir::Attribute::sharding(std::move(opened))));
    return true;
  }

  bool rewriteShardingGroup(ir::Operation& op) {
    if (op.numOperands() != 1 || op.numResults() > 1)
      return fail(op, "expected xla.sdy.ShardingGroup CustomCallOp with one operand and at most "
                      "one result");
    std::optional<int64_t> groupId = frontendInteger(op, kShardingGroupIdAttr);
    if (!groupId)
      return fail(op, "expected CustomCallOp with a sharding group id.");
    if (op.numResults() == 1 && op.result(0)->hasUses())
      return fail(op, "xla.sdy.ShardingGroup CustomCallOp should have no uses.");
    ir::Value* operands[] = {op.operand(0)};
    auto group = ir::Operation::create("sdy.sharding_group", operands, {}, op.loc());
    group->setAttr("group_id", ir::Attribute::integer(
                                   *groupId, ir::Type::scalar(ir::ElementType::I64)));
    group->setInherent("group_id", true);
    ir::Block* block = op.parentBlock();
    block->insertBefore(&op, std::move(group));
    op.dropAllReferences();
    block->erase(&op);
    return true;
  }

  bool rewritePropagationBarrier(ir::Operation& op) {
    if (op.numOperands() != 1 || op.numResults() != 1)
      return fail(op, "expected xla.sdy.PropagationBarrier CustomCallOp with one operand and "
                      "one result");
    std::optional<int64_t> direction = frontendInteger(op, kAllowedDirectionAttr);
    if (!direction || *direction < 0 || *direction >= static_cast<int64_t>(std::size(kDirections)))
      return fail(op, "expected PropagationBarrier CustomCall Op with a propagation direction.");
    replaceOp(op, unaryOpLike(op, "sdy.propagation_barrier", *op.operand(0), "allowed_direction",
                              ir::Attribute::opaque(std::string(kDirections[*direction]))));
    return true;
  }

  support::DiagnosticSink& m_sink;
};

} // namespace

std::optional<std::vector<int64_t>> parseUnspecifiedDims(std::string_view config) {
  std::vector<int64_t> dims;
  config = trim(config);
  if (config.empty())
    return dims;
  constexpr std::string_view kKey = "unspecified_dims=[";
  if (!config.starts_with(kKey) || !config.ends_with("]"))
    return std::nullopt;
  std::string_view list = config.substr(kKey.size(), config.size() - kKey.size() - 1);
  while (!trim(list).empty()) {
    size_t comma = list.find(',');
    std::string_view item = trim(list.substr(0, comma));
    int64_t value = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size())
      return std::nullopt;
    dims.push_back(value);
    if (comma == std::string_view::npos)
      break;
    list.remove_prefix(comma + 1);
  }
  return dims;
}

bool importSdyCustomCalls(ir::Module& module, support::DiagnosticSink& sink) {
  Importer importer(sink);
  bool ok = true;
  forEachNestedOp(module.op(), [&](ir::Operation& op) {
    if (ok)
      ok = importer.visit(op);
  });
  return ok;
}

} // namespace shardscope::import_
