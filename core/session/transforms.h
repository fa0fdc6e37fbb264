#pragma once

// Gradients and transposes of one function under options a front end chooses (`grad --wrt`,
// `transpose --linear-in`, `--naive`), each built with both collective rule sets so that their
// costs can be compared, before and after partitioning.
//
// The session's gradient stages (Stage::GradientEfficient/GradientNaive) are the fixed case of
// this: the whole float argument list of the default function.

#include "core/analysis/collective_cost.h"
#include "core/autodiff/autodiff.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::session {

class Program;

enum class Transform { Grad, Transpose };

struct TransformRequest {
  Transform kind = Transform::Grad;
  /// The function to transform (`main` or the only public function when empty).
  std::string function;
  /// The arguments it is taken with respect to (grad) or linear in (transpose): names (`x`,
  /// `%x`) or numbers, as `autodiff::GradOptions::wrt` reads them.
  std::vector<std::string> arguments;
  /// Build the asked-for function with the naive rules (psum transposes to psum); the comparison
  /// then uses the variance-aware ones.
  bool naive = false;
};

/// What partitioning the module with both functions adds to each of them.
struct PartitionedCosts {
  /// False when the module does not partition; `error` then says why (may be empty).
  bool partitioned = false;
  std::string error;
  analysis::CostSummary efficient;
  analysis::CostSummary naive;
};

struct TransformResult {
  /// A copy of the program as written with the two new functions.
  std::unique_ptr<ir::Module> module;
  /// The function transformed, in `module`.
  const ir::Operation* source = nullptr;
  /// The function built with the asked-for rules, and the one built with the other rules.
  const ir::Operation* function = nullptr;
  const ir::Operation* compared = nullptr;
  autodiff::CollectiveRules rules = autodiff::CollectiveRules::Efficient;
  autodiff::CollectiveRules otherRules = autodiff::CollectiveRules::Naive;
  /// Argument numbers of `source` the transform was taken with respect to.
  std::vector<unsigned> arguments;
  /// The collectives each function runs as built (ring model, bytes sent per device).
  analysis::CostSummary costs;
  analysis::CostSummary otherCosts;

  const analysis::CostSummary& efficientCosts() const {
    return rules == autodiff::CollectiveRules::Efficient ? costs : otherCosts;
  }
  const analysis::CostSummary& naiveCosts() const {
    return rules == autodiff::CollectiveRules::Naive ? costs : otherCosts;
  }
  /// The costs after partitioning the module with both functions (computed by
  /// `partitionedCosts`, which a caller asks for only when it shows them).
  PartitionedCosts partitionedCosts() const;
};

/// Builds `request`'s function twice (asked-for and other rules) on a copy of `program` as
/// written. Reports located errors (unknown function or argument, an op the transform does not
/// support, ...) to `sink` and returns nothing.
std::optional<TransformResult> transformFunction(const Program& program,
                                                 const TransformRequest& request,
                                                 support::DiagnosticSink& sink);

} // namespace shardscope::session
