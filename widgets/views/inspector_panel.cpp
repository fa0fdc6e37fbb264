#include "widgets/views/inspector_panel.h"

#include "widgets/controller/session_context.h"
#include "widgets/controller/stage_diff.h"
#include "widgets/models/collectives_model.h"

namespace shardscope::widgets {

namespace {

QString esc(const QString& s) { return s.toHtmlEscaped(); }

QString row(const QString& key, const QString& value, bool code = true) {
  return QStringLiteral("<tr><td style='padding-right:12px; color:#808080'>%1</td>"
                        "<td>%2</td></tr>")
      .arg(esc(key), code ? QStringLiteral("<code>%1</code>").arg(esc(value)) : esc(value));
}

QString collectiveHtml(const CollectiveRow& c) {
  QString html = QStringLiteral("<h3>%1 <span style='font-weight:normal'>line %2</span></h3><table>")
                     .arg(esc(c.op))
                     .arg(c.line);
  html += row(QObject::tr("Kind"), c.kind);
  html += row(QObject::tr("Axes"), c.axes.isEmpty() ? QObject::tr("(unknown)") : c.axes.join(QStringLiteral(", ")));
  html += row(QObject::tr("Groups"), QObject::tr("%1 groups of %2 devices").arg(c.numGroups).arg(c.groupSize), false);
  html += row(QObject::tr("Sent / device"), CollectivesModel::formatBytes(c.bytesSent), false);
  html += row(QObject::tr("Received / device"), CollectivesModel::formatBytes(c.bytesReceived), false);
  html += row(QObject::tr("Origin"), c.inserted ? QObject::tr("inserted by partitioning") : QObject::tr("written in the program"), false);
  html += QStringLiteral("</table><p><b>%1</b> %2</p>").arg(QObject::tr("Why:"), esc(c.why));
  return html;
}

// The problems of op `opId` in `stage` (and the stages it derives from) and in the run, in red.
QString problemsHtml(const ProgramSnapshot& program, StageId stage, const ExecutionSnapshot* run,
                     const QString& opId) {
  if (opId.isEmpty())
    return QString();
  QVector<ProblemRow> problems = program.problemsOf(stage);
  if (run)
    problems += run->problems;
  QString items;
  for (const ProblemRow& p : problems)
    if (p.opId == opId && (p.isError() || p.severity == QLatin1String("warning")))
      items += QStringLiteral("<li><span style='color:%1'><b>%2</b></span> (%3, line %4): %5</li>")
                   .arg(p.isError() ? QStringLiteral("#d03030") : QStringLiteral("#c08000"),
                        esc(p.severity), esc(p.stage), QString::number(p.line), esc(p.message));
  return items.isEmpty()
             ? QString()
             : QObject::tr("<h4 style='color:#d03030'>Problems of its op</h4><ul>%1</ul>")
                   .arg(items);
}

// Diff mode: the value's sharding in the base stage and now (`was → now`), or that it did not
// change or is new.
QString diffRow(const StageSnapshot& base, const QString& baseTitle, const ValueRow& v) {
  const QString key = QObject::tr("Since %1").arg(baseTitle);
  const ValueRow* was = nullptr;
  for (const ValueRow& row : base.values)
    if (row.id == v.id) {
      was = &row;
      break;
    }
  if (!was)
    return row(key, QObject::tr("new (not in that stage)"), false);
  if (was->shardy == v.shardy)
    return row(key, QObject::tr("sharding unchanged"), false);
  // The compact PartitionSpec form first (when it shows the difference), then Shardy's.
  const QString spec =
      was->spec != v.spec
          ? QStringLiteral("<b>%1</b><br>").arg(esc(shardingChangeText(was->spec, v.spec)))
          : QString();
  return QStringLiteral("<tr><td style='padding-right:12px; color:#808080'>%1</td>"
                        "<td style='color:%2'>%3<code>%4</code></td></tr>")
      .arg(esc(key), diffChangedColor().name(), spec,
           esc(shardingChangeText(was->shardy, v.shardy)));
}

} // namespace

InspectorPanel::InspectorPanel(SessionContext* context, QWidget* parent)
    : QTextBrowser(parent), m_context(context) {
  setObjectName(QStringLiteral("inspectorPanel"));
  setOpenLinks(false);
  setMinimumHeight(40);
  connect(context, &SessionContext::selectionChanged, this, &InspectorPanel::refresh);
  connect(context, &SessionContext::explanationChanged, this, &InspectorPanel::refresh);
  connect(context, &SessionContext::stageChanged, this, &InspectorPanel::refresh);
  connect(context, &SessionContext::programChanged, this, &InspectorPanel::refresh);
  // A failed run's error at the selected op shows here too.
  connect(context, &SessionContext::executionChanged, this, [this] {
    const ExecutionSnapshotPtr run = m_context->execution();
    if (run && !run->problems.isEmpty())
      refresh();
  });
  refresh();
}

void InspectorPanel::refresh() {
  const ProgramSnapshotPtr program = m_context->program();
  if (!program) {
    const QString& failure = m_context->loadFailure();
    setHtml(failure.isEmpty()
                ? tr("<p style='color:gray'>No program loaded. Open one with File \u2192 Open, or "
                     "try File \u2192 Open Example.</p>")
                : QStringLiteral("<p style='color:gray'>%1</p>").arg(failure.toHtmlEscaped()));
    return;
  }
  const ExecutionSnapshotPtr run = m_context->execution();
  if (const CollectiveRow* c = m_context->selectedCollectiveRow()) {
    setHtml(collectiveHtml(*c) + problemsHtml(*program, m_context->stage(), run.get(), c->opId));
    return;
  }
  const ValueRow* v = m_context->selectedValueRow();
  if (!v) {
    setHtml(tr("<p style='color:gray'>Select a value (in the values table, the source or a "
               "problem) or a collective.</p>"));
    return;
  }
  QString html =
      QStringLiteral(
          "<h3>%1 <span style='font-weight:normal'>in @%2 \u2014 %3, line %4</span></h3>")
          .arg(esc(v->name), esc(v->function), esc(v->opName), QString::number(v->line));
  html += problemsHtml(*program, m_context->stage(), run.get(), v->opId);
  html += QStringLiteral("<table>");
  // Diff mode: the change first, where it is seen without scrolling.
  if (const StageSnapshot* base = m_context->diffBaseStage())
    html += diffRow(*base, m_context->diffBaseTitle(), *v);
  html += row(tr("Type"), v->type);
  html += row(tr("JAX type"), v->typed);
  html += row(tr("PartitionSpec"), v->spec.isEmpty() ? tr("(unsharded)") : v->spec);
  html += row(tr("Shardy"), v->shardy.isEmpty() ? tr("(none)") : v->shardy);
  if (!v->gspmd.isEmpty())
    html += row(tr("GSPMD"), v->gspmd);
  if (!v->jaxName.isEmpty())
    html += row(tr("JAX name"), v->jaxName);
  if (!v->variance.isEmpty())
    html += row(tr("Variance"), v->variance);
  if (v->layout.valid) {
    QStringList local;
    for (qint64 d : v->layout.localShape)
      local.push_back(QString::number(d));
    html += row(tr("Per device"), tr("%1 (%2 distinct blocks over %3 devices)")
                                      .arg(local.join(QLatin1Char('x')),
                                           QString::number(v->layout.blockGroups.size()),
                                           QString::number(v->layout.blocks.size())), false);
    if (v->layout.isPartial())
      html += row(tr("Partial"),
                  tr("%1: each device holds a partial result of its block; a reduction over "
                     "these axes completes it").arg(v->layout.partialText()));
  }
  html += QStringLiteral("</table>");
  // How the sharding evolved: the origin of the final sharding, stage by stage.
  html += tr("<h4>Sharding by stage</h4><table>");
  for (int s = 0; s <= static_cast<int>(StageId::PerDevice); ++s) {
    const auto stage = static_cast<StageId>(s);
    const ValueRow* at = program->findValue(stage, v->id);
    QString text = at ? (at->shardy.isEmpty() ? tr("(none)") : at->shardy) : tr("(not in this stage)");
    if (at && s > 0) {
      const ValueRow* before = program->findValue(static_cast<StageId>(s - 1), v->id);
      if (before && before->shardy != at->shardy && stage != StageId::PerDevice)
        text += tr("   \u2190 changed");
    }
    html += row(stageTitle(stage), text);
  }
  html += QStringLiteral("</table>");
  // Why propagation gave it this sharding: the annotations and the steps from them.
  if (const ExplanationSnapshotPtr why = m_context->selectedExplanation()) {
    if (!why->rule.isEmpty())
      html += tr("<h4>Factor rule of its op</h4><p><code>%1</code></p>").arg(esc(why->rule));
    html += tr("<h4>Why this sharding</h4>");
    if (!why->note.isEmpty()) {
      html += QStringLiteral("<p>%1</p>").arg(esc(why->note));
    } else if (!why->changed) {
      html += QStringLiteral("<p>%1</p>")
                  .arg(why->asWritten.startsWith(QLatin1String("(no"))
                           ? tr("Propagation gave it no sharding: no annotation reaches it.")
                           : tr("Its own annotation: propagation did not change it."));
    } else {
      QString seeds, steps;
      for (const QString& seed : why->seeds)
        seeds += QStringLiteral("<li><code>%1</code></li>").arg(esc(seed));
      for (const QString& step : why->steps)
        steps += QStringLiteral("<li><code>%1</code></li>").arg(esc(step));
      // (One argument at a time: the singular texts have no count to fill in.)
      html += (why->seeds.size() == 1
                   ? tr("<p>From 1 annotation:</p><ul>%1</ul>")
                   : tr("<p>From %1 annotations:</p><ul>%2</ul>").arg(why->seeds.size()))
                  .arg(seeds);
      html += (why->steps.size() == 1
                   ? tr("<p>through 1 propagation step:</p><ol>%1</ol>")
                   : tr("<p>through %1 propagation steps:</p><ol>%2</ol>").arg(why->steps.size()))
                  .arg(steps);
    }
  }
  // Collectives partitioning inserted at this op.
  QString colls;
  for (const CollectiveRow& c : program->stage(StageId::Partitioned).collectives)
    if (c.line == v->line && v->line > 0)
      colls += QStringLiteral("<li><code>%1</code> over %2, %3 sent per device: %4</li>")
                   .arg(esc(c.op), esc(c.axes.join(QStringLiteral(", "))),
                        CollectivesModel::formatBytes(c.bytesSent), esc(c.why));
  if (!colls.isEmpty())
    html += tr("<h4>Collectives at this op (partitioned)</h4><ul>%1</ul>").arg(colls);
  setHtml(html);
}

} // namespace shardscope::widgets
