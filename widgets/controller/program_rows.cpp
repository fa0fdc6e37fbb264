#include "widgets/controller/program_rows.h"

#include "widgets/controller/op_ids.h"

#include "core/support/format_bytes.h"

#include <cstring>

namespace shardscope::widgets {

MeshInfo meshInfo(const ir::Mesh& mesh) {
  MeshInfo info;
  for (const ir::MeshAxis& axis : mesh.axes) {
    info.axisNames.push_back(QString::fromStdString(axis.name));
    info.axisSizes.push_back(axis.size);
  }
  for (int64_t id : mesh.deviceIds)
    info.deviceIds.push_back(id);
  info.geometry = std::make_shared<const ir::Mesh>(mesh);
  return info;
}

QString gradientDescription(const analysis::CostSummary& costs, const QString& function) {
  // The gradient function is named after its source function: `loss_grad`, `loss_grad_naive`.
  QString source = function;
  for (const char* suffix : {"_grad_naive", "_grad"})
    if (source.endsWith(QLatin1String(suffix))) {
      source.chop(static_cast<int>(std::strlen(suffix)));
      break;
    }
  return QStringLiteral("@%1: the gradient of @%2 (%3 collective%4, %5 sent per device)")
      .arg(function, source, QString::number(costs.collectives.size()),
           costs.collectives.size() == 1 ? QString() : QStringLiteral("s"),
           qs(support::formatBytes(costs.totalBytesSent)));
}

} // namespace shardscope::widgets
