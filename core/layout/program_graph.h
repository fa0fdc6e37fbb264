#pragma once

// The program graph of one function of one stage: ops as nodes, values as labelled edges, regions
// (manual computations, loop and branch bodies, reduce bodies) and synthetic groups (long chains
// of simple ops, segments of huge blocks) as nested clusters. Plain data, no Qt: the report
// writers and the GUI's graph view both start from it.

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::layout {

/// What a node stands for; writers style nodes by kind.
enum class NodeKind : uint8_t {
  Argument,           ///< a function argument
  Result,             ///< the function's return
  Op,                 ///< an ordinary op
  Collective,         ///< a collective written in the program
  InsertedCollective, ///< a collective inserted by partitioning
  Pbroadcast,         ///< an implicit pbroadcast (JAX `pvary`) on one operand
  RegionEntry,        ///< the op that owns a cluster's regions (operands enter here)
  RegionExit,         ///< where a cluster's results leave (its terminators feed it)
  Summary,            ///< a collapsed cluster (only in a `VisibleGraph`)
  ValueRef,           ///< a stand-in for a value used far away (only in a `VisibleGraph`)
};

/// `argument`, `result`, `op`, `collective`, `inserted-collective`, `pbroadcast`, `region-entry`,
/// `region-exit`, `summary`, `value-ref`: the CSS class and JSON spelling of `kind`.
const char* nodeKindName(NodeKind kind);

/// What a cluster stands for.
enum class ClusterKind : uint8_t {
  ManualComputation, ///< `sdy.manual_computation` (shard_map)
  Loop,              ///< `stablehlo.while`
  Branch,            ///< `stablehlo.case` / `stablehlo.if`
  Reduce,            ///< the body of a reduce-like op (reduce, reduce_window, scatter, sort...)
  Region,            ///< any other op with regions (named computations, calls...)
  Chain,             ///< a long chain of simple ops (synthetic)
  Segment,           ///< a run of consecutive ops of a huge block (synthetic)
};

/// `manual-computation`, `loop`, `branch`, `reduce`, `region`, `chain`, `segment`.
const char* clusterKindName(ClusterKind kind);

/// One node. `id` is stable across stages and runs: it is built from the source location and,
/// for collectives, their position at that location (see `ProgramGraph`).
struct GraphNode {
  std::string id;
  NodeKind kind = NodeKind::Op;
  /// The op name (`stablehlo.add`), or `argument` / `return`.
  std::string opName;
  /// The first label line: the short op name (`add`) or the argument's name.
  std::string title;
  /// Key attributes, one per label line (`dims = [1] x [0]`, `manual_axes = {x, y}`).
  std::vector<std::string> attributes;
  /// The innermost cluster holding the node (index into `ProgramGraph::clusters`), or -1.
  int cluster = -1;
  support::SourceLocation loc;
  /// Bytes one device sends (collectives), -1 when not applicable.
  int64_t bytes = -1;
  /// Why the node is there (inserted collectives, pbroadcasts); empty otherwise.
  std::string note;
  /// The op (null for arguments, results and pbroadcasts); valid while the module lives.
  const ir::Operation* op = nullptr;
  /// The full name JAX gave the op or argument in its debug location
  /// (`jit(f)/jit(main)/dot_general`, or `x` for an argument), for tooltips; empty when it has
  /// none. Its last component (`dot_general`) is a label line when it says more than `title`.
  std::string jaxName;
};

/// One value flowing from node `from` to node `to` (indices into `ProgramGraph::nodes`).
struct GraphEdge {
  int from = 0;
  int to = 0;
  /// The value's printed name (`%3`, `%arg0`).
  std::string value;
  /// The value's type in JAX's typed notation with its sharding (`f32[4@x,8]`), then its variance
  /// (`{V:x}`) when it is inside a manual computation.
  std::string label;
};

/// One cluster; clusters form a tree through `parent`.
struct GraphCluster {
  std::string id;
  ClusterKind kind = ClusterKind::Region;
  /// e.g. `sdy.manual_computation  manual_axes={x, y}` or `chain of 12 ops`.
  std::string label;
  int parent = -1;
  /// Nesting depth (0 for a cluster directly in the function).
  int depth = 0;
  /// Nodes directly inside and child clusters, in program order.
  std::vector<int> nodes;
  std::vector<int> children;
  /// Ops in the cluster and everything nested in it.
  int64_t opCount = 0;
  /// Sum of `bytes` of the collectives nested in it, and their number.
  int64_t bytes = 0;
  int64_t collectives = 0;
};

/// The graph of one function.
struct ProgramGraph {
  std::string function;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  std::vector<GraphCluster> clusters;
  /// Number of ops of the function (nested included, terminators excluded).
  int64_t opCount = 0;

  /// The index of the node with id `id`, or -1.
  int findNode(const std::string& id) const;
  /// The index of the cluster with id `id`, or -1.
  int findCluster(const std::string& id) const;
};

/// An op the caller wants marked: a collective with its cost and why it is there.
struct OpMark {
  bool collective = false;
  bool inserted = false;
  /// Bytes one device sends, -1 when unknown.
  int64_t bytes = -1;
  std::string note;
};

/// An implicit pbroadcast: operand `operandIndex` of `op` is lifted to vary over `axes`.
struct PbroadcastMark {
  const ir::Operation* op = nullptr;
  unsigned operandIndex = 0;
  /// e.g. `{"x"}`.
  std::string axes;
  /// e.g. `mixed operands`.
  std::string reason;
};

/// Facts from the analyses, passed in as plain data so that `core/layout` depends on nothing but
/// the IR and the sharding notations.
struct GraphAnnotations {
  /// Printed names of values (`io::mlir::printedValueNames`); values without one get `%?`.
  const std::unordered_map<const ir::Value*, std::string>* valueNames = nullptr;
  /// Variance of values inside manual computations, as `{V:x,y}`.
  std::unordered_map<const ir::Value*, std::string> variance;
  /// Types that replace a value's typed notation in its edge label: under explicit mesh axes,
  /// the type JAX gives it (`f32[8@X,8]`), so edges read as JAX's messages do.
  std::unordered_map<const ir::Value*, std::string> typeLabels;
  /// Collectives (and anything else to mark) by op.
  std::unordered_map<const ir::Operation*, OpMark> ops;
  std::vector<PbroadcastMark> pbroadcasts;
};

/// How `buildProgramGraph` groups ops.
struct BuildOptions {
  /// Chains of at least this many simple ops (one result used once, by the next op) become a
  /// `Chain` cluster; 0 disables chains.
  int minChainLength = 4;
  /// Chains are only formed in functions with more ops than this (small graphs stay op by op).
  int64_t groupAbove = 400;
  /// A block with more direct ops than this is split into `Segment` clusters of at most
  /// `segmentFanout` parts each, recursively, so no cluster has more than this many members.
  int maxBlockOps = 200;
  int segmentFanout = 40;
};

/// Builds the graph of function `fn` (a `func.func` of `module`). Node ids: `L<line>C<col>:<op>`
/// for ops (`#<k>` appended for the k-th op with the same key), collectives as
/// `L<line>C<col>:collective#<k>` (they change names between stages), `arg<i>`, `return`,
/// `<op id>/exit`, `<op id>/pvary<operand>`; cluster ids are `cluster:<entry id>`,
/// `chain:<first id>`, `segment:<first id>`.
ProgramGraph buildProgramGraph(const ir::Module& module, const ir::Operation& fn,
                               const GraphAnnotations& annotations,
                               const BuildOptions& options = {});

/// The typed notation of a value for edge labels: `f32[4@x,8]` with its sharding, `f32[4,8]`
/// without one, the MLIR spelling for non-tensors.
std::string typedLabel(const ir::Value& value);

} // namespace shardscope::layout
