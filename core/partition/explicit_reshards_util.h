#pragma once

// Small IR helpers shared by the pieces of `-sdy-insert-explicit-reshards`.

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::partition {

/// Inserts `sdy.reshard %input <sharding>` just before `before` and returns the new op.
ir::Operation* insertReshardBefore(ir::Operation& before, ir::Value* input,
                                   const ir::TensorSharding& sharding);

/// `insertReshardBefore` with the `sharding` attribute already built (`Attribute::sharding`):
/// attributes are immutable, so equal reshards can share one.
ir::Operation* insertReshardBefore(ir::Operation& before, ir::Value* input, ir::Attribute sharding);

/// Inserts `sdy.all_reduce [kind] axes %input out_sharding=<outSharding>` located at `loc` just
/// before `before` and returns its result. `kind` is Shardy's reduction operator ("max", "min");
/// empty is the default, a sum.
ir::Value* insertAllReduceBefore(ir::Operation& before, ir::Value* input,
                                 const std::vector<ir::AxisRef>& axes,
                                 const ir::TensorSharding& outSharding,
                                 support::SourceLocation loc, std::string_view kind = {});

/// A closed, fully replicated sharding of rank `rank` on mesh `meshName`.
ir::TensorSharding replicatedOn(const std::string& meshName, int64_t rank);

/// The op after `op` in its block, or null when `op` is the last one. Linear in the block's size,
/// unless a `NextOpScope` is active: then constant (amortised).
ir::Operation* nextOp(ir::Operation& op);

/// While alive (on this thread), `nextOp` finds ops through an index of their positions, built
/// per block on first use. Ops inserted meanwhile are indexed when first asked about; an op must
/// be passed to `forgetOp` before it is erased (or moved) while the scope is active.
class NextOpScope {
public:
  NextOpScope();
  ~NextOpScope();
  NextOpScope(const NextOpScope&) = delete;
  NextOpScope& operator=(const NextOpScope&) = delete;

  struct Index;

private:
  std::unique_ptr<Index> m_index;
  Index* m_previous;
};

/// Drops `op` from the active `NextOpScope`'s index (call before erasing it).
void forgetOp(const ir::Operation& op);

} // namespace shardscope::partition
