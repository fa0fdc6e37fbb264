// The shape and attribute facts the transpose and derivative rules index with. The rules build
// new ops from an op's dimension numbers, permutation, padding and so on; a value out of range
// would make them read past the end of a shape. The verifier is the first line of defence; this
// check makes the rules safe on their own, whatever reached them, by refusing the op with a
// located error instead.
#include "core/autodiff/detail/preconditions.h"

#include "core/ir/stablehlo_attrs.h"

#include <algorithm>

namespace shardscope::autodiff::detail {

namespace {

using ir::Operation;
namespace shlo = ir::stablehlo;

std::string str(int64_t v) { return std::to_string(v); }

std::string list(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + str(values[i]);
  return out + "]";
}

// Checks that every entry of `dims` is a distinct dimension of a rank-`rank` tensor.
std::optional<std::string> checkDims(const std::vector<int64_t>& dims, int64_t rank,
                                     std::string_view what) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= rank)
      return std::string(what) + " " + list(dims) + " has dimension " + str(dims[i]) +
             " out of range for rank " + str(rank);
    for (size_t j = 0; j < i; ++j)
      if (dims[j] == dims[i])
        return std::string(what) + " " + list(dims) + " repeats dimension " + str(dims[i]);
  }
  return std::nullopt;
}

std::optional<std::string> checkSize(size_t size, int64_t rank, std::string_view what) {
  if (static_cast<int64_t>(size) != rank)
    return std::string(what) + " has " + str(static_cast<int64_t>(size)) +
           " entries, expected one per dimension (" + str(rank) + ")";
  return std::nullopt;
}

std::vector<int64_t> intsOf(const Operation& op, std::string_view name) {
  return shlo::intListAttr(op, name).value_or(std::vector<int64_t>{});
}

bool hasTensorTypes(const Operation& op) {
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (!op.operand(i)->type().isTensor())
      return false;
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!op.result(i)->type().isTensor())
      return false;
  return true;
}

std::optional<std::string> checkDotGeneral(const Operation& op) {
  if (op.numOperands() != 2 || op.numResults() != 1)
    return "expected 2 operands and 1 result";
  std::optional<shlo::DotDimensionNumbers> numbers = shlo::dotDimensionNumbers(op);
  if (!numbers)
    return std::string("can't read the dimension numbers");
  int64_t lhsRank = shlo::rankOf(op.operand(0)), rhsRank = shlo::rankOf(op.operand(1));
  auto lhsAll = numbers->lhsBatching, rhsAll = numbers->rhsBatching;
  lhsAll.insert(lhsAll.end(), numbers->lhsContracting.begin(), numbers->lhsContracting.end());
  rhsAll.insert(rhsAll.end(), numbers->rhsContracting.begin(), numbers->rhsContracting.end());
  if (auto e = checkDims(lhsAll, lhsRank, "lhs batching and contracting dimensions"))
    return e;
  if (auto e = checkDims(rhsAll, rhsRank, "rhs batching and contracting dimensions"))
    return e;
  if (numbers->lhsBatching.size() != numbers->rhsBatching.size())
    return "expected as many lhs as rhs batching dimensions, got " +
           str(static_cast<int64_t>(numbers->lhsBatching.size())) + " and " +
           str(static_cast<int64_t>(numbers->rhsBatching.size()));
  if (numbers->lhsContracting.size() != numbers->rhsContracting.size())
    return "expected as many lhs as rhs contracting dimensions, got " +
           str(static_cast<int64_t>(numbers->lhsContracting.size())) + " and " +
           str(static_cast<int64_t>(numbers->rhsContracting.size()));
  int64_t expected = lhsRank + rhsRank - static_cast<int64_t>(numbers->lhsBatching.size()) -
                     2 * static_cast<int64_t>(numbers->lhsContracting.size());
  if (shlo::rankOf(op.result(0)) != expected)
    return "expected a result of rank " + str(expected) + ", got " +
           str(shlo::rankOf(op.result(0)));
  return std::nullopt;
}

std::optional<std::string> checkTranspose(const Operation& op) {
  int64_t rank = shlo::rankOf(op.operand(0));
  std::vector<int64_t> perm = intsOf(op, "permutation");
  if (auto e = checkSize(perm.size(), rank, "permutation"))
    return e;
  if (auto e = checkDims(perm, rank, "permutation"))
    return e;
  if (shlo::rankOf(op.result(0)) != rank)
    return "expected a result of rank " + str(rank) + ", got " + str(shlo::rankOf(op.result(0)));
  return std::nullopt;
}

std::optional<std::string> checkBroadcastInDim(const Operation& op) {
  std::vector<int64_t> dims = intsOf(op, "broadcast_dimensions");
  if (auto e = checkSize(dims.size(), shlo::rankOf(op.operand(0)), "broadcast_dimensions"))
    return e;
  return checkDims(dims, shlo::rankOf(op.result(0)), "broadcast_dimensions");
}

std::optional<std::string> checkReduce(const Operation& op) {
  if (op.numOperands() < 1)
    return std::string("expected an operand");
  return checkDims(intsOf(op, "dimensions"), shlo::rankOf(op.operand(0)), "dimensions");
}

