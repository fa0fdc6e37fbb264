#pragma once

#include "core/ir/module.h"
#include "core/ir/operation.h"

#include <memory>
#include <string>
#include <string_view>

namespace shardscope::import_ {

/// Inserts `replacement` before `op`, makes every use of `op`'s results use the results of
/// `replacement` (same count required) and erases `op`. Returns the inserted op.
ir::Operation* replaceOp(ir::Operation& op, std::unique_ptr<ir::Operation> replacement);

/// Makes every use of result `i` of `op` use operand `i` instead (same count required) and erases
/// `op`: the op is dropped as if it were an identity.
void replaceOpWithOperands(ir::Operation& op);

/// A new detached op named `name` with one operand and a result of the operand's type, at `op`'s
/// location; `attrName` set (inherent) to `attr` when `attr` is not null.
std::unique_ptr<ir::Operation> unaryOpLike(const ir::Operation& op, std::string_view name,
                                           ir::Value& operand, std::string_view attrName,
                                           ir::Attribute attr);

/// Moves the one-block body of `op` into a new function `name` (visibility `visibility`, none when
/// empty) appended to `module`: the block's arguments become the function's, its terminator a
/// `func.return` of the same values, whose types are `results`. `op`'s region is left empty.
ir::Operation* outlineRegion(ir::Module& module, ir::Operation& op, const std::string& name,
                             const std::vector<ir::Type>& results, std::string_view visibility);

/// Returns the callee name of a `stablehlo.custom_call` or `mhlo.custom_call`, or an empty view
/// for any other op.
std::string_view customCallTarget(const ir::Operation& op);

/// Calls `fn` on every op nested in the functions of `root`'s body, after collecting them, so `fn`
/// may replace or erase the op it is given (but no other op).
template <typename Fn> void forEachNestedOp(ir::Operation& root, Fn&& fn);

} // namespace shardscope::import_

#include <vector>

namespace shardscope::import_ {

template <typename Fn> void forEachNestedOp(ir::Operation& root, Fn&& fn) {
  std::vector<ir::Operation*> ops;
  root.walk([&](ir::Operation& op) {
    if (&op != &root)
      ops.push_back(&op);
  });
  for (ir::Operation* op : ops)
    fn(*op);
}

} // namespace shardscope::import_
