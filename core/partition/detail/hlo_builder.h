#pragma once
// Internal to core/partition: a small builder of StableHLO ops for the passes that lower a
// sharded program to the per-device one (convert-global-to-local, pad-for-divisibility,
// resolve-permutation-factors). Not included from outside the module.

#include "core/ir/module.h"
#include "core/ir/operation.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::partition::detail {

/// How a device learns who it is and which process grouping its collectives use: with more than
/// one replica and a single partition, devices are replicas (`stablehlo.replica_id`, cross-replica
/// collectives); otherwise devices are partitions (`stablehlo.partition_id`, collectives with a
/// channel handle and global device ids, i.e. StableHLO's `flattened_ids` grouping).
struct DeviceModel {
  int64_t replicaCount = 1;
  int64_t partitionCount = 1;
  bool usesReplicas() const { return replicaCount > 1 && partitionCount <= 1; }
};

/// Builds StableHLO ops before a fixed op (the insertion point) of one block.
class HloBuilder {
public:
  HloBuilder(ir::Operation& before, const DeviceModel& model, int64_t* nextChannel)
      : m_before(&before), m_model(model), m_nextChannel(nextChannel) {}

  /// Inserts `name(operands) -> resultType` with inherent attributes `attrs`; returns the op.
  ir::Operation* create(std::string_view name, std::span<ir::Value* const> operands,
                        std::span<const ir::Type> resultTypes,
                        std::vector<ir::NamedAttribute> attrs = {});
  /// Same as `create` for a single result; returns the result.
  ir::Value* create1(std::string_view name, std::span<ir::Value* const> operands,
                     ir::Type resultType, std::vector<ir::NamedAttribute> attrs = {});

  /// `stablehlo.constant` holding `values` (row-major) of `type` (integer element types only).
  ir::Value* intConstant(ir::Type type, std::span<const int64_t> values);
  /// A rank-0 `i64` constant.
  ir::Value* scalarI64(int64_t value) { return intConstant(i64Scalar(), std::vector{value}); }
  /// A splat zero of `type` (any element type).
  ir::Value* zeros(ir::Type type);
  /// This device's id as a rank-0 `i64`: the partition id, or the replica id (see DeviceModel).
  ir::Value* deviceId();
  /// The entry of `perDevice` (indexed by device id) for this device, as a rank-0 `i64`.
  ir::Value* lookup(std::span<const int64_t> perDevice);
  /// `stablehlo.convert` to `type` (identity when the type already matches).
  ir::Value* convert(ir::Value* value, ir::Type type);
  /// `stablehlo.broadcast_in_dim` of `value` to `type` along `dims`.
  ir::Value* broadcast(ir::Value* value, ir::Type type, std::vector<int64_t> dims);
  /// `stablehlo.<kind>` elementwise binary op (add, subtract, multiply, and, ...).
  ir::Value* binary(std::string_view kind, ir::Value* lhs, ir::Value* rhs);
  /// `stablehlo.compare` with `direction` (EQ, LT, GE, ...) giving an `i1` tensor.
  ir::Value* compare(std::string_view direction, ir::Value* lhs, ir::Value* rhs);
  /// `stablehlo.select`.
  ir::Value* select(ir::Value* pred, ir::Value* onTrue, ir::Value* onFalse);
  /// `stablehlo.reshape` to `type`.
  ir::Value* reshape(ir::Value* value, ir::Type type);
  /// `stablehlo.transpose` by `permutation`.
  ir::Value* transpose(ir::Value* value, std::vector<int64_t> permutation);
  /// `stablehlo.dynamic_slice` of `value` at rank-0 `starts` (same integer type) of `sizes`.
  ir::Value* dynamicSlice(ir::Value* value, std::vector<ir::Value*> starts,
                          std::vector<int64_t> sizes);
  /// `stablehlo.slice` with unit strides.
  ir::Value* slice(ir::Value* value, std::vector<int64_t> start, std::vector<int64_t> limit);
  /// `stablehlo.pad` with `padValue` (rank 0) and per-dimension low/high/interior padding.
  ir::Value* pad(ir::Value* value, ir::Value* padValue, std::vector<int64_t> low,
                 std::vector<int64_t> high, std::vector<int64_t> interior);

  /// The attributes of a collective over `groups` (device ids) for this device model: replica
  /// groups, and a fresh channel handle plus `use_global_device_ids` when devices are partitions.
  /// `globalIds` is false for ops without `use_global_device_ids` (all_to_all).
  std::vector<ir::NamedAttribute> collectiveAttrs(const std::vector<std::vector<int64_t>>& groups,
                                                  bool globalIds);
  /// `collectiveAttrs` with the `replica_groups` matrix already built (`i64Matrix(groups)`).
  std::vector<ir::NamedAttribute> collectiveAttrs(ir::Attribute replicaGroups, bool globalIds);
  /// A fresh `#stablehlo.channel_handle<handle = N, type = 1>` (device to device).
  ir::Attribute channelHandle();
  /// Adds to `op` a region `(tensor<T>, tensor<T>) -> tensor<T>` applying `stablehlo.<kind>`.
  void addReductionRegion(ir::Operation& op, ir::ElementType element, std::string_view kind);

  const DeviceModel& model() const { return m_model; }
  static ir::Type i64Scalar();

private:
  ir::Operation* m_before;
  DeviceModel m_model;
  int64_t* m_nextChannel;
};

/// One more than the largest `channel_handle` in `module` (1 when there is none), so the
/// collectives a pass adds get fresh handles.
int64_t nextChannelHandle(const ir::Module& module);

/// `value : i64`.
ir::Attribute i64Attr(int64_t value);
/// A named attribute for `HloBuilder::create`.
ir::NamedAttribute namedAttr(std::string name, ir::Attribute value);
/// `dense<...> : tensor<RxCxi64>` of `rows` (all of the same length).
ir::Attribute i64Matrix(const std::vector<std::vector<int64_t>>& rows);

} // namespace shardscope::partition::detail
