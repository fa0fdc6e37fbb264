#pragma once

#include <QTextBrowser>

namespace shardscope::widgets {

class SessionContext;

/// Everything known about the selection: for a value its types, the sharding in Shardy's,
/// PartitionSpec and typed notations, its variance, how its sharding evolved through the stages
/// and the collectives inserted for it; for a collective its kind, axes, groups, cost and why it
/// is there.
class InspectorPanel : public QTextBrowser {
  Q_OBJECT

public:
  explicit InspectorPanel(SessionContext* context, QWidget* parent = nullptr);

private:
  void refresh();

  SessionContext* m_context;
};

} // namespace shardscope::widgets
