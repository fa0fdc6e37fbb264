// The HTML report: one self-contained page (inline CSS, SVG and a little JS; nothing fetched).
#include "core/report/detail/report_model.h"

#include "core/ir/location.h"
#include "core/layout/svg_writer.h"
#include "core/support/format_bytes.h"

#include <map>
#include <string_view>

namespace shardscope::report::detail {

using Json = nlohmann::ordered_json;
using layout::xmlEscape;

namespace {

constexpr std::string_view kCss = R"CSS(
:root{--ink:#1f2937;--muted:#6b7280;--line:#e5e7eb;--accent:#2f5fb3;--bg:#f6f7fb}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 "DejaVu Sans",Verdana,Arial,sans-serif;color:var(--ink);background:var(--bg)}
header{background:#1d2b4f;color:#fff;padding:14px 28px}
header h1{margin:0;font-size:20px;font-weight:600}
header .sub{color:#c7d2fe;font-size:13px;margin-top:2px}
nav{background:#fff;border-bottom:1px solid var(--line);padding:6px 28px;font-size:13px}
nav a{color:var(--accent);margin-right:16px;text-decoration:none}
main{padding:16px 28px 40px}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin-bottom:16px}
h2{font-size:16px;margin:0 0 10px}
h3{font-size:14px;margin:8px 0}
.row{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
.top{display:flex;gap:16px;align-items:stretch;flex-wrap:wrap}
.top>section{flex:1 1 380px}
.top>#summary{flex:2 1 560px}
.cards{display:flex;gap:10px;flex-wrap:wrap}
.card{border:1px solid var(--line);border-radius:8px;padding:5px 12px;min-width:96px;background:#fafbff}
.card .n{font-size:18px;font-weight:700}
.story{margin:0 0 10px;font-size:14.5px}
.card .l{font-size:12px;color:var(--muted)}
.card.warn .n{color:#c9372c}
.mesh{border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.mesh .title{font-weight:600;margin-bottom:6px}
.grid{display:inline-grid;gap:4px;margin:2px 8px 8px 0;vertical-align:top}
.grid .cap{font-size:11px;color:var(--muted)}
.dev{border:1px solid #4a7fd4;background:#eef4ff;border-radius:5px;padding:3px 8px;text-align:center;min-width:54px}
.dev b{display:block;font-size:15px}
.dev span{font-size:10px;color:var(--muted)}
.axislabel{font-size:11px;color:var(--muted)}
details.stage{border:1px solid var(--line);border-radius:8px;margin:8px 0;padding:0 10px}
details.stage>summary{cursor:pointer;padding:8px 0;font-weight:600}
details.stage>summary .meta{font-weight:400;color:var(--muted);margin-left:8px;font-size:12px}
.toolbar{display:flex;gap:8px;align-items:center;margin:4px 0 8px;flex-wrap:wrap}
.toolbar input{padding:4px 8px;border:1px solid #cbd5e1;border-radius:6px;min-width:220px}
button{padding:4px 10px;border:1px solid #cbd5e1;border-radius:6px;background:#f8fafc;cursor:pointer}
.legend{display:flex;gap:10px;flex-wrap:wrap;font-size:12px;color:var(--muted)}
.legend i{display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:4px;vertical-align:-2px;border:1.5px solid}
.graph-scroll{overflow:auto;max-height:760px;border:1px solid var(--line);border-radius:6px}
.note{color:var(--muted);font-size:12px}
svg.ss-graph g.cluster{cursor:pointer}
svg.ss-graph g.cluster.folded rect{fill:#e5e7eb}
svg.ss-graph [class*="hid-"]{display:none}
svg.ss-graph g.node.dim{opacity:.25}
svg.ss-graph g.node.hit rect{stroke:#f59e0b;stroke-width:3}
svg.ss-graph g.node.diff-changed>rect{stroke:#0d9488;stroke-width:3}
svg.ss-graph g.node.diff-added>rect{stroke:#db2777;stroke-width:3}
table{border-collapse:collapse;width:100%;font-size:12.5px}
th,td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f3f4f8;position:sticky;top:0}
td.num,td.nw{text-align:right;white-space:nowrap}
td.nw{text-align:left}
code,.mono{font-family:"DejaVu Sans Mono",Menlo,monospace;font-size:12px}
.tag{white-space:nowrap;display:inline-block;border-radius:10px;padding:0 8px;font-size:11px;font-weight:600;color:#fff}
.tag.inserted{background:#0f766e}.tag.explicit{background:#b7770a}.tag.implicit-pbroadcast{background:#7c4dbd}
.tag.error{background:#c9372c}.tag.warning{background:#b7770a}.tag.note,.tag.remark{background:#6b7280}
.tag.ok{background:#3d8b57}.tag.bad{background:#c9372c}
.scroll{max-height:480px;overflow:auto}
pre.src{background:#f8fafc;border:1px solid var(--line);border-radius:6px;padding:6px 8px;margin:4px 0 0;overflow:auto}
)CSS";

constexpr std::string_view kJs = R"JS(
(function () {
  'use strict';
  function setFold(cluster, folded) {
    var id = cluster.getAttribute('data-cluster');
    cluster.classList.toggle('folded', folded);
    var svg = cluster.ownerSVGElement;
    svg.querySelectorAll('.in-' + id).forEach(function (el) {
      el.classList.toggle('hid-' + id, folded);
    });
  }
  document.querySelectorAll('svg.ss-graph g.cluster').forEach(function (c) {
    c.addEventListener('click', function () { setFold(c, !c.classList.contains('folded')); });
  });
  document.querySelectorAll('[data-fold]').forEach(function (button) {
    button.addEventListener('click', function () {
      var svg = document.getElementById(button.getAttribute('data-target'));
      var folded = button.getAttribute('data-fold') === 'all';
      svg.querySelectorAll('g.cluster').forEach(function (c) { setFold(c, folded); });
    });
  });
  document.querySelectorAll('input[data-graph-search]').forEach(function (input) {
    input.addEventListener('input', function () {
      var q = input.value.trim().toLowerCase();
      var svg = document.getElementById(input.getAttribute('data-graph-search'));
      svg.querySelectorAll('g.node').forEach(function (n) {
        var hit = q !== '' && n.getAttribute('data-search').toLowerCase().indexOf(q) >= 0;
        n.classList.toggle('hit', hit);
        n.classList.toggle('dim', q !== '' && !hit);
      });
    });
  });
  document.querySelectorAll('input[data-table-search]').forEach(function (input) {
    input.addEventListener('input', function () {
      var q = input.value.trim().toLowerCase();
      var rows = document.getElementById(input.getAttribute('data-table-search')).tBodies[0].rows;
      for (var i = 0; i < rows.length; ++i)
        rows[i].style.display = q === '' || rows[i].textContent.toLowerCase().indexOf(q) >= 0 ? '' : 'none';
    });
  });
  var ready = document.createElement('div');
  ready.id = 'ss-ready';
  ready.hidden = true;
  document.body.appendChild(ready);
})();
)JS";

std::string esc(const Json& value) {
  if (value.is_string())
    return xmlEscape(value.get<std::string>());
  if (value.is_null())
    return "";
  return xmlEscape(value.dump());
}

// The short JAX name of a table row's op (`dot_general`) with the full name as its tooltip;
// nothing when the row has none.
std::string jaxNameSpan(const Json& row) {
  if (!row.contains("jaxName"))
    return "";
  std::string full = row["jaxName"].get<std::string>();
  return "<br><span class=\"jax\" title=\"" + xmlEscape(full) + "\">" +
         xmlEscape(ir::shortJaxName(full)) + "</span>";
}

std::string locText(const Json& loc) {
  if (!loc.is_object())
    return "";
  return std::to_string(loc["line"].get<int>()) + ":" + std::to_string(loc["column"].get<int>());
}

std::string bytes(const Json& value) {
  return value.is_number() ? support::formatBytes(value.get<int64_t>()) : std::string("-");
}

std::string card(const std::string& number, const std::string& label, bool warn = false) {
  return "<div class=\"card" + std::string(warn ? " warn" : "") + "\"><div class=\"n\">" +
         xmlEscape(number) + "</div><div class=\"l\">" + xmlEscape(label) + "</div></div>";
}

// One sentence a reviewer reads first: what partitioning adds and what it costs.
std::string story(const Json& data) {
  const Json& items = data["collectives"]["items"];
  const Json& counts = data["collectives"]["counts"];
  std::map<std::string, int64_t> inserted;
  int64_t count = counts["inserted"], pbroadcasts = counts["implicit-pbroadcast"],
          written = counts["explicit"];
  for (const Json& c : items)
    if (c["category"] == "inserted")
      ++inserted[c["kind"].get<std::string>()];
  std::string out = "<b>@" + esc(data["program"]["function"]) + "</b>: ";
  if (data["collectives"]["stage"] != "partitioned") {
    out += "collectives of the " + esc(data["collectives"]["stage"]) + " stage";
  } else if (count == 0) {
    out += "partitioning inserts no collective";
  } else {
    out += "partitioning inserts <b>" + std::to_string(count) + " collective" +
           (count == 1 ? "" : "s") + "</b> (" +
           (items.size() < size_t(count + pbroadcasts + written) ? "listed: " : "");
    bool first = true;
    for (const auto& [kind, n] : inserted) {
      out += (first ? "" : ", ") + std::to_string(n) + " " + xmlEscape(kind);
      first = false;
    }
    out += ")";
  }
  if (written)
    out += "; the program writes " + std::to_string(written) + " itself";
  out += "; every device sends <b>" + bytes(data["collectives"]["totalBytesSent"]) + "</b>";
  const Json& perAxis = data["collectives"]["perAxis"];
  for (size_t i = 0; i < perAxis.size(); ++i)
    out += std::string(i ? ", " : " (") + bytes(perAxis[i]["bytesSent"]) + " over " +
           esc(perAxis[i]["axis"]) + (i + 1 == perAxis.size() ? ")" : "");
  if (pbroadcasts)
    out += "; JAX inserts " + std::to_string(pbroadcasts) + " implicit pbroadcast" +
           (pbroadcasts == 1 ? "" : "s") + " (free)";
  size_t diagnostics = data["diagnostics"].size();
  out += diagnostics ? "; <b>" + std::to_string(diagnostics) + " diagnostic" +
                           (diagnostics == 1 ? "" : "s") + "</b> below."
                     : "; no diagnostics.";
  return out;
}

void writeSummary(const Json& data, std::string& out) {
  const Json& counts = data["collectives"]["counts"];
  int64_t inserted = counts["inserted"], explicitCount = counts["explicit"],
          pbroadcasts = counts["implicit-pbroadcast"];
  int errors = 0;
  for (const Json& d : data["diagnostics"])
    errors += d["severity"] == "error";
  out += "<section id=\"summary\"><h2>Summary</h2><p class=\"story\">" + story(data) +
         "</p><div class=\"cards\">";
  out += card(std::to_string(data["program"]["opCount"].get<int64_t>()), "ops as written");
  out += card(std::to_string(data["program"]["functions"].size()), "functions");
  out += card(std::to_string(inserted), "collectives inserted", inserted > 0);
  out += card(std::to_string(explicitCount), "collectives written");
  out += card(std::to_string(pbroadcasts), "implicit pbroadcasts");
  out += card(bytes(data["collectives"]["totalBytesSent"]), "sent per device");
  for (const Json& axis : data["collectives"]["perAxis"])
    out += card(bytes(axis["bytesSent"]), "over axis " + axis["axis"].get<std::string>());
  out += card(std::to_string(data["diagnostics"].size()), "diagnostics", errors > 0);
  if (data["run"].is_object())
    out += card(data["run"]["ok"].get<bool>() ? "matches" : "differs", "run vs reference",
                !data["run"]["ok"].get<bool>());
  out += "</div></section>\n";
}

// Devices of a mesh as grids: the last two axes as rows and columns, outer axes as a list of
// grids (one per index combination).
void writeMesh(const Json& mesh, std::string& out) {
  const Json& axes = mesh["axes"];
  const Json& devices = mesh["devices"];
  std::string title = "@" + mesh["name"].get<std::string>() + "  [";
  for (size_t i = 0; i < axes.size(); ++i)
    title += (i ? ", " : "") + axes[i]["name"].get<std::string>() + "=" +
             std::to_string(axes[i]["size"].get<int64_t>());
  title += "]  " + std::to_string(mesh["deviceCount"].get<int64_t>()) + " devices";
  out += "<div class=\"mesh\"><div class=\"title mono\">" + xmlEscape(title) + "</div>";
  size_t n = axes.size();
  int64_t cols = n >= 1 ? axes[n - 1]["size"].get<int64_t>() : 1;
  int64_t rows = n >= 2 ? axes[n - 2]["size"].get<int64_t>() : 1;
  int64_t perGrid = std::max<int64_t>(1, rows * cols);
  size_t shown = std::min<size_t>(devices.size(), 512);
  for (size_t start = 0; start < shown; start += size_t(perGrid)) {
    out += "<div class=\"grid\" style=\"grid-template-columns:repeat(" + std::to_string(cols) +
           ",auto)\">";
    if (n > 2) {
      std::string cap;
      const Json& coords = devices[start]["coordinates"];
      for (size_t a = 0; a + 2 < n; ++a)
        cap += (cap.empty() ? "" : ", ") + axes[a]["name"].get<std::string>() + "=" +
               std::to_string(coords[a].get<int64_t>());
      out += "<div class=\"cap\" style=\"grid-column:1/-1\">" + xmlEscape(cap) + "</div>";
    }
    for (size_t d = start; d < std::min(shown, start + size_t(perGrid)); ++d) {
      std::string coords;
      for (const Json& c : devices[d]["coordinates"])
        coords += (coords.empty() ? "" : ",") + std::to_string(c.get<int64_t>());
      out += "<div class=\"dev\"><b>" + std::to_string(devices[d]["id"].get<int64_t>()) +
             "</b><span>(" + coords + ")</span></div>";
    }
    out += "</div>";
  }
  if (n >= 1) {
    out += "<div class=\"axislabel\">columns: " + xmlEscape(axes[n - 1]["name"].get<std::string>());
    if (n >= 2)
      out += " &middot; rows: " + xmlEscape(axes[n - 2]["name"].get<std::string>());
    out += " &middot; cells: device id (coordinates)</div>";
  }
  if (static_cast<int64_t>(shown) < mesh["deviceCount"].get<int64_t>())
    out += "<div class=\"note\">first " + std::to_string(shown) + " devices shown</div>";
  out += "</div>";
}

void writeLegend(std::string& out) {
  struct Item {
    layout::NodeKind kind;
    const char* text;
  };
  const Item items[] = {{layout::NodeKind::Argument, "argument"},
                        {layout::NodeKind::Op, "op"},
                        {layout::NodeKind::Collective, "collective (written)"},
                        {layout::NodeKind::InsertedCollective, "collective (inserted)"},
                        {layout::NodeKind::Pbroadcast, "implicit pbroadcast"},
                        {layout::NodeKind::Summary, "folded group"},
                        {layout::NodeKind::Result, "return"}};
  out += "<div class=\"legend\">";
  for (const Item& item : items) {
    layout::NodeStyle s = layout::nodeStyle(item.kind);
    out += "<span><i style=\"background:" + std::string(s.fill) + ";border-color:" + s.border +
           "\"></i>" + item.text + "</span>";
  }
  out += "<span>edges: value type in JAX notation, f32[8@x,4] = dim of 8 split over axis x; "
         "{V:x} = varies over x</span></div>";
}

void writeGraphs(const ReportModel& model, std::string& out) {
  out += "<section id=\"graphs\"><h2>Program graph by stage</h2>";
  writeLegend(out);
  const Json& stages = model.data["stages"];
  // Open the stage with inserted collectives (partitioned) when present, else the first.
  size_t open = 0;
  for (size_t i = 0; i < stages.size(); ++i)
    if (stages[i]["name"] == "partitioned" && stages[i]["ok"].get<bool>())
      open = i;
  for (size_t i = 0; i < model.graphs.size(); ++i) {
    const StageGraph& g = model.graphs[i];
    std::string name = stages[i]["name"];
    std::string id = "graph-" + name;
    out += "<details class=\"stage\"" + std::string(i == open ? " open" : "") + "><summary>" +
           xmlEscape(name);
    if (!g.ok) {
      out += "<span class=\"meta\">stage failed (see diagnostics)</span></summary></details>";
      continue;
    }
    out += "<span class=\"meta\">@" + xmlEscape(g.visible.function) + " &middot; " +
           std::to_string(g.visible.opCount) + " ops, " + std::to_string(g.visible.nodes.size()) +
           " nodes shown" +
           (g.visible.hiddenNodes ? ", " + std::to_string(g.visible.hiddenNodes) + " folded" : "") +
           "</span></summary>";
    if (!g.laidOut) {
      out += "<p class=\"note\">graph not drawn: " + xmlEscape(g.note) + "</p></details>";
      continue;
    }
    out += "<div class=\"toolbar\"><input type=\"search\" placeholder=\"find op, value, attribute\" "
           "data-graph-search=\"" + id + "\"><button data-fold=\"all\" data-target=\"" + id +
           "\">fold all</button><button data-fold=\"none\" data-target=\"" + id +
           "\">unfold all</button><span class=\"note\">click a cluster to fold it" +
           (g.note.empty() ? "" : "; " + xmlEscape(g.note)) + "</span></div>";
    layout::SvgOptions svg;
    svg.standalone = false;
    svg.idPrefix = id;
    svg.scale = 1.3;
    out += "<div class=\"graph-scroll\">" + layout::writeSvg(g.visible, g.layout, svg) +
           "</div></details>\n";
  }
  out += "</section>\n";
}

void writeCollectives(const Json& data, std::string& out) {
  const Json& c = data["collectives"];
  out += "<section id=\"collectives\"><h2>Collectives</h2><p class=\"note\">" +
         esc(c["stage"]) + " stage; ring model, bytes one device sends. Total " +
         bytes(c["totalBytesSent"]);
  for (const Json& axis : c["perAxis"])
    out += " &middot; " + esc(axis["axis"]) + " " + bytes(axis["bytesSent"]);
  out += "</p>";
  if (c["items"].empty()) {
    out += "<p>No collectives: every op runs on local data.</p></section>\n";
    return;
  }
  int64_t total = 0;
  for (const auto& [category, n] : c["counts"].items())
    total += n.get<int64_t>();
  if (size_t(total) > c["items"].size())
    out += "<p class=\"note\">first " + std::to_string(c["items"].size()) + " of " +
           std::to_string(total) + " shown (the JSON report lists all)</p>";
  out += "<div class=\"scroll\"><table><thead><tr><th>loc</th><th>kind</th><th>op</th>"
         "<th>axes</th><th>group</th><th>sent</th><th>per axis</th><th>why</th></tr></thead><tbody>";
  for (const Json& item : c["items"]) {
    std::string axes;
    for (const Json& a : item["axes"])
      axes += (axes.empty() ? "" : ", ") + a.get<std::string>();
    std::string perAxis;
    for (const Json& a : item["perAxis"])
      perAxis += (perAxis.empty() ? "" : ", ") + a["axis"].get<std::string>() + " " +
                 bytes(a["bytesSent"]);
    std::string category = item["category"];
    std::string shown = category == "explicit"              ? "written"
                        : category == "implicit-pbroadcast" ? "pbroadcast"
                                                            : category;
    out += "<tr><td class=\"mono\">" + locText(item["loc"]) + "</td><td><span class=\"tag " +
           xmlEscape(category) + "\">" + shown + "</span></td><td class=\"mono\">" +
           esc(item["op"]) + jaxNameSpan(item) + "</td><td class=\"mono\">" + xmlEscape(axes) +
           "</td><td class=\"num\">" +
           std::to_string(item["groupSize"].get<int64_t>()) + " &times; " +
           std::to_string(item["numGroups"].get<int64_t>()) + "</td><td class=\"num\">" +
           bytes(item["bytesSent"]) + "</td><td class=\"mono nw\">" + xmlEscape(perAxis) +
           "</td><td>" + esc(item["why"]) +
           (item["note"].get<std::string>().empty() ? "" : " (" + esc(item["note"]) + ")") +
           "</td></tr>";
  }
  out += "</tbody></table></div></section>\n";
}

void writeValues(const Json& data, size_t maxRows, std::string& out) {
  const Json& rows = data["values"]["rows"];
  size_t total = data["values"]["rowCount"].get<size_t>();
  out += "<section id=\"values\"><h2>Values</h2><div class=\"toolbar\"><input type=\"search\" "
         "placeholder=\"filter values\" data-table-search=\"value-table\"><span class=\"note\">" +
         esc(data["values"]["stage"]) + " stage, " + std::to_string(total) + " values";
  if (total > maxRows)
    out += "; first " + std::to_string(maxRows) + " shown (the JSON report lists all)";
  out += "</span></div><div class=\"scroll\"><table id=\"value-table\"><thead><tr><th>function</th>"
         "<th>value</th><th>defined by</th><th>loc</th><th>JAX type</th><th>PartitionSpec</th>"
         "<th>Shardy</th><th>GSPMD</th><th>variance</th></tr></thead><tbody>";
  for (size_t i = 0; i < rows.size() && i < maxRows; ++i) {
    const Json& r = rows[i];
    out += "<tr><td>@" + esc(r["function"]) + "</td><td class=\"mono\">" + esc(r["name"]) +
           "</td><td class=\"mono\">" + esc(r["op"]) + jaxNameSpan(r) + "</td><td class=\"mono\">" +
           locText(r["loc"]) + "</td><td class=\"mono\">" + esc(r["typed"]) +
           "</td><td class=\"mono\">" + esc(r["partitionSpec"]) + "</td><td class=\"mono\">" +
           esc(r["shardy"]) + "</td><td class=\"mono\">" + esc(r["gspmd"]) +
           "</td><td class=\"mono\">" + esc(r["variance"]) + "</td></tr>";
  }
  out += "</tbody></table></div></section>\n";
}

void writeDiagnostics(const Json& data, std::string& out) {
  out += "<section id=\"diagnostics\"><h2>Diagnostics</h2>";
  if (data["diagnostics"].empty())
    out += "<p>None: the shardings verify and every manual computation passes the checks.</p>";
  for (const Json& d : data["diagnostics"]) {
    out += "<div><span class=\"tag " + esc(d["severity"]) + "\">" + esc(d["severity"]) +
           "</span> <span class=\"mono\">" + esc(data["program"]["file"]) + ":" +
           locText(d["loc"]) + "</span> " + esc(d["message"]);
    if (!d["source"].get<std::string>().empty())
      out += "<pre class=\"src\">" + esc(d["source"]) + "</pre>";
    out += "</div>";
  }
  out += "</section>\n";
}

void writeDiff(const Json& diff, std::string& out) {
  if (!diff.is_object())
    return;
  const Json& s = diff["summary"];
  out += "<section id=\"diff\"><h2>Diff: " + esc(diff["from"]["file"]) + " " +
         esc(diff["from"]["stage"]) + " &rarr; " + esc(diff["to"]["file"]) + " " +
         esc(diff["to"]["stage"]) + "</h2><p>" +
         std::to_string(s["shardingsChanged"].get<int>()) + " shardings changed, " +
         std::to_string(s["added"].get<int>()) + " ops added (" +
         std::to_string(s["addedCollectives"].get<int>()) + " collectives), " +
         std::to_string(s["removed"].get<int>()) + " removed.</p>";
  if (!diff["changes"].empty()) {
    out += "<div class=\"scroll\"><table><thead><tr><th>loc</th><th>change</th><th>op</th>"
           "<th>before</th><th>after</th></tr></thead><tbody>";
    for (const Json& c : diff["changes"])
      out += "<tr><td class=\"mono\">" + locText(c["loc"]) + "</td><td>" + esc(c["change"]) +
             "</td><td class=\"mono\">" + esc(c["op"]) + "</td><td class=\"mono\">" +
             esc(c.value("before", Json(""))) + "</td><td class=\"mono\">" +
             esc(c.value("after", Json(""))) + "</td></tr>";
    out += "</tbody></table></div>";
  }
  out += "</section>\n";
}

void writeRun(const Json& run, std::string& out) {
  if (!run.is_object())
    return;
  bool ok = run["ok"].get<bool>();
  out += "<section id=\"run\"><h2>Execution on the local mesh <span class=\"tag " +
         std::string(ok ? "ok" : "bad") + "\">" + (ok ? "matches reference" : "problem") +
         "</span></h2>";
  if (run.contains("status"))
    out += "<p>@" + esc(run["function"]) + ", per-device program on " +
           std::to_string(run["devices"].get<int64_t>()) + " devices, inputs " +
           esc(run["inputs"]) + ": " + esc(run["status"]) + " after " +
           std::to_string(run["steps"].get<int64_t>()) + " steps. Reference: " +
           esc(run["reference"]) + ".</p>";
  for (const Json& r : run.value("results", Json::array()))
    out += "<pre class=\"src\">result: " + esc(r) + "</pre>";
  for (const Json& d : run.value("divergences", Json::array()))
    out += "<p><span class=\"tag bad\">" + esc(d["kind"]) + "</span> " + locText(d["loc"]) +
           " <span class=\"mono\">" + esc(d["op"]) + "</span>: " + esc(d["message"]) + "</p>";
  for (const Json& e : run.value("errors", Json::array()))
    out += "<p><span class=\"tag " + esc(e["severity"]) + "\">" + esc(e["severity"]) + "</span> " +
           locText(e["loc"]) + " " + esc(e["message"]) + "</p>";
  out += "</section>\n";
}

} // namespace

std::string writeHtml(const ReportModel& model) {
  const Json& data = model.data;
  std::string file = data["program"]["file"];
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"generator\" content=\"shardscope-cli report\"><title>ShardScope: " +
                    xmlEscape(file) + "</title><style>" + std::string(kCss) + "</style></head>\n<body>";
  out += "<header><h1>ShardScope report: " + xmlEscape(file) + "</h1><div class=\"sub\">@" +
         esc(data["program"]["function"]) + " &middot; " +
         esc(data["program"]["inputForm"]) + " form &middot; stages as written &rarr; propagated &rarr; "
         "partitioned &rarr; per-device &middot; schema v" +
         std::to_string(data["schemaVersion"].get<int>()) + "</div></header>";
  out += "<nav><a href=\"#summary\">summary</a><a href=\"#graphs\">graph</a><a "
         "href=\"#collectives\">collectives</a><a href=\"#values\">values</a><a "
         "href=\"#diagnostics\">diagnostics</a>";
  if (data["diff"].is_object())
    out += "<a href=\"#diff\">diff</a>";
  if (data["run"].is_object())
    out += "<a href=\"#run\">run</a>";
  out += "</nav><main>\n<div class=\"top\">";
  writeSummary(data, out);
  out += "<section id=\"meshes\"><h2>Meshes</h2><div class=\"row\">";
  if (data["meshes"].empty())
    out += "<p>No mesh: the program runs on one device.</p>";
  for (const Json& mesh : data["meshes"])
    writeMesh(mesh, out);
  out += "</div></section></div>\n";
  writeGraphs(model, out);
  writeDiff(data["diff"], out);
  writeCollectives(data, out);
  writeRun(data["run"], out);
  writeValues(data, model.maxTableRows, out);
  writeDiagnostics(data, out);
  out += "</main>\n<script>" + std::string(kJs) + "</script>\n</body></html>\n";
  return out;
}

} // namespace shardscope::report::detail
