#include "widgets/views/panels.h"

#include "widgets/controller/session_context.h"
#include "widgets/models/collectives_model.h"
#include "widgets/models/problems_model.h"
#include "widgets/models/value_table_model.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace shardscope::widgets {

namespace {

void setUpTable(QTableView* view) {
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setAlternatingRowColors(true);
  view->setWordWrap(false);
  view->setTextElideMode(Qt::ElideRight);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setStretchLastSection(true);
  view->horizontalHeader()->setHighlightSections(false);
  view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
}

// Shows `row` selected (and in view), or no selection for -1, without echoing the selection back.
void selectOnlyRow(QTableView* view, bool& updating, int row) {
  updating = true;
  if (row >= 0) {
    view->selectRow(row);
    view->scrollTo(view->model()->index(row, 0));
  } else {
    view->clearSelection();
  }
  updating = false;
}

// Sizes the columns to their contents, none wider than `maxWidth` (the last one too unless it
// stretches), so that one long column does not crowd out the rest.
void fitColumns(QTableView* view, int maxWidth, bool lastStretches) {
  view->resizeColumnsToContents();
  const int n = view->model()->columnCount() - (lastStretches ? 1 : 0);
  for (int c = 0; c < n; ++c)
    view->setColumnWidth(c, qMin(view->columnWidth(c), maxWidth));
}

} // namespace

ValuesPanel::ValuesPanel(SessionContext* context, QWidget* parent)
    : QTableView(parent), m_context(context), m_model(new ValueTableModel(this)) {
  setObjectName(QStringLiteral("valuesPanel"));
  setModel(m_model);
  setUpTable(this);
  connect(context, &SessionContext::programChanged, this, &ValuesPanel::refresh);
  connect(context, &SessionContext::stageChanged, this, &ValuesPanel::refresh);
  connect(context, &SessionContext::selectionChanged, this, &ValuesPanel::followSelection);
  connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!m_updating && current.isValid())
              m_context->selectValue(current.data(ValueTableModel::IdRole).toString());
          });
}

void ValuesPanel::refresh() {
  m_updating = true;
  const ProgramSnapshotPtr program = m_context->program();
  if (!program) {
    m_model->setRows({});
  } else {
    const StageSnapshot* base = m_context->diffBaseStage();
    m_model->setRows(program->stage(m_context->stage()).values, base ? &base->values : nullptr,
                     base ? m_context->diffBaseTitle() : QString());
  }
  // In diff mode the change comes right after the value's name, where it is seen first.
  if (m_model->columnCount() > ValueTableModel::Change) {
    const int visual = horizontalHeader()->visualIndex(ValueTableModel::Change);
    if (visual != ValueTableModel::Name + 1)
      horizontalHeader()->moveSection(visual, ValueTableModel::Name + 1);
  }
  // Keep every column readable, without letting the long Shardy attribute crowd out the rest.
  fitColumns(this, 420, /*lastStretches=*/false);
  m_updating = false;
  followSelection();
}

void ValuesPanel::followSelection() {
  selectOnlyRow(this, m_updating, m_model->rowOf(m_context->selectedValue()));
}

CollectivesPanel::CollectivesPanel(SessionContext* context, QWidget* parent)
    : QTableView(parent), m_context(context), m_model(new CollectivesModel(this)) {
  setObjectName(QStringLiteral("collectivesPanel"));
  setModel(m_model);
  setUpTable(this);
  connect(context, &SessionContext::programChanged, this, &CollectivesPanel::refresh);
  connect(context, &SessionContext::stageChanged, this, &CollectivesPanel::refresh);
  connect(context, &SessionContext::selectionChanged, this, &CollectivesPanel::followSelection);
  connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!m_updating && current.isValid())
              m_context->selectOp(current.data(CollectivesModel::IdRole).toString());
          });
}

void CollectivesPanel::refresh() {
  m_updating = true;
  const ProgramSnapshotPtr program = m_context->program();
  if (!program) {
    m_model->setRows({});
  } else {
    const StageSnapshot* base = m_context->diffBaseStage();
    m_model->setRows(program->stage(m_context->stage()).collectives,
                     base ? &base->collectives : nullptr);
  }
  fitColumns(this, 240, /*lastStretches=*/true);
  m_updating = false;
  followSelection();
}

void CollectivesPanel::followSelection() {
  selectOnlyRow(this, m_updating, m_model->rowOf(m_context->selectedOp()));
}

ProblemsPanel::ProblemsPanel(SessionContext* context, QWidget* parent)
    : QTableView(parent), m_context(context), m_model(new ProblemsModel(this)) {
  setObjectName(QStringLiteral("problemsPanel"));
  setModel(m_model);
  setUpTable(this);
  setWordWrap(true);
  // Every stage's problems, then the run's (a failed run says where it stopped).
  // (Steps do not reset the table unless the run's problems changed.)
  auto refresh = [this](bool always) {
    QVector<ProblemRow> rows =
        m_context->program() ? m_context->program()->problems : QVector<ProblemRow>();
    const ExecutionSnapshotPtr run = m_context->execution();
    const int runProblems = run ? run->problems.size() : 0;
    if (!always && runProblems == m_runProblems)
      return;
    m_runProblems = runProblems;
    // (A run refused for a problem found at load repeats that problem: it is listed once.)
    const int programRows = rows.size();
    if (run)
      for (const ProblemRow& p : run->problems) {
        bool known = false;
        for (int i = 0; i < programRows && !known; ++i)
          known = rows[i].message == p.message && rows[i].line == p.line;
        if (!known)
          rows.push_back(p);
      }
    m_model->setRows(std::move(rows));
    resizeColumnsToContents();
    setColumnWidth(ProblemsModel::Message, qMin(columnWidth(ProblemsModel::Message), 700));
  };
  connect(context, &SessionContext::programChanged, this, [refresh] { refresh(true); });
  connect(context, &SessionContext::executionChanged, this, [refresh] { refresh(false); });
  auto activate = [this](const QModelIndex& index) {
    const int line = index.data(ProblemsModel::LineRole).toInt();
    if (line > 0)
      m_context->selectLine(line);
  };
  connect(this, &QAbstractItemView::clicked, this, activate);
  connect(this, &QAbstractItemView::activated, this, activate);
}

