#include "widgets/views/mpi_hosts_bar.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalBlocker>
#include <QToolButton>

namespace shardscope::widgets {

namespace {

const QString kHostfileKey = QStringLiteral("execution/mpiHostfile");
const QString kOversubscribeKey = QStringLiteral("execution/mpiOversubscribe");

} // namespace

MpiHostsBar::MpiHostsBar(QWidget* parent)
    : QWidget(parent), m_hostfile(new QLineEdit(this)), m_browse(new QToolButton(this)),
      m_oversubscribe(new QCheckBox(tr("Oversubscribe"), this)) {
  setObjectName(QStringLiteral("mpiHostsBar"));
  m_hostfile->setObjectName(QStringLiteral("mpiHostfileEdit"));
  m_hostfile->setPlaceholderText(tr("none: this machine"));
  m_hostfile->setClearButtonEnabled(true);
  m_hostfile->setToolTip(tr("An OpenMPI hostfile ('node1 slots=4' per line), passed to mpirun "
                            "as --hostfile FILE: the ranks start on those hosts, which need "
                            "shardscope-cli at the same path."));
  m_browse->setObjectName(QStringLiteral("mpiHostfileButton"));
  m_browse->setText(QStringLiteral("…"));
  m_browse->setToolTip(tr("Choose a hostfile"));
  m_oversubscribe->setObjectName(QStringLiteral("mpiOversubscribeCheck"));
  m_oversubscribe->setToolTip(tr("Run more ranks than the hostfile's slots (mpirun "
                                 "--oversubscribe). Without a hostfile runs always do."));
  const QSettings settings;
  m_hostfile->setText(settings.value(kHostfileKey).toString());
  m_oversubscribe->setChecked(settings.value(kOversubscribeKey, false).toBool());
  m_oversubscribe->setEnabled(!hostfile().isEmpty());

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Hostfile:"), this));
  layout->addWidget(m_hostfile, 1);
  layout->addWidget(m_browse);
  layout->addWidget(m_oversubscribe);

  connect(m_hostfile, &QLineEdit::editingFinished, this, &MpiHostsBar::apply);
  connect(m_hostfile, &QLineEdit::textChanged, this,
          [this] { m_oversubscribe->setEnabled(!hostfile().isEmpty()); });
  connect(m_oversubscribe, &QCheckBox::toggled, this, &MpiHostsBar::apply);
  connect(m_browse, &QToolButton::clicked, this, &MpiHostsBar::chooseHostfile);
}

QString MpiHostsBar::hostfile() const { return m_hostfile->text().trimmed(); }

bool MpiHostsBar::oversubscribe() const { return m_oversubscribe->isChecked(); }

void MpiHostsBar::setHosts(const QString& hostfile, bool oversubscribe) {
  {
    const QSignalBlocker a(m_hostfile), b(m_oversubscribe);
    m_hostfile->setText(hostfile);
    m_oversubscribe->setChecked(oversubscribe);
  }
  m_oversubscribe->setEnabled(!this->hostfile().isEmpty());
  apply();
}

void MpiHostsBar::chooseHostfile() {
  const QString start = hostfile().isEmpty() ? QString() : QFileInfo(hostfile()).path();
  const QString path = QFileDialog::getOpenFileName(this, tr("MPI Hostfile"), start,
                                                    tr("Hostfiles (*);;Text files (*.txt)"));
  if (!path.isEmpty())
    setHosts(path, oversubscribe());
}

void MpiHostsBar::apply() {
  QSettings settings;
  settings.setValue(kHostfileKey, hostfile());
  settings.setValue(kOversubscribeKey, oversubscribe());
  Q_EMIT hostsChanged(hostfile(), oversubscribe());
}

} // namespace shardscope::widgets
