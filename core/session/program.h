#pragma once

// A loaded program and its pipeline stages: the one entry point through which the CLI, the GUI
// and the MPI server see a program.

#include "core/ir/module.h"
#include "core/partition/convert_global_to_local.h"
#include "core/partition/reshard_to_collectives.h"
#include "core/propagation/propagate_basic.h"
#include "core/session/analyses.h"
#include "core/session/input_form.h"
#include "core/session/resource_limits.h"
#include "core/support/diagnostic.h"
#include "core/support/source_manager.h"

#include <array>
#include <atomic>
#include <map>
#include <tuple>
#include <unordered_map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::session {

/// The stages a program goes through on its way to per-device code, and its gradients. Each
/// pipeline stage is derived from a copy of the previous one by that stage's passes, so every
/// stage is an independent, immutable module whose ops keep the source locations of the ops they
/// came from.
enum class Stage {
  AsWritten,   ///< parsed and verified, nothing else
  Propagated,  ///< after `-sdy-propagation-pipeline`
  Partitioned, ///< after `-sdy-insert-explicit-reshards` and `-sdy-reshard-to-collectives`
  PerDevice,   ///< after `-sdy-convert-global-to-local` and `-sdy-drop-sharding-and-mesh`
  /// The program as written plus the gradient of its function (see `Program::gradientFunction`)
  /// with respect to its float arguments, with the variance-aware collective rules.
  GradientEfficient,
  /// The same with the naive rules (psum transposes to psum), for comparison.
  GradientNaive,
};
/// The pipeline stages, in order: each is derived from the one before.
inline constexpr std::array<Stage, 4> kStages = {Stage::AsWritten, Stage::Propagated,
                                                 Stage::Partitioned, Stage::PerDevice};
/// The gradient stages, each derived from the as-written stage.
inline constexpr std::array<Stage, 2> kGradientStages = {Stage::GradientEfficient,
                                                         Stage::GradientNaive};
/// Every stage, in the order a stage selector lists them.
inline constexpr std::array<Stage, 6> kAllStages = {
    Stage::AsWritten,   Stage::Propagated,        Stage::Partitioned,
    Stage::PerDevice,   Stage::GradientEfficient, Stage::GradientNaive};
inline bool isGradientStage(Stage stage) {
  return stage == Stage::GradientEfficient || stage == Stage::GradientNaive;
}

/// Reads a propagation strategy's name as `explain --strategy` takes it: `basic`,
/// `aggressive`, `op-priority`, `user-priority`.
std::optional<propagation::PropagationLevel> parsePropagationStrategy(std::string_view name);

/// `as-written`, `propagated`, `partitioned`, `per-device`, `gradient-efficient`,
/// `gradient-naive`.
std::string_view stageName(Stage stage);
/// Parses a stage name (also `written`, `local`, `grad`, `grad-naive`); nothing for an unknown
/// name.
std::optional<Stage> parseStage(std::string_view name);

/// Set from another thread to stop a computation between passes; it then fails with a
/// "cancelled" error.
using CancelFlag = std::atomic<bool>;

/// Finds the ops of one stage that came from the same source as ops of another stage: the same
/// source location and op name. (Passes keep the location of the op they rewrite; ops they
/// insert take the location of the op they were inserted for, with another name.)
class OpIndex {
public:
  explicit OpIndex(const ir::Module& module);
  /// A per-device module's index with the conversion's stand-ins (see partition::StandIn): as
  /// the `from` of `findFrom`, a stand-in is its source op, and the other ops with a source's
  /// location and name (the helpers of a replaced op) are no op.
  OpIndex(const ir::Module& module, std::span<const partition::StandIn> standIns);
  /// The first op (in pre-order) with `op`'s location and name; null when there is none.
  const ir::Operation* find(const ir::Operation& op) const;
  /// The op of this index's module that `op` of the module `from` indexes stands for: as `find`,
  /// with `from`'s stand-ins.
  const ir::Operation* findFrom(const OpIndex& from, const ir::Operation& op) const;
  /// Collectives change names between stages (`sdy.all_gather` becomes `stablehlo.all_gather`)
  /// and one reshard may become several at the same location: the `position`-th collective
  /// (in pre-order) at `loc`, or null.
  const ir::Operation* collectiveAt(support::SourceLocation loc, size_t position) const;
  /// The position of collective `op` among the collectives at its location (see collectiveAt).
  std::optional<size_t> collectivePosition(const ir::Operation& op) const;

private:
  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, std::string_view>, const ir::Operation*> m_ops;
  std::map<Key, std::vector<const ir::Operation*>> m_collectives;
  using NamedKey = std::tuple<uint32_t, uint32_t, uint32_t, std::string>;
  std::unordered_map<const ir::Operation*, NamedKey> m_standIns;
  std::set<NamedKey> m_shadowed;
};

