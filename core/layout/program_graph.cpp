#include "core/layout/program_graph.h"

#include "core/ir/attribute.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace shardscope::layout {

const char* nodeKindName(NodeKind kind) {
  switch (kind) {
  case NodeKind::Argument: return "argument";
  case NodeKind::Result: return "result";
  case NodeKind::Op: return "op";
  case NodeKind::Collective: return "collective";
  case NodeKind::InsertedCollective: return "inserted-collective";
  case NodeKind::Pbroadcast: return "pbroadcast";
  case NodeKind::RegionEntry: return "region-entry";
  case NodeKind::RegionExit: return "region-exit";
  case NodeKind::Summary: return "summary";
  case NodeKind::ValueRef: return "value-ref";
  }
  return "op";
}

const char* clusterKindName(ClusterKind kind) {
  switch (kind) {
  case ClusterKind::ManualComputation: return "manual-computation";
  case ClusterKind::Loop: return "loop";
  case ClusterKind::Branch: return "branch";
  case ClusterKind::Reduce: return "reduce";
  case ClusterKind::Region: return "region";
  case ClusterKind::Chain: return "chain";
  case ClusterKind::Segment: return "segment";
  }
  return "region";
}

int ProgramGraph::findNode(const std::string& id) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == id)
      return static_cast<int>(i);
  return -1;
}

int ProgramGraph::findCluster(const std::string& id) const {
  for (size_t i = 0; i < clusters.size(); ++i)
    if (clusters[i].id == id)
      return static_cast<int>(i);
  return -1;
}

std::string typedLabel(const ir::Value& value) {
  ir::Type type = value.type();
  if (!type.isTensor())
    return type.str();
  std::optional<ir::TensorSharding> scratch;
  if (const ir::TensorSharding* s = sharding::heldShardingRef(value, scratch);
      s && s->dims.size() == type.shape().size())
    return sharding::jaxTypedNotation(*s, type);
  std::string out = sharding::jaxDtypeName(type.elementType()) + "[";
  for (size_t d = 0; d < type.shape().size(); ++d) {
    int64_t size = type.shape()[d];
    out += (d ? "," : "") + (size == ir::kDynamicSize ? std::string("?") : std::to_string(size));
  }
  return out + "]";
}