std::optional<std::string> checkSlice(const Operation& op) {
  int64_t rank = shlo::rankOf(op.operand(0));
  if (shlo::rankOf(op.result(0)) != rank)
    return "expected a result of rank " + str(rank) + ", got " + str(shlo::rankOf(op.result(0)));
  std::vector<int64_t> start = intsOf(op, "start_indices"), limit = intsOf(op, "limit_indices"),
                       strides = intsOf(op, "strides");
  if (auto e = checkSize(start.size(), rank, "start_indices"))
    return e;
  if (auto e = checkSize(limit.size(), rank, "limit_indices"))
    return e;
  if (!strides.empty())
    if (auto e = checkSize(strides.size(), rank, "strides"))
      return e;
  auto shape = shlo::shapeOf(op.operand(0));
  for (size_t d = 0; d < start.size(); ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > shape[d])
      return "slice [" + str(start[d]) + ", " + str(limit[d]) + ") of dimension " +
             str(static_cast<int64_t>(d)) + " is out of bounds for size " + str(shape[d]);
    if (!strides.empty() && strides[d] <= 0)
      return "stride " + str(strides[d]) + " of dimension " + str(static_cast<int64_t>(d)) +
             " is not positive";
  }
  return std::nullopt;
}

std::optional<std::string> checkPad(const Operation& op) {
  int64_t rank = shlo::rankOf(op.operand(0));
  if (shlo::rankOf(op.result(0)) != rank)
    return "expected a result of rank " + str(rank) + ", got " + str(shlo::rankOf(op.result(0)));
  for (std::string_view name : {"edge_padding_low", "edge_padding_high", "interior_padding"})
    if (auto e = checkSize(intsOf(op, name).size(), rank, name))
      return e;
  for (int64_t interior : intsOf(op, "interior_padding"))
    if (interior < 0)
      return "interior padding " + str(interior) + " is negative";
  return std::nullopt;
}

std::optional<std::string> checkConcatenate(const Operation& op) {
  int64_t rank = shlo::rankOf(op.result(0));
  int64_t dim = shlo::intAttr(op, "dimension").value_or(0);
  if (dim < 0 || dim >= rank)
    return "dimension " + str(dim) + " is out of range for rank " + str(rank);
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (shlo::rankOf(op.operand(i)) != rank)
      return "operand " + str(i) + " has rank " + str(shlo::rankOf(op.operand(i))) +
             ", expected " + str(rank);
  return std::nullopt;
}

std::optional<std::string> checkDynamicSlice(const Operation& op, unsigned firstIndex) {
  int64_t rank = shlo::rankOf(op.operand(0));
  if (static_cast<int64_t>(op.numOperands()) - firstIndex != rank)
    return "expected " + str(rank) + " start indices, got " +
           str(static_cast<int64_t>(op.numOperands()) - firstIndex);
  if (shlo::rankOf(op.result(0)) != rank)
    return "expected a result of rank " + str(rank) + ", got " + str(shlo::rankOf(op.result(0)));
  if (firstIndex == 2 && shlo::rankOf(op.operand(1)) != rank)
    return "the update has rank " + str(shlo::rankOf(op.operand(1))) + ", expected " + str(rank);
  return std::nullopt;
}

// A dimension attribute of a collective names a dimension of its operand.
std::optional<std::string> checkDimAttr(const Operation& op, std::string_view name) {
  if (!op.hasAttr(name))
    return std::nullopt;
  int64_t rank = shlo::rankOf(op.operand(0));
  int64_t dim = shlo::intAttr(op, name).value_or(-1);
  if (dim < 0 || dim >= rank)
    return std::string(name) + " " + str(dim) + " is out of range for rank " + str(rank);
  return std::nullopt;
}

} // namespace

std::optional<std::string> violatedPrecondition(const Operation& op) {
  std::string_view name = op.name();
  if (!name.starts_with("stablehlo."))
    return std::nullopt;
  if (!hasTensorTypes(op))
    return std::nullopt; // tokens and tuples: no rule indexes them
  bool oneToOne = op.numOperands() >= 1 && op.numResults() >= 1;
  std::optional<std::string> problem;
  if (name == "stablehlo.dot_general")
    problem = checkDotGeneral(op);
  else if (!oneToOne)
    return std::nullopt;
  else if (name == "stablehlo.transpose")
    problem = checkTranspose(op);
  else if (name == "stablehlo.broadcast_in_dim")
    problem = checkBroadcastInDim(op);
  else if (name == "stablehlo.reduce")
    problem = checkReduce(op);
  else if (name == "stablehlo.slice")
    problem = checkSlice(op);
  else if (name == "stablehlo.pad")
    problem = checkPad(op);
  else if (name == "stablehlo.concatenate")
    problem = checkConcatenate(op);
  else if (name == "stablehlo.dynamic_slice")
    problem = checkDynamicSlice(op, 1);
  else if (name == "stablehlo.dynamic_update_slice")
    problem = checkDynamicSlice(op, 2);
  else
    for (std::string_view attr :
         {"all_gather_dim", "scatter_dimension", "split_dimension", "concat_dimension"})
      if (!problem)
        problem = checkDimAttr(op, attr);
  if (!problem)
    return std::nullopt;
  return "invalid '" + std::string(name) + "': " + *problem;
}

} // namespace shardscope::autodiff::detail