/// Finds the op of `to` that corresponds to `op` of the module `from` indexes: the same source op,
/// or for collectives the one at the same position among those at its location.
const ir::Operation* correspondingOp(const OpIndex& from, const OpIndex& to,
                                     const ir::Operation& op);

/// How `Program::explainSharding` propagates and names values.
struct ExplainOptions {
  /// The propagation strategy to explain (the stages use user priorities).
  propagation::PropagationLevel level = propagation::PropagationLevel::UserPriority;
  enum class Names {
    Source,  ///< the source's names where it has them (`%x`), else the printer's (the views)
    Printed, ///< the printer's names (`%0`), as `shardscope-cli check` lists them
  };
  Names names = Names::Source;
};

/// A program: its source text and, computed on demand and cached, its stages.
class Program {
public:
  /// Reads `path` (errors: unreadable, empty, syntax, invalid shardings) and verifies it. Returns
  /// null after reporting to `sink`.
  static std::unique_ptr<Program> load(const std::string& path, support::DiagnosticSink& sink);
  /// Same for text already in memory; `name` is the file name used in locations.
  static std::unique_ptr<Program> fromText(std::string name, std::string text,
                                           support::DiagnosticSink& sink);

  const support::SourceManager& sources() const { return m_sources; }
  uint32_t fileId() const { return m_fileId; }
  const std::string& path() const { return m_sources.name(m_fileId); }
  /// The form the program's shardings were written in (they are in Shardy's form once loaded).
  InputForm inputForm() const { return m_inputForm; }
  /// The warnings of a successful load (shardings that could not be read, ...), which were also
  /// reported to the load's sink: reports list them with the analyses' findings.
  const std::vector<support::Diagnostic>& loadDiagnostics() const { return m_loadDiagnostics; }

  /// The module of `stage`, computing it (and the stages it derives from, all cached) on first
  /// use. Returns null after reporting to `sink` when the stage's passes fail, or when `cancel`
  /// is set before it is done (nothing partial is cached).
  const ir::Module* stage(Stage stage, support::DiagnosticSink& sink,
                          const CancelFlag* cancel = nullptr);
  /// The module of `stage` when it has been computed, else null.
  const ir::Module* cachedStage(Stage stage) const {
    return m_stages[static_cast<size_t>(stage)].get();
  }
  /// The function a stage is about: for a gradient stage the gradient function it added
  /// (`main_grad`, `main_grad_naive`), else empty (`main` or the only public function). Valid
  /// once the stage has been computed.
  std::string defaultFunction(Stage stage) const;
  /// The program whose as-written stage is gradient stage `stage` (a copy of it), so that the
  /// gradient can be partitioned and run on the mesh like any program; it shares this program's
  /// source text, so its locations point into the same file. Computed on first use; null after
  /// reporting to `sink` when the gradient cannot be built.
  Program* gradientProgram(Stage stage, support::DiagnosticSink& sink);
  /// The analyses of `stage` (see StageAnalyses), computing the stage first when needed; computed
  /// once and cached with the stage, safe to call from several threads. Returns null after
  /// reporting to `sink` when the stage cannot be computed, or when `cancel` is set (nothing
  /// partial is cached). The analyses' own findings are in `diagnostics`, not reported.
  const StageAnalyses* analyses(Stage stage, support::DiagnosticSink& sink,
                                const CancelFlag* cancel = nullptr);
  /// The JAX-level types of the program as written under `options` (other explicit axes than
  /// the program's own, `types --explicit-axes`): computed on each call, reporting its findings
  /// to `sink`. Nothing when the types cannot be computed.
  std::optional<analysis::ExplicitTyping>
  explicitTypes(const analysis::ExplicitTypingOptions& options,
                support::DiagnosticSink& sink) const;
  /// The module as written (always available after a successful load).
  const ir::Module& asWritten() const { return *m_stages[0]; }

  /// The ops of the `PerDevice` stage that stand for a global op the conversion replaced by
  /// several (see partition::StandIn); empty until that stage has been computed.
  const std::vector<partition::StandIn>& standIns() const { return m_standIns; }

  /// Why each collective of the `Partitioned` stage was inserted (empty until that stage has been
  /// computed). Explicit collectives of the source are not listed.
  const std::vector<partition::InsertedCollective>& insertedCollectives() const {
    return m_inserted;
  }

