#pragma once

// Immutable snapshots of engine state, handed from the engine thread to the widgets through
// queued signals. Plain Qt value types only: the models and views never see an engine pointer.

#include <QColor>
#include <QHash>
#include <QMap>
#include <QMetaType>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>

#include "core/ir/sdy_types.h"

#include <memory>

namespace shardscope::widgets {

/// The stages of the pipeline, in order, then the gradient stages (matches
/// `session::kAllStages`).
enum class StageId {
  AsWritten = 0,
  Propagated = 1,
  Partitioned = 2,
  PerDevice = 3,
  GradientEfficient = 4,
  GradientNaive = 5,
};
inline constexpr int kNumStages = 6;
inline bool isGradientStage(StageId stage) {
  return stage == StageId::GradientEfficient || stage == StageId::GradientNaive;
}
/// The stage a diff of `stage` compares with by default: the pipeline stage before it, for a
/// gradient stage the other gradient stage, for the first stage the propagated one (what
/// propagation will change). Never `stage` itself: a stage is not diffed with itself.
int defaultDiffBase(StageId stage);
/// `As written`, `Propagated`, `Partitioned`, `Per device`, `Gradient (efficient)`,
/// `Gradient (naive)` for humans.
QString stageTitle(StageId stage);
/// `as-written`, ... as the command line spells them; parses `written`, `local` too.
QString stageKey(StageId stage);
bool parseStageKey(const QString& key, StageId* stage);

/// The block of a tensor one device holds: the shard index and global range per dimension.
struct DeviceBlockInfo {
  qint64 device = 0;
  QVector<qint64> shardIndex;
  QVector<qint64> begin; ///< per dimension, padding excluded
  QVector<qint64> end;
};

/// How a value is laid out over the mesh (empty `shape` when unknown).
struct LayoutInfo {
  bool valid = false;
  QVector<qint64> shape;
  QVector<qint64> shards;
  QVector<qint64> localShape;
  QVector<DeviceBlockInfo> blocks;            ///< in mesh order
  QVector<QVector<qint64>> replicaGroups;     ///< devices holding identical data
  /// Devices holding the same block (the same shard index). Equal to `replicaGroups` unless the
  /// value is partial: then each block is spread as partial values over the unreduced axes.
  QVector<QVector<qint64>> blockGroups;
  /// The unreduced (partial) axes as Shardy writes them (`"model"`), empty for complete values,
  /// and the reduction that completes them (`sum`, `max`, ...).
  QStringList partialAxes;
  QString partialKind;
  QString error;
  /// The index of the block group `device` belongs to, or -1: the colour of its block.
  int groupOf(qint64 device) const;
  bool isPartial() const { return !partialAxes.isEmpty(); }
  /// "partial over 'model'" (or "partial (max) over 'x', 'y'"), empty for complete values.
  QString partialText() const;
};

/// One value of a stage. `id` is stable across stages: source location plus op name and result
/// index (`12:3:stablehlo.add#0`) or function argument (`arg:main#1`).
struct ValueRow {
  QString id;
  QString opId; ///< the defining op's id (`12:3:stablehlo.add`), empty for arguments
  QString name; ///< as printed (`%0`, `%arg1`)
  QString function;
  QString opName;
  QString type;    ///< MLIR type
  QString typed;   ///< JAX typed notation
  QString spec;    ///< PartitionSpec
  QString shardy;  ///< Shardy attribute
  QString gspmd;   ///< the same as XLA's GSPMD string
  QString jaxName; ///< what JAX called it (`jit(f)/jit(main)/dot_general`), from its location
  QString variance;
  QStringList varyingAxes; ///< the mesh axes `variance` names, in mesh order
  int line = 0;
  int column = 0;
  LayoutInfo layout;
};

/// One collective of a stage with its cost under the ring model.
struct CollectiveRow {
  QString opId;
  QString op;
  QString kind;
  QStringList axes;
  /// The bytes each device sends along each axis of `axes` (the ring model's split of bytesSent).
  QVector<qint64> axisBytes;
  qint64 groupSize = 1;
  qint64 numGroups = 1;
  qint64 bytesSent = 0;
  qint64 bytesReceived = 0;
  QString why;
  bool inserted = false;
  int line = 0;
  int column = 0;
  /// The same axes as references (sub-axes with their pre-size and size): the views ask the
  /// mesh (`MeshInfo::geometry`) for the groups and rings of the devices they draw.
  std::vector<ir::AxisRef> axisRefs;
};

/// A diagnostic with its location.
struct ProblemRow {
  QString severity; ///< `error`, `warning`, `remark`, `note`
  QString message;
  QString stage; ///< the stage that reported it, for humans (`Partitioned`, `Run`)
  int line = 0;
  int column = 0;
  /// The op at the diagnostic's location (see ValueRow::id), empty when no op is there.
  QString opId;
  /// The stage that reported it; -1 for a run's diagnostics.
  int stageId = -1;
  bool isError() const { return severity == QLatin1String("error"); }
};

/// A device mesh: axis names and sizes (major to minor), device ids in mesh order.
struct MeshInfo {
  QString name;
  QStringList axisNames;
  QVector<qint64> axisSizes;
  QVector<qint64> deviceIds;
  /// The mesh itself, for its geometry (`sharding::MeshView`: groups of a collective, rings,
  /// coordinates); null when the program has none.
  std::shared_ptr<const ir::Mesh> geometry;
  qint64 numDevices() const;
  /// The mesh coordinates of the device at `position` (mesh order).
  QVector<qint64> coordinates(qint64 position) const;
  /// Mesh position of `device`, or -1.
  qint64 positionOf(qint64 device) const;
};

/// Where a stage's computation is: done (successfully or not: see `available`), still to come
/// (the engine computes the stages after `programLoaded`, one by one), or stopped by Cancel (it is
/// computed again when a view asks for it).
enum class StageStatus { Computed, Pending, Cancelled };

struct StageSnapshot {
  StageId stage = StageId::AsWritten;
  StageStatus status = StageStatus::Computed;
  /// True while the stage has not been computed yet (pending or cancelled): views show
  /// "computing…" instead of its (empty) rows.
  bool notComputed() const { return status != StageStatus::Computed; }
  bool available = false;
  /// Why the stage is not available (a gradient of a function that is not scalar, ...).
  QString unavailable;
  /// The function the stage is about (a gradient stage's gradient function); empty: `main`.
  QString function;
  /// What the stage is, in one sentence (for gradient stages: of what, with respect to what).
  QString description;
  QString text; ///< the stage's module, printed
  /// Where ops start in `text` (1-based lines), by op id: the first op of an id, and the first
  /// op of a line. The Stage IR view links its lines to the selection through these.
  QHash<QString, int> opLines;
  QMap<int, QString> lineOps;
  /// The op whose text contains `line` (the last op starting at or before it), empty if none.
  QString opAtLine(int line) const;
  QVector<ValueRow> values;
  QVector<CollectiveRow> collectives;
  QString totalBytes;
};

struct ProgramSnapshot {
  /// Which load this is: every update of one load (a stage computed later) has the same id, a
  /// new load a new one.
  quint64 loadId = 0;
  QString path;
  QString source;
  /// The form its shardings were written in (`Shardy`, `GSPMD`, `Shardy round-trip`,
  /// `unsharded`) and one line on how it was read.
  QString inputForm;
  QString inputFormDescription;
  MeshInfo mesh;
  StageSnapshot stages[kNumStages];
  QVector<ProblemRow> problems;
  /// Why no run can start, as the problem of `problems` that says so (a tensor beyond the size
  /// limit runs have); an empty message when the program can run.
  ProblemRow cannotRun;
  bool canRun() const { return cannotRun.message.isEmpty(); }
  const StageSnapshot& stage(StageId id) const { return stages[static_cast<int>(id)]; }
  /// The problems `stage` inherits and reports: those of the stages it is derived from (for a
  /// gradient stage, the as-written one) and its own, in the order they were reported.
  QVector<ProblemRow> problemsOf(StageId stage) const;
  /// True when no stage is pending any more.
  bool allStagesComputed() const;
  /// The value with `id` in `stage`, or null.
  const ValueRow* findValue(StageId stage, const QString& id) const;
  const CollectiveRow* findCollective(StageId stage, const QString& opId) const;
};
using ProgramSnapshotPtr = std::shared_ptr<const ProgramSnapshot>;

/// Why a value has its sharding after propagation (`Program::explainSharding`).
struct ExplanationSnapshot {
  QString valueId;
  QString asWritten;  ///< Shardy notation, or `(no sharding)`
  QString propagated;
  bool changed = false; ///< false: its own annotation, or nothing reached it
  QStringList seeds;  ///< the annotations it came from
  QStringList steps;  ///< the propagation steps that carried it, in order
  QString rule;       ///< the defining op's factor rule (`#sdy.op_sharding_rule<...>`)
  QString note;       ///< why there is no explanation
};
using ExplanationSnapshotPtr = std::shared_ptr<const ExplanationSnapshot>;

/// A tensor's elements as doubles, row-major.
struct TensorData {
  bool valid = false;
  QVector<qint64> shape;
  QVector<double> values;
  QString note; ///< why it is missing, or a remark
};

struct DevicePosition {
  qint64 device = 0;
  QString op; ///< empty when the device finished
  QString opId;
  int line = 0;
  int depth = 0;
  int rank = -1; ///< the MPI rank that runs the device, -1 when not on MPI
};

/// An op that steps of a run's timeline executed.
struct TimelineOp {
  QString opId;  ///< see ValueRow
  QString name;  ///< `stablehlo.all_reduce`
  int line = 0;  ///< its line in the source
};

/// The steps of a run, for a timeline: step k + 1 executed `ops[steps[k].op]`.
struct Timeline {
  struct Step {
    qint32 op = -1;       ///< index into `ops`
    quint16 depth = 1;    ///< frame depth (1: the function's body)
    bool collective = false;
    bool diverged = false; ///< the reference check found a divergence at this step
  };
  QVector<TimelineOp> ops;
  QVector<Step> steps;
  /// Steps the bar shows: every step recorded by this run or by an earlier run with the same
  /// inputs that went further (after a jump back, the steps ahead are still known).
  qint64 known() const { return steps.size(); }
  /// The index in `ops` of the op with id `op.opId`, added when it is not there yet.
  qint32 opIndex(const TimelineOp& op);

private:
  QHash<QString, qint32> m_opIndex; // opId -> index in `ops`
};

struct ExecutionSnapshot {
  bool started = false;
  bool finished = false;
  bool failed = false;
  QString stopReason;
  qint64 steps = 0;
  QVector<DevicePosition> devices;
  QString valueId;   ///< the value shown
  QString valueName;
  QVector<TensorData> perDevice; ///< by device index
  /// The part of the reference value each device should hold (by device index; invalid when
  /// there is no reference value for it).
  QVector<TensorData> referencePerDevice;
  /// Whether the reference check compared the value shown: then `differingDevices` are the
  /// devices whose blocks differ from the reference's.
  bool valueCompared = false;
  QVector<qint64> differingDevices;
  TensorData global;
  TensorData reference;
  QString replicaProblem;
  QStringList divergences;
  QVector<qint64> divergingDevices;
  QString referenceSummary;
  /// Where the run executes: `in-process`, `serve` (a local `shardscope-cli serve` child) or
  /// `mpi` (`mpirun ... serve --backend mpi`).
  QString backend = QStringLiteral("in-process");
  int numRanks = 0; ///< MPI ranks (0 when not on MPI)
  /// Why the run failed when the server died or stopped answering: the exit status and the tail
  /// of its stderr (empty otherwise).
  QString failure;
  /// The run's diagnostics (stage `Run`): for a failed run the error with the op and line where
  /// it stopped.
  QVector<ProblemRow> problems;
  /// What every step did (shared between snapshots of one run while it does not grow; under MPI
  /// read from the server). Null before a run starts, or from a server without timelines.
  std::shared_ptr<const Timeline> timeline;
};
using ExecutionSnapshotPtr = std::shared_ptr<const ExecutionSnapshot>;

/// One laid-out node of the program graph (points, y down).
struct GraphNodeItem {
  QString id;      ///< the graph's stable node id
  QString opId;    ///< the op's id (see ValueRow), empty for arguments, results, pbroadcasts
  QString kind;    ///< `op`, `collective`, `inserted-collective`, `summary`, ...
  QString clusterId; ///< for a summary node: the collapsed cluster
  /// For a summary node: the ops inside the collapsed cluster, nested ones included (so that
  /// their problems mark it).
  QStringList innerOpIds;
  QStringList lines; ///< label lines: title, then attributes
  QString note;
  qint64 bytes = -1;
  QRectF rect;
  QColor fill, border, text;
  QColor badge; ///< the byte badge's colour
};

struct GraphEdgeItem {
  QVector<QPointF> points; ///< a cubic B-spline as Graphviz gives it (1 + 3n points)
  bool hasArrow = false;
  QPointF arrowTip;
  QString label;
  QPointF labelCenter;
  bool hasLabel = false;
  /// The value the edge carries, named as the value rows name it (`%h`, `%3`); empty for an edge
  /// that stands for several values.
  QString value;
};

struct GraphClusterItem {
  QString id;
  QString label;
  QRectF rect;
  QPointF labelCenter;
  QColor fill, border;
};

/// The laid-out graph of one function of one stage.
struct GraphSnapshot {
  StageId stage = StageId::AsWritten;
  QString function;
  QStringList functions; ///< every function of the stage, for choosing another
  QString status; ///< empty when laid out, else why not (too large, cancelled, failed)
  QRectF bounds;
  qint64 opCount = 0;
  QVector<GraphNodeItem> nodes;
  QVector<GraphEdgeItem> edges;
  QVector<GraphClusterItem> clusters;
};
using GraphSnapshotPtr = std::shared_ptr<const GraphSnapshot>;

} // namespace shardscope::widgets

// For queued signals and QSignalSpy (registered by `EngineController`).
Q_DECLARE_METATYPE(shardscope::widgets::StageId)
Q_DECLARE_METATYPE(shardscope::widgets::ProgramSnapshotPtr)
Q_DECLARE_METATYPE(shardscope::widgets::ExecutionSnapshotPtr)
Q_DECLARE_METATYPE(shardscope::widgets::GraphSnapshotPtr)
Q_DECLARE_METATYPE(shardscope::widgets::ExplanationSnapshotPtr)
