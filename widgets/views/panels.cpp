#include "widgets/views/panels.h"

#include "widgets/controller/session_context.h"
#include "widgets/models/collectives_model.h"
#include "widgets/models/problems_model.h"
#include "widgets/models/value_table_model.h"

#include <QHeaderView>

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
    const int base = m_context->diffBase();
    m_model->setRows(program->stage(m_context->stage()).values,
                     base >= 0 ? &program->stage(static_cast<StageId>(base)).values : nullptr);
  }
  // Keep every column readable, without letting the long Shardy attribute crowd out the rest.
  resizeColumnsToContents();
  for (int c = 0; c < m_model->columnCount(); ++c)
    setColumnWidth(c, qMin(columnWidth(c), 420));
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
    const int base = m_context->diffBase();
    m_model->setRows(program->stage(m_context->stage()).collectives,
                     base >= 0 ? &program->stage(static_cast<StageId>(base)).collectives
                               : nullptr);
  }
  resizeColumnsToContents();
  for (int c = 0; c < m_model->columnCount() - 1; ++c)
    setColumnWidth(c, qMin(columnWidth(c), 240));
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
  connect(context, &SessionContext::programChanged, this, [this] {
    m_model->setRows(m_context->program() ? m_context->program()->problems
                                          : QVector<ProblemRow>());
    resizeColumnsToContents();
    setColumnWidth(ProblemsModel::Message, qMin(columnWidth(ProblemsModel::Message), 700));
  });
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

} // namespace shardscope::widgets