  /// Why collective `op` of the `Partitioned` stage is there: written in the program, inserted to
  /// reshard a value between a producer and a consumer, or inserted to reduce partial results.
  struct CollectiveCause {
    bool inserted = false;
    /// One sentence for humans.
    std::string why;
    const ir::Operation* producer = nullptr;
    const ir::Operation* consumer = nullptr;
    std::string producerSharding;
    std::string neededSharding;
  };
  /// Constant time after the first call. The producer and consumer are the live neighbours in
  /// the partitioned stage (the other steps of the same reshard are walked through).
  CollectiveCause causeOf(const ir::Operation& op) const;

  /// Why a value has the sharding it has after propagation: its sharding as written and after,
  /// the annotations it came from and the propagation steps that carried it there (values named
  /// as `ExplainOptions::names` says).
  struct ShardingExplanation {
    struct Seed {
      std::string tensor;     ///< `%arg0`
      std::string annotation; ///< `#sdy.sharding<@mesh, [{"x"}, {}]>`
      std::string str() const { return tensor + "  " + annotation; }
    };
    struct Step {
      std::string text; ///< `%arg0 -> %0: stablehlo.add forward factor 0 ["x"]`
      uint32_t line = 0; ///< of the op the step went through; 0 when unknown
      std::string str() const {
        return line ? text + " (line " + std::to_string(line) + ")" : text;
      }
    };
    std::string asWritten;  ///< Shardy notation, or `(no sharding)`
    std::string propagated; ///< the same after propagation
    /// The sharding after propagation, for other notations (JAX's typed and PartitionSpec forms).
    std::optional<ir::TensorSharding> propagatedSharding;
    /// False when propagation did not change the sharding (its own annotation, or nothing
    /// reached it); `seeds` and `steps` are then empty.
    bool changed = false;
    std::vector<Seed> seeds;
    std::vector<Step> steps;
    /// The factor rule of the op defining the value, as Shardy prints it
    /// (`#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16}>`); empty for an
    /// argument or an op without a rule.
    std::string rule;
  };
  /// Explains `value`, a value of the as-written module. The first call for a strategy
  /// propagates a copy of the program with a trace; later calls reuse it. Nothing for a value of
  /// another module, or when propagation fails (its errors are then reported to `sink` when
  /// one is given).
  std::optional<ShardingExplanation> explainSharding(const ir::Value& value,
                                                     const ExplainOptions& options = {},
                                                     support::DiagnosticSink* sink = nullptr);

private:
  Program() = default;
  std::unique_ptr<ir::Module> parse(support::DiagnosticSink& sink);
  std::unique_ptr<ir::Module> derive(Stage stage, const ir::Module& from,
                                     support::DiagnosticSink& sink, const CancelFlag* cancel);
  std::unique_ptr<ir::Module> deriveGradient(Stage stage, const ir::Module& from,
                                             support::DiagnosticSink& sink);

  support::SourceManager m_sources;
  uint32_t m_fileId = 0;
  InputForm m_inputForm = InputForm::Unsharded;
  std::vector<support::Diagnostic> m_loadDiagnostics;
  std::array<std::unique_ptr<ir::Module>, kAllStages.size()> m_stages;
  std::array<std::string, kAllStages.size()> m_defaultFunctions;
  std::array<std::unique_ptr<Program>, kGradientStages.size()> m_gradientPrograms;
  std::vector<partition::InsertedCollective> m_inserted;
  std::vector<partition::StandIn> m_standIns;
  std::mutex m_analysesMutex;
  std::array<std::unique_ptr<StageAnalyses>, kAllStages.size()> m_analyses;
  struct CauseIndex {
    explicit CauseIndex(const ir::Module& written) : written(written) {}
    OpIndex written;
    std::unordered_map<const ir::Operation*, const partition::InsertedCollective*> inserted;
  };
  /// Built on first use; the mutex lets report threads ask for causes concurrently.
  const CauseIndex& causeIndex() const;
  mutable std::mutex m_causeMutex;
  mutable std::unique_ptr<CauseIndex> m_causeIndex;
  struct ExplainState;
  std::map<propagation::PropagationLevel, std::shared_ptr<ExplainState>> m_explain;
};

/// The function `wanted` names (a leading `@` is allowed), or when it is empty `main`, else the
/// only public function. Null after reporting why to `sink`.
const ir::Operation* pickFunction(const ir::Module& module, const std::string& wanted,
                                  support::DiagnosticSink& sink);

/// The mesh a function runs on: the mesh of the first sharding on `function`'s arguments,
/// results or ops, else of any function's, else the module's only `sdy.mesh`. Null when there is
/// none.
const ir::Mesh* programMesh(const ir::Module& module, const ir::Operation* function = nullptr);

} // namespace shardscope::session
