#pragma once

// Immutable snapshots of engine state, handed from the engine thread to the widgets through
// queued signals. Plain Qt value types only: the models and views never see an engine pointer.

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

namespace shardscope::widgets {

/// The stages of the pipeline, in order (matches `session::kStages`).
enum class StageId { AsWritten = 0, Propagated = 1, Partitioned = 2, PerDevice = 3 };
inline constexpr int kNumStages = 4;
/// `as written`, `propagated`, `partitioned`, `per-device` for humans.
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
  QString error;
  /// The index of the replica group `device` belongs to, or -1.
  int groupOf(qint64 device) const;
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
  QString variance;
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
  qint64 groupSize = 1;
  qint64 numGroups = 1;
  qint64 bytesSent = 0;
  qint64 bytesReceived = 0;
  QString why;
  bool inserted = false;
  int line = 0;
  int column = 0;
};

/// A diagnostic with its location.
struct ProblemRow {
  QString severity; ///< `error`, `warning`, `remark`, `note`
  QString message;
  QString stage;    ///< the stage that reported it
  int line = 0;
  int column = 0;
};

/// A device mesh: axis names and sizes (major to minor), device ids in mesh order.
struct MeshInfo {
  QString name;
  QStringList axisNames;
  QVector<qint64> axisSizes;
  QVector<qint64> deviceIds;
  qint64 numDevices() const;
  /// The mesh coordinates of the device at `position` (mesh order).
  QVector<qint64> coordinates(qint64 position) const;
  /// Mesh position of `device`, or -1.
  qint64 positionOf(qint64 device) const;
};

struct StageSnapshot {
  StageId stage = StageId::AsWritten;
  bool available = false;
  QString text; ///< the stage's module, printed
  QVector<ValueRow> values;
  QVector<CollectiveRow> collectives;
  QString totalBytes;
};

struct ProgramSnapshot {
  QString path;
  QString source;
  MeshInfo mesh;
  StageSnapshot stages[kNumStages];
  QVector<ProblemRow> problems;
  const StageSnapshot& stage(StageId id) const { return stages[static_cast<int>(id)]; }
  /// The value with `id` in `stage`, or null.
  const ValueRow* findValue(StageId stage, const QString& id) const;
  const CollectiveRow* findCollective(StageId stage, const QString& opId) const;
};
using ProgramSnapshotPtr = std::shared_ptr<const ProgramSnapshot>;

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
  TensorData global;
  TensorData reference;
  QString replicaProblem;
  QStringList divergences;
  QVector<qint64> divergingDevices;
  QString referenceSummary;
};
using ExecutionSnapshotPtr = std::shared_ptr<const ExecutionSnapshot>;

/// One laid-out node of the program graph (points, y down).
struct GraphNodeItem {
  QString id;      ///< the graph's stable node id
  QString opId;    ///< the op's id (see ValueRow), empty for arguments, results, pbroadcasts
  QString kind;    ///< `op`, `collective`, `inserted-collective`, `summary`, ...
  QString clusterId; ///< for a summary node: the collapsed cluster
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
