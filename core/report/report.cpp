#include "core/report/report.h"

#include "core/layout/svg_writer.h"
#include "core/report/detail/report_model.h"

namespace shardscope::report {

std::string_view formatName(Format format) {
  switch (format) {
  case Format::Html: return "html";
  case Format::Svg: return "svg";
  case Format::Dot: return "dot";
  case Format::Json: return "json";
  }
  return "html";
}

std::optional<Format> parseFormat(std::string_view name) {
  if (name == "html")
    return Format::Html;
  if (name == "svg")
    return Format::Svg;
  if (name == "dot")
    return Format::Dot;
  if (name == "json")
    return Format::Json;
  return std::nullopt;
}

std::optional<Format> formatFromPath(std::string_view path) {
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos)
    return std::nullopt;
  std::string_view ext = path.substr(dot + 1);
  if (ext == "htm")
    return Format::Html;
  if (ext == "gv")
    return Format::Dot;
  return parseFormat(ext);
}

namespace {

// The graph of one stage (SVG, DOT), with diff marks when a stage diff ends at that stage.
std::optional<std::string> renderGraph(session::Program& program, const ReportOptions& options,
                                       Format format, support::DiagnosticSink& sink) {
  std::string function = detail::pickFunction(program.asWritten(), options.function);
  if (function.empty()) {
    sink.error({}, options.function.empty() ? "the program has no function"
                                            : "no function '" + options.function + "'");
    return std::nullopt;
  }
  session::Stage stage = options.diffStages ? options.diffStages->second : options.graphStage;
  detail::StageGraph graph;
  if (!detail::buildStageGraph(program, stage, function, options, graph, sink))
    return std::nullopt;
  if (options.diffStages) {
    detail::StageGraph from;
    if (detail::buildStageGraph(program, options.diffStages->first, function, options, from, sink))
      detail::markDiff(detail::diffGraphs(from, graph), graph);
  }
  if (format == Format::Dot)
    return layout::writeDot(graph.visible);
  detail::layoutStageGraph(graph, options);
  if (!graph.laidOut) {
    sink.error({}, "cannot lay out the graph: " + graph.note);
    return std::nullopt;
  }
  return layout::writeSvg(graph.visible, graph.layout);
}

} // namespace

std::optional<std::string> renderReport(session::Program& program, const ReportOptions& options,
                                        Format format, support::DiagnosticSink& sink) {
  if (format == Format::Svg || format == Format::Dot)
    return renderGraph(program, options, format, sink);
  detail::ReportModel model;
  model.maxTableRows = options.maxTableRows;
  if (!detail::buildReportModel(program, options,
                                format == Format::Html ? detail::LayoutNeed::All
                                                       : detail::LayoutNeed::None,
                                model, sink))
    return std::nullopt;
  if (options.cancel && options.cancel->load()) {
    sink.error({}, "report cancelled");
    return std::nullopt;
  }
  if (format == Format::Json)
    return model.data.dump(2) + "\n";
  return detail::writeHtml(model);
}

} // namespace shardscope::report