namespace {

bool isTerminator(const ir::Operation& op) {
  std::string_view name = op.name();
  return name.ends_with("return") || name.ends_with("yield");
}

ClusterKind clusterKindOf(const ir::Operation& op) {
  std::string_view name = op.name();
  if (name == "sdy.manual_computation")
    return ClusterKind::ManualComputation;
  if (name == "stablehlo.while")
    return ClusterKind::Loop;
  if (name == "stablehlo.case" || name == "stablehlo.if")
    return ClusterKind::Branch;
  if (name.find("reduce") != std::string_view::npos || name.find("scatter") != std::string_view::npos ||
      name == "stablehlo.sort" || name == "stablehlo.select_and_scatter")
    return ClusterKind::Reduce;
  return ClusterKind::Region;
}

std::string shortName(std::string_view name) {
  size_t dot = name.find('.');
  return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

// Attributes that would only repeat what edge labels say, or are too long for a node.
bool isHiddenAttribute(std::string_view name) {
  return name == "sdy.sharding" || name == "sdy.sharding_rule" || name == "in_shardings" ||
         name == "out_shardings" || name == "sym_name" || name == "sdy.sharding_origins" ||
         name.starts_with("mhlo.") || name == "precision_config" || name == "channel_handle" ||
         name == "use_global_device_ids";
}

std::string clip(std::string text, size_t max) {
  if (text.size() > max)
    text = text.substr(0, max - 3) + "...";
  return text;
}

// Shortens MLIR spellings for a node label: `array<i64: 1, 2>` -> `[1, 2]`,
// `#stablehlo.dot<lhs_contracting_dimensions = [1], ...>` -> `lhs_contracting = [1], ...`.
std::string shorten(std::string text) {
  for (size_t at; (at = text.find("array<i64: ")) != std::string::npos;) {
    size_t end = text.find('>', at);
    if (end == std::string::npos)
      break;
    text = text.substr(0, at) + "[" + text.substr(at + 11, end - at - 11) + "]" +
           text.substr(end + 1);
  }
  for (size_t at; (at = text.find("array<i64>")) != std::string::npos;)
    text.replace(at, 10, "[]");
  // `#stablehlo<comparison_direction LT>` -> `LT`.
  if (text.starts_with("#stablehlo<") && text.ends_with(">")) {
    size_t space = text.rfind(' ');
    if (space != std::string::npos)
      return text.substr(space + 1, text.size() - space - 2);
  }
  // `dense<0> : tensor<i32>` -> `dense<0>`.
  if (text.starts_with("dense<"))
    if (size_t colon = text.find("> : "); colon != std::string::npos)
      text = text.substr(0, colon + 1);
  if (text.starts_with("#stablehlo.") && text.ends_with(">")) {
    size_t open = text.find('<');
    text = text.substr(open + 1, text.size() - open - 2);
  }
  for (size_t at; (at = text.find("_dimensions")) != std::string::npos;)
    text.erase(at, 11);
  return text;
}

// `lhs_batching = [0], lhs_contracting = [2], rhs_...` -> `batch [0] x [0], contract [2] x [1]`.
std::string dotDims(const std::string& text) {
  auto field = [&](const std::string& name) -> std::string {
    size_t at = text.find(name + " = ");
    if (at == std::string::npos)
      return "[]";
    size_t open = at + name.size() + 3, close = text.find(']', open);
    return close == std::string::npos ? "[]" : text.substr(open, close - open + 1);
  };
  std::string out;
  if (text.find("batching") != std::string::npos)
    out = "batch " + field("lhs_batching") + " x " + field("rhs_batching") + ", ";
  return out + "contract " + field("lhs_contracting") + " x " + field("rhs_contracting");
}

std::vector<std::string> keyAttributes(const ir::Operation& op) {
  std::vector<std::string> out;
  for (const ir::NamedAttribute& attr : op.attributes()) {
    if (isHiddenAttribute(attr.name))
      continue;
    if (out.size() == 3) {
      out.push_back("...");
      break;
    }
    std::string printed;
    ir::Attribute(attr.value).print(printed, /*elidePrefix=*/true);
    std::string name = attr.name;
    if (name == "manual_axes" || name == "gathering_axes" || name == "slicing_axes" ||
        name == "reduction_axes" || name == "out_sharding") {
      // Shardy's `{"x", "y"}` reads better unquoted in a node.
      printed.erase(std::remove(printed.begin(), printed.end(), '"'), printed.end());
    }
    if (name == "dot_dimension_numbers") {
      out.push_back(clip(dotDims(shorten(printed)), 48));
      continue;
    }
    out.push_back(clip(name + " = " + shorten(printed), 48));
  }
  return out;
}

// Records `name` (an op's JAX name, an argument's name location) on `node` and shows its last
// component as the first attribute line when the title does not already say it.
void setJaxName(GraphNode& node, std::string name) {
  if (name.empty())
    return;
  std::string shown = ir::shortJaxName(name);
  if (shown != node.title)
    node.attributes.insert(node.attributes.begin(), "\"" + shown + "\"");
  node.jaxName = std::move(name);
}

class Builder {
public:
  Builder(const ir::Module& module, const GraphAnnotations& annotations,
          const BuildOptions& options)
      : m_module(module), m_ann(annotations), m_opt(options) {
    for (const PbroadcastMark& mark : annotations.pbroadcasts)
      m_pbroadcasts[mark.op].push_back(&mark);
  }

  ProgramGraph build(const ir::Operation& fn) {
    m_graph.function = std::string(ir::func::name(fn));
    const ir::Block* body = ir::func::body(fn);
    if (!body)
      return std::move(m_graph);
    for (unsigned i = 0; i < body->numArguments(); ++i) {
      const ir::Value* arg = body->argument(i);
      int node = addNode(NodeKind::Argument, "arg" + std::to_string(i), -1);
      m_graph.nodes[node].opName = "argument";
      m_graph.nodes[node].title = valueName(*arg);
      setJaxName(m_graph.nodes[node],
                 std::string(m_module.locations().jaxName(arg->debugLoc())));
      m_producer[arg] = Producer{node};
    }
    // Small functions are shown op by op: no synthetic groups.
    int64_t ops = 0, values = 0;
    fn.walk([&](const ir::Operation& op) {
      ++ops;
      values += op.numResults();
    });
    m_producer.reserve(static_cast<size_t>(values + body->numArguments()));
    m_opIdCounts.reserve(static_cast<size_t>(ops));
    if (ops <= m_opt.groupAbove)
      m_opt.minChainLength = 0;
    buildBlock(*body, -1, /*exitNode=*/-1);
    for (GraphCluster& cluster : m_graph.clusters)
      cluster.depth = cluster.parent < 0 ? 0 : m_graph.clusters[cluster.parent].depth + 1;
    // Sums go bottom-up: children were created after their parents.
    for (size_t i = m_graph.clusters.size(); i-- > 0;) {
      const GraphCluster& c = m_graph.clusters[i];
      if (c.parent >= 0) {
        GraphCluster& p = m_graph.clusters[c.parent];
        p.opCount += c.opCount;
        p.bytes += c.bytes;
        p.collectives += c.collectives;
      }
    }
    return std::move(m_graph);
  }

private:
  // The node each value comes from, with the value's edge name and label once an edge needed
  // them: a value used several times is named and labelled once.
  struct Producer {
    int node = -1;
    bool labelled = false;
    std::string name, label;
  };

  std::string valueName(const ir::Value& value) const {
    if (m_ann.valueNames)
      if (auto it = m_ann.valueNames->find(&value); it != m_ann.valueNames->end())
        return it->second;
    return value.nameHint().empty() ? "%?" : "%" + value.nameHint();
  }

  std::string uniqueId(std::string key) {
    int& count = m_idCounts[key];
    std::string id = count == 0 ? key : key + "#" + std::to_string(count);
    ++count;
    return id;
  }

  // `L12C5:add`, `L12C5:add#1` for the next add at that location; collectives keep their
  // position at a location across stages, whatever their name: `L12C5:collective#0`.
  std::string opId(const ir::Operation& op, bool collective) {
    support::SourceLocation loc = op.loc();
    std::string_view name = op.name();
    if (!collective)
      name = name.substr(name.find('.') + 1); // shortName without the copy
    OpIdKey key{loc.isValid() ? loc.line : 0, loc.isValid() ? loc.column : 0,
                collective ? std::string_view() : name};
    int count = m_opIdCounts[key]++;
    std::string id = loc.isValid() ? "L" + std::to_string(loc.line) + "C" +
                                         std::to_string(loc.column)
                                   : "op";
    id += ':';
    id += collective ? std::string_view("collective") : name;
    if (collective || count > 0) {
      id += '#';
      id += std::to_string(count);
    }
    return id;
  }

  int addNode(NodeKind kind, std::string id, int cluster) {
    GraphNode node;
    node.kind = kind;
    node.id = std::move(id);
    node.cluster = cluster;
    m_graph.nodes.push_back(std::move(node));
    int index = static_cast<int>(m_graph.nodes.size()) - 1;
    if (cluster >= 0)
      m_graph.clusters[cluster].nodes.push_back(index);
    return index;
  }

  int addCluster(ClusterKind kind, std::string id, std::string label, int parent) {
    GraphCluster cluster;
    cluster.kind = kind;
    cluster.id = std::move(id);
    cluster.label = std::move(label);
    cluster.parent = parent;
    m_graph.clusters.push_back(std::move(cluster));
    int index = static_cast<int>(m_graph.clusters.size()) - 1;
    if (parent >= 0)
      m_graph.clusters[parent].children.push_back(index);
    return index;
  }

  std::string edgeLabel(const ir::Value& value) const {
    const auto typed = m_ann.typeLabels.find(&value);
    std::string label = typed != m_ann.typeLabels.end() ? typed->second : typedLabel(value);
    auto it = m_ann.variance.find(&value);
    if (it == m_ann.variance.end() || it->second.empty())
      return label;
    // One pair of braces, varying before unreduced, as JAX prints `{V:i, U:x}`.
    size_t close = label.rfind(']');
    if (close != std::string::npos && close + 1 < label.size() && label[close + 1] == '{')
      return label.substr(0, close + 1) + it->second.substr(0, it->second.size() - 1) + ", " +
             label.substr(close + 2);
    return label + it->second;
  }

  // The producer of `value` with its name and label filled in, or null when the graph does not
  // show where it comes from.
  const Producer* producerOf(const ir::Value& value) {
    auto it = m_producer.find(&value);
    if (it == m_producer.end())
      return nullptr;
    Producer& p = it->second;
    if (!p.labelled) {
      p.name = valueName(value);
      p.label = edgeLabel(value);
      p.labelled = true;
    }
    return &p;
  }

  void addEdge(const ir::Value* value, int to) {
    if (const Producer* p = producerOf(*value))
      m_graph.edges.push_back({p->node, to, p->name, p->label});
  }

  // Operand edges of `op` into `node`, with a pbroadcast node on each lifted operand.
  void addOperandEdges(const ir::Operation& op, int node, int cluster) {
    auto marks = m_pbroadcasts.find(&op);
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      const PbroadcastMark* mark = nullptr;
      if (marks != m_pbroadcasts.end())
        for (const PbroadcastMark* m : marks->second)
          if (m->operandIndex == i)
            mark = m;
      if (!mark) {
        addEdge(op.operand(i), node);
        continue;
      }
      int pv = addNode(NodeKind::Pbroadcast,
                       m_graph.nodes[node].id + "/pvary" + std::to_string(i), cluster);
      GraphNode& p = m_graph.nodes[pv];
      p.opName = "pbroadcast";
      p.title = "pbroadcast";
      p.attributes = {"over " + mark->axes};
      p.note = "implicit pbroadcast (" + mark->reason + ") of operand #" + std::to_string(i) +
               " of '" + std::string(op.name()) + "'";
      p.bytes = 0;
      p.loc = op.loc();
      addEdge(op.operand(i), pv);
      // The lifted value varies over the union: label it with the consumer's view.
      std::string axes = mark->axes;
      axes.erase(std::remove(axes.begin(), axes.end(), '\''), axes.end());
      axes.erase(std::remove(axes.begin(), axes.end(), '"'), axes.end());
      if (const Producer* p = producerOf(*op.operand(i)))
        m_graph.edges.push_back({pv, node, p->name, p->label + " +" + axes});
      else
        m_graph.edges.push_back({pv, node, valueName(*op.operand(i)),
                                 edgeLabel(*op.operand(i)) + " +" + axes});
    }
  }

  void noteCollective(int node, int cluster) {
    for (int c = cluster; c >= 0 && m_graph.nodes[node].bytes > 0; c = -1) {
      m_graph.clusters[c].bytes += m_graph.nodes[node].bytes;
    }
    if (cluster >= 0)
      m_graph.clusters[cluster].collectives += 1;
  }

  void buildOp(const ir::Operation& op, int cluster) {
    auto mark = m_ann.ops.find(&op);
    bool collective = mark != m_ann.ops.end() && mark->second.collective;
    // A collective's reducer region (`stablehlo.all_reduce`'s add) is part of the collective,
    // not a region of the program: it is drawn as one collective node.
    if (op.numRegions() > 0 && !collective) {
      buildRegionOp(op, cluster);
      return;
    }
    NodeKind kind = !collective ? NodeKind::Op
                    : mark->second.inserted ? NodeKind::InsertedCollective
                                            : NodeKind::Collective;
    int node = addNode(kind, opId(op, collective), cluster);
    GraphNode& n = m_graph.nodes[node];
    n.opName = std::string(op.name());
    n.title = shortName(op.name());
    n.attributes = keyAttributes(op);
    n.loc = op.loc();
    n.op = &op;
    setJaxName(n, m_module.jaxName(op));
    if (mark != m_ann.ops.end()) {
      n.bytes = mark->second.bytes;
      n.note = mark->second.note;
    }
    ++m_graph.opCount;
    if (cluster >= 0)
      m_graph.clusters[cluster].opCount += 1;
    if (collective)
      noteCollective(node, cluster);
    addOperandEdges(op, node, cluster);
    for (const auto& result : op.results())
      m_producer[result.get()] = Producer{node};
  }

  void buildRegionOp(const ir::Operation& op, int parent) {
    std::string id = opId(op, /*collective=*/false);
    std::string label = std::string(op.name());
    std::vector<std::string> attributes = keyAttributes(op);
    if (!attributes.empty())
      label += "  " + attributes.front();
    int cluster = addCluster(clusterKindOf(op), "cluster:" + id, label, parent);
    int entry = addNode(NodeKind::RegionEntry, id, cluster);
    GraphNode& e = m_graph.nodes[entry];
    e.opName = std::string(op.name());
    e.title = shortName(op.name());
    e.attributes = std::move(attributes);
    e.loc = op.loc();
    e.op = &op;
    setJaxName(e, m_module.jaxName(op));
    ++m_graph.opCount;
    m_graph.clusters[cluster].opCount += 1;
    addOperandEdges(op, entry, cluster);
    int exit = -1;
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          m_producer[arg.get()] = Producer{entry};
    exit = addNodeLater(id + "/exit", cluster);
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        buildBlock(*block, cluster, exit);
    // The exit is created before the bodies (for its id) but must come after them in the node
    // order the writers use: move it to the cluster's end.
    auto& members = m_graph.clusters[cluster].nodes;
    members.erase(std::find(members.begin(), members.end(), exit));
    members.push_back(exit);
    GraphNode& x = m_graph.nodes[exit];
    x.opName = std::string(op.name());
    x.title = "results";
    x.loc = op.loc();
    for (const auto& result : op.results())
      m_producer[result.get()] = Producer{exit};
  }

  int addNodeLater(std::string id, int cluster) {
    return addNode(NodeKind::RegionExit, std::move(id), cluster);
  }

  // Returns true when `op`'s only result is used once, by `next`, and both are simple.
  bool links(const ir::Operation& op, const ir::Operation& next) const {
    if (!isSimple(op) || !isSimple(next) || op.numResults() != 1)
      return false;
    const auto& uses = op.result(0)->uses();
    return uses.size() == 1 && uses[0].user == &next;
  }

  bool isSimple(const ir::Operation& op) const {
    if (op.numRegions() > 0 || op.numResults() != 1 || m_pbroadcasts.count(&op))
      return false;
    auto mark = m_ann.ops.find(&op);
    return mark == m_ann.ops.end() || !mark->second.collective;
  }

  void buildBlock(const ir::Block& block, int cluster, int exitNode) {
    std::vector<const ir::Operation*> ops;
    const ir::Operation* terminator = nullptr;
    for (const auto& op : block.ops()) {
      if (&op == &block.ops().back() && isTerminator(*op))
        terminator = op.get();
      else
        ops.push_back(op.get());
    }
    buildRange(ops, 0, ops.size(), cluster);
    if (!terminator)
      return;
    if (exitNode < 0) {
      exitNode = addNode(NodeKind::Result, "return", cluster);
      m_graph.nodes[exitNode].opName = std::string(terminator->name());
      m_graph.nodes[exitNode].title = "return";
      m_graph.nodes[exitNode].loc = terminator->loc();
    }
    addOperandEdges(*terminator, exitNode, cluster);
  }

  // Builds ops [begin, end) of one block, split into segments when there are too many.
  void buildRange(const std::vector<const ir::Operation*>& ops, size_t begin, size_t end,
                  int cluster) {
    size_t count = end - begin;
    if (m_opt.maxBlockOps <= 0 || count <= static_cast<size_t>(m_opt.maxBlockOps)) {
      buildChains(ops, begin, end, cluster);
      return;
    }
    size_t fanout = static_cast<size_t>(std::max(2, m_opt.segmentFanout));
    size_t chunk = (count + fanout - 1) / fanout;
    chunk = std::max(chunk, static_cast<size_t>(m_opt.maxBlockOps) / 2);
    for (size_t b = begin; b < end; b += chunk) {
      size_t e = std::min(end, b + chunk);
      const ir::Operation& first = *ops[b];
      const ir::Operation& last = *ops[e - 1];
      std::string label = "ops " + std::to_string(b - begin + 1) + "-" +
                          std::to_string(e - begin) + "  (lines " +
                          std::to_string(first.loc().line) + "-" +
                          std::to_string(last.loc().line) + ")";
      int segment = addCluster(ClusterKind::Segment, uniqueId("segment:" + locKey(first)), label,
                               cluster);
      buildRange(ops, b, e, segment);
    }
  }

  static std::string locKey(const ir::Operation& op) {
    return "L" + std::to_string(op.loc().line) + "C" + std::to_string(op.loc().column);
  }

  void buildChains(const std::vector<const ir::Operation*>& ops, size_t begin, size_t end,
                   int cluster) {
    size_t i = begin;
    while (i < end) {
      size_t j = i;
      while (j + 1 < end && links(*ops[j], *ops[j + 1]))
        ++j;
      size_t length = j - i + 1;
      if (m_opt.minChainLength > 0 && length >= static_cast<size_t>(m_opt.minChainLength)) {
        std::string label = "chain of " + std::to_string(length) + " ops: " +
                            shortName(ops[i]->name()) + " ... " + shortName(ops[j]->name());
        int chain = addCluster(ClusterKind::Chain, uniqueId("chain:" + locKey(*ops[i])), label,
                               cluster);
        for (size_t k = i; k <= j; ++k)
          buildOp(*ops[k], chain);
      } else {
        for (size_t k = i; k <= j; ++k)
          buildOp(*ops[k], cluster);
      }
      i = j + 1;
    }
  }

  const ir::Module& m_module;
  const GraphAnnotations& m_ann;
  BuildOptions m_opt;
  ProgramGraph m_graph;
  std::unordered_map<const ir::Value*, Producer> m_producer;
  std::unordered_map<std::string, int> m_idCounts; ///< cluster ids
  // Op ids by location and short name (an empty name for collectives): hashing two integers and
  // a view instead of building the key string for each of a large function's ops.
  struct OpIdKey {
    uint32_t line, column;
    std::string_view name;
    bool operator==(const OpIdKey&) const = default;
  };
  struct OpIdHash {
    size_t operator()(const OpIdKey& k) const {
      size_t h = std::hash<std::string_view>()(k.name);
      return h ^ ((static_cast<size_t>(k.line) << 32 | k.column) * 0x9e3779b97f4a7c15ull);
    }
  };
  std::unordered_map<OpIdKey, int, OpIdHash> m_opIdCounts;
  std::unordered_map<const ir::Operation*, std::vector<const PbroadcastMark*>> m_pbroadcasts;
};

} // namespace

ProgramGraph buildProgramGraph(const ir::Module& module, const ir::Operation& fn,
                               const GraphAnnotations& annotations, const BuildOptions& options) {
  return Builder(module, annotations, options).build(fn);
}

} // namespace shardscope::layout