void ProblemsPanel::showLoadProblems(const QVector<ProblemRow>& rows) {
  m_model->setRows(rows);
  resizeColumnsToContents();
}

GradientPanel::GradientPanel(SessionContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_summary(new QLabel(this)),
      m_efficient(new CollectivesModel(this)), m_naive(new CollectivesModel(this)),
      m_efficientView(new QTableView(this)), m_naiveView(new QTableView(this)) {
  setObjectName(QStringLiteral("gradientPanel"));
  m_summary->setObjectName(QStringLiteral("gradientSummary"));
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);
  m_efficientView->setObjectName(QStringLiteral("gradientEfficientView"));
  m_naiveView->setObjectName(QStringLiteral("gradientNaiveView"));
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  const struct {
    StageId stage;
    CollectivesModel* model;
    QTableView* view;
  } sides[] = {{StageId::GradientEfficient, m_efficient, m_efficientView},
               {StageId::GradientNaive, m_naive, m_naiveView}};
  for (const auto& side : sides) {
    auto* box = new QGroupBox(stageTitle(side.stage), splitter);
    auto* boxLayout = new QVBoxLayout(box);
    boxLayout->setContentsMargins(4, 4, 4, 4);
    side.view->setModel(side.model);
    setUpTable(side.view);
    // Two tables side by side are narrow: the op names the kind, and a ring sends what it receives.
    side.view->setColumnHidden(CollectivesModel::Kind, true);
    side.view->setColumnHidden(CollectivesModel::Received, true);
    boxLayout->addWidget(side.view);
    connect(side.view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, stage = side.stage](const QModelIndex& current) {
              if (!current.isValid())
                return;
              const QString op = current.data(CollectivesModel::IdRole).toString();
              m_context->setStage(stage);
              m_context->selectOp(op);
            });
  }
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_summary);
  layout->addWidget(splitter, 1);
  connect(context, &SessionContext::programChanged, this, &GradientPanel::refresh);
  connect(context, &SessionContext::stagesUpdated, this, &GradientPanel::refresh);
  refresh();
}

void GradientPanel::refresh() {
  const ProgramSnapshotPtr program = m_context->program();
  const StageSnapshot* efficient =
      program ? &program->stage(StageId::GradientEfficient) : nullptr;
  const StageSnapshot* naive = program ? &program->stage(StageId::GradientNaive) : nullptr;
  if (!efficient || !efficient->available || !naive || !naive->available) {
    m_efficient->setRows({});
    m_naive->setRows({});
    const QString why = !program ? tr("No program is loaded.")
                        : !efficient->unavailable.isEmpty() ? efficient->unavailable
                        : efficient->notComputed() || naive->notComputed()
                            ? tr("The gradient stages are being computed…")
                            : tr("The gradient stages could not be computed (see Problems).");
    const bool computing = program && efficient->unavailable.isEmpty() &&
                           (efficient->notComputed() || naive->notComputed());
    m_summary->setText(computing ? why.toHtmlEscaped()
                                 : tr("<b>No gradient.</b> %1").arg(why.toHtmlEscaped()));
    return;
  }
  // The naive side marks what the efficient rules avoid (collectives not in the efficient
  // gradient, by op id).
  m_efficient->setRows(efficient->collectives);
  m_naive->setRows(naive->collectives, &efficient->collectives);
  for (QTableView* view : {m_efficientView, m_naiveView})
    fitColumns(view, 200, /*lastStretches=*/true);
  const auto total = [](const StageSnapshot& stage) {
    qint64 bytes = 0;
    for (const CollectiveRow& row : stage.collectives)
      bytes += row.bytesSent;
    return bytes;
  };
  const auto count = [this](const StageSnapshot& stage) {
    const auto n = stage.collectives.size();
    return n == 1 ? tr("1 collective") : tr("%1 collectives").arg(n);
  };
  const qint64 efficientBytes = total(*efficient), naiveBytes = total(*naive);
  QString difference;
  if (naiveBytes > efficientBytes)
    difference = tr("The variance-aware rules save <b>%1</b> per device (%2% of the naive "
                    "gradient's traffic).")
                     .arg(CollectivesModel::formatBytes(naiveBytes - efficientBytes))
                     .arg(100 * (naiveBytes - efficientBytes) / naiveBytes);
  else if (naiveBytes == efficientBytes)
    difference = tr("Both rules move the same bytes: the program's collectives have no "
                    "cheaper transpose here.");
  else
    difference = tr("The naive rules move %1 less per device.")
                     .arg(CollectivesModel::formatBytes(efficientBytes - naiveBytes));
  m_summary->setText(tr("%1<br>Efficient: %2, %3 per device &nbsp;·&nbsp; naive: %4, %5 "
                        "per device. %6")
                         .arg(efficient->description.toHtmlEscaped(), count(*efficient),
                              CollectivesModel::formatBytes(efficientBytes), count(*naive),
                              CollectivesModel::formatBytes(naiveBytes), difference));
}

} // namespace shardscope::widgets
