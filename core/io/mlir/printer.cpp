#include "core/io/mlir/detail/printer.h"

#include "core/io/mlir/detail/op_format.h"

#include <algorithm>
#include <cctype>

namespace shardscope::io::mlir::detail {

using ir::Attribute;
using ir::Operation;
using ir::Value;

// ---------------------------------------------------------------------------------------------
// Naming. Mirrors MLIR's SSANameState: a region is numbered completely before the regions nested
// in it, which start from the counters their parent region ended with; isolated ops (functions)
// start from zero. Names used in enclosing regions stay reserved; sibling regions may reuse names.

std::string Printer::uniqueName(const std::string& base, NameCounters& counters,
                                std::unordered_set<std::string>& used) {
  std::string name = base;
  if (used.count(name)) {
    while (true) {
      std::string probe = base + "_" + std::to_string(counters.nextConflict++);
      if (!used.count(probe)) {
        name = probe;
        break;
      }
    }
  }
  used.insert(name);
  return name;
}

namespace {

// Whether a name given in the source can be printed back as a value id: all digits (`%7`), or
// an identifier led by a letter or `$ . _ -` (`%x`, `%arg0`). Names made by passes from source
// names (`7_bar`) may be neither.
bool printableSourceName(std::string_view name) {
  if (name.empty())
    return false;
  auto isPunct = [](char c) { return c == '$' || c == '.' || c == '_' || c == '-'; };
  if (std::isdigit(static_cast<unsigned char>(name[0])))
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (!std::isalpha(static_cast<unsigned char>(name[0])) && !isPunct(name[0]))
    return false;
  return std::all_of(name.begin(), name.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || isPunct(c);
  });
}

// `stablehlo.all_gather` -> `all_gather`: the name of a value a pass made.
std::string opBaseName(std::string_view opName) {
  size_t dot = opName.rfind('.');
  std::string base(dot == std::string_view::npos ? opName : opName.substr(dot + 1));
  return printableSourceName(base) && !std::isdigit(static_cast<unsigned char>(base[0])) ? base
                                                                                          : "v";
}

} // namespace

std::string Printer::sourceBase(const std::string& hint, std::string_view derived,
                                const std::unordered_set<std::string>& used) {
  if (!printableSourceName(hint))
    return std::string(derived);
  // A number cannot take a `_N` suffix: a second `%3` (a duplicated constant) is `%constant_3`.
  if (std::isdigit(static_cast<unsigned char>(hint[0])) && used.count(hint))
    return std::string(derived) + "_" + hint;
  return hint;
}

template <typename Unique>
void Printer::nameResultsBySource(const ir::Operation& op, const std::vector<std::string>& hints,
                                  Unique& unique, const std::unordered_set<std::string>& used) {
  const std::string derived = opBaseName(op.name());
  const std::string& first = op.result(0)->nameHint();
  bool shared = op.numResults() > 1 && printableSourceName(first);
  for (unsigned i = 1; shared && i < op.numResults(); ++i)
    shared = op.result(i)->nameHint() == first;
  if (shared) {
    // The source's `%3:2`, used as `%3#0` and `%3#1`.
    std::string group = "%" + unique(sourceBase(first, derived, used));
    for (unsigned i = 0; i < op.numResults(); ++i)
      m_names[op.result(i)] = group + "#" + std::to_string(i);
    m_resultGroupNames[op.result(0)] = std::move(group);
    return;
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    const std::string& hint = op.result(i)->nameHint();
    std::string fallback = i < hints.size() && !hints[i].empty() ? hints[i] : derived;
    m_names[op.result(i)] = "%" + unique(sourceBase(hint, fallback, used));
  }
}

void Printer::nameRegion(const ir::Region& region, NameCounters counters,
                         std::unordered_set<std::string>& used) {
  // `used` holds the names of the enclosing regions; this region's names are added while it and
  // the regions nested in it are named, and taken out again at the end (siblings may reuse
  // them). Copying the set per region instead would be quadratic in the nesting of big programs.
  std::vector<std::string> added;
  auto unique = [&](const std::string& base) {
    added.push_back(uniqueName(base, counters, used));
    return added.back();
  };
  const Operation* parent = region.parentOp();
  const OpFormat* parentFormat = parent ? lookupOpFormat(parent->name()) : nullptr;
  unsigned regionIndex = 0;
  if (parent)
    for (unsigned i = 0; i < parent->numRegions(); ++i)
      if (&parent->region(i) == &region)
        regionIndex = i;

  for (const auto& block : region.blocks()) {
    for (const auto& arg : block->arguments()) {
      std::string base;
      if (m_valueNames == ValueNames::Source && printableSourceName(arg->nameHint()))
        base = sourceBase(arg->nameHint(), "arg", used);
      if (base.empty() && parentFormat && parentFormat->blockArgName)
        base = std::string(parentFormat->blockArgName(*parent, regionIndex));
      // (Source names may have taken `argN` already: the numbering skips those.)
      if (base.empty())
        do
          base = "arg" + std::to_string(counters.nextArg++);
        while (m_valueNames == ValueNames::Source && used.count(base));
      m_names[arg.get()] = "%" + unique(base);
    }
    for (const auto& op : block->ops()) {
      if (op->numResults() == 0)
        continue;
      std::vector<std::string> hints;
      if (const OpFormat* f = lookupOpFormat(op->name()); f && f->resultNames)
        f->resultNames(*op, hints);
      if (m_valueNames == ValueNames::Source) {
        nameResultsBySource(*op, hints, unique, used);
        continue;
      }
      bool anyHint = std::any_of(hints.begin(), hints.end(), [](auto& h) { return !h.empty(); });
      if (!anyHint) {
        // All results share one number: `%3:2` and its uses `%3#0`, `%3#1`.
        std::string group = "%" + std::to_string(counters.nextValue++);
        if (op->numResults() == 1) {
          m_names[op->result(0)] = std::move(group);
          continue;
        }
        for (unsigned i = 0; i < op->numResults(); ++i)
          m_names[op->result(i)] = group + "#" + std::to_string(i);
        m_resultGroupNames[op->result(0)] = std::move(group);
        continue;
      }
      for (unsigned i = 0; i < op->numResults(); ++i) {
        std::string base = i < hints.size() ? hints[i] : std::string();
        std::string name = base.empty() ? "%" + std::to_string(counters.nextValue++)
                                        : "%" + unique(base);
        m_names[op->result(i)] = std::move(name);
      }
    }
  }
  for (const auto& block : region.blocks())
    for (const auto& op : block->ops()) {
      const OpFormat* f = lookupOpFormat(op->name());
      bool isolated = f && f->isolatedFromAbove;
      for (unsigned i = 0; i < op->numRegions(); ++i) {
        if (isolated) {
          std::unordered_set<std::string> fresh;
          nameRegion(op->region(i), NameCounters{}, fresh);
        } else {
          nameRegion(op->region(i), counters, used);
        }
      }
    }
  for (const std::string& name : added)
    used.erase(name);
}

const std::string& Printer::nameOf(const Value* value) {
  static const std::string unknown = "%<<UNKNOWN SSA VALUE>>";
  auto it = m_names.find(value);
  return it == m_names.end() ? unknown : it->second;
}

// ---------------------------------------------------------------------------------------------
// Primitives

void Printer::newline() {
  m_out += '\n';
  m_out.append(static_cast<size_t>(m_indent), ' ');
}

void Printer::printOperand(const Value* value) { m_out += nameOf(value); }

void Printer::printOperands(std::span<Value* const> values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      m_out += ", ";
    printOperand(values[i]);
  }
}

void Printer::printTypes(std::span<ir::Type const> types) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (i)
      m_out += ", ";
    types[i].print(m_out);
  }
}

void Printer::printOptionalAttrDict(const Operation& op,
                                    std::initializer_list<std::string_view> elided,
                                    bool withKeyword) {
  std::vector<const ir::NamedAttribute*> shown;
  for (const ir::NamedAttribute& a : op.attributes())
    if (std::find(elided.begin(), elided.end(), a.name) == elided.end())
      shown.push_back(&a);
  if (shown.empty())
    return;
  m_out += withKeyword ? " attributes {" : " {";
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i)
      m_out += ", ";
    m_out += shown[i]->name;
    if (shown[i]->value->kind != Attribute::Kind::Unit) {
      m_out += " = ";
      Attribute(shown[i]->value).print(m_out);
    }
  }
  m_out += '}';
}

void Printer::printFunctionalType(const Operation& op) {
  std::vector<ir::Type> ins = ir::operandTypes(op), outs = ir::resultTypes(op);
  ir::Type::function(ins, outs).print(m_out);
}

void Printer::printSameOrFunctionalType(const Operation& op) {
  std::vector<ir::Type> ins = ir::operandTypes(op), outs = ir::resultTypes(op);
  bool same = outs.size() == 1;
  for (const ir::Type& t : ins)
    same = same && t == outs[0];
  if (same) {
    outs[0].print(m_out);
    return;
  }
  ir::Type::function(ins, outs).print(m_out);
}

void Printer::printBlockArgList(const ir::Block& block, bool withParens) {
  if (withParens)
    m_out += '(';
  for (unsigned i = 0; i < block.numArguments(); ++i) {
    if (i)
      m_out += ", ";
    printOperand(block.argument(i));
    m_out += ": ";
    block.argument(i)->type().print(m_out);
  }
  if (withParens)
    m_out += ')';
}

void Printer::printRegion(const ir::Region& region, bool printEntryArgs) {
  m_out += '{';
  if (!region.empty()) {
    const ir::Block& block = region.front();
    if (printEntryArgs && block.numArguments() > 0) {
      newline();
      m_out += "^bb0";
      printBlockArgList(block);
      m_out += ':';
    }
    m_indent += 2;
    for (const auto& op : block.ops()) {
      newline();
      printOperation(*op);
      if (m_flush && m_out.size() >= m_chunkBytes)
        m_flush(m_out);
    }
    m_indent -= 2;
  }
  newline();
  m_out += '}';
}

// ---------------------------------------------------------------------------------------------
// Operations

void Printer::printGeneric(const Operation& op) {
  m_out += '"';
  m_out += op.name();
  m_out += "\"(";
  printOperands(op.operands());
  m_out += ')';
  bool anyInherent = false;
  for (const ir::NamedAttribute& a : op.attributes())
    anyInherent = anyInherent || op.isInherent(a.name);
  if (anyInherent) {
    m_out += " <{";
    bool first = true;
    for (const ir::NamedAttribute& a : op.attributes()) {
      if (!op.isInherent(a.name))
        continue;
      if (!first)
        m_out += ", ";
      first = false;
      m_out += a.name;
      if (a.value->kind != Attribute::Kind::Unit) {
        m_out += " = ";
        Attribute(a.value).print(m_out);
      }
    }
    m_out += "}>";
  }
  if (op.numRegions() > 0) {
    m_out += " (";
    for (unsigned i = 0; i < op.numRegions(); ++i) {
      if (i)
        m_out += ", ";
      printRegion(op.region(i), /*printEntryArgs=*/true);
    }
    m_out += ')';
  }
  std::vector<const ir::NamedAttribute*> discardable;
  for (const ir::NamedAttribute& a : op.attributes())
    if (!op.isInherent(a.name))
      discardable.push_back(&a);
  if (!discardable.empty()) {
    m_out += " {";
    for (size_t i = 0; i < discardable.size(); ++i) {
      if (i)
        m_out += ", ";
      m_out += discardable[i]->name;
      if (discardable[i]->value->kind != Attribute::Kind::Unit) {
        m_out += " = ";
        Attribute(discardable[i]->value).print(m_out);
      }
    }
    m_out += '}';
  }
  m_out += " : ";
  printFunctionalType(op);
}

void Printer::printOperation(const Operation& op) {
  if (m_opStarts)
    m_opStarts->emplace_back(&op, m_out.size());
  if (op.numResults() > 0) {
    // Results that share one group name print as `%3:2`; others as a list of their names.
    auto group = m_resultGroupNames.find(op.result(0));
    if (group != m_resultGroupNames.end()) {
      m_out += group->second;
      m_out += ":" + std::to_string(op.numResults());
    } else {
      for (unsigned i = 0; i < op.numResults(); ++i) {
        if (i)
          m_out += ", ";
        m_out += nameOf(op.result(i));
      }
    }
    m_out += " = ";
  }
  const OpFormat* format = lookupOpFormat(op.name());
  if (format && format->print) {
    // `func.func` makes `func` the default dialect of its body (`return`, `call`); the regions of
    // other ops have none, so a call inside a while or a manual computation is `func.call`.
    std::string_view name = op.name();
    const Operation* parent = op.parentOp();
    if (name.starts_with("func.") && parent && parent->is("func.func"))
      name.remove_prefix(5);
    m_out += name;
    format->print(*this, op);
  } else {
    printGeneric(op);
  }
}

void Printer::printModule(const ir::Module& module) {
  const Operation& moduleOp = module.op();
  nameModule(module);
  m_out += "module";
  if (const auto* name = moduleOp.attr("sym_name").as<ir::StringAttr>())
    m_out += " @" + name->value;
  printOptionalAttrDict(moduleOp, {"sym_name"}, /*withKeyword=*/true);
  m_out += " {";
  m_indent += 2;
  for (const auto& op : module.body().ops()) {
    newline();
    printOperation(*op);
  }
  m_indent -= 2;
  newline();
  m_out += "}\n";
  printFileMetadata(module);
}

namespace {
void collectResources(const Attribute& attr, std::vector<const ir::ResourceBlob*>& blobs) {
  if (const auto* res = attr.as<ir::DenseResourceAttr>()) {
    const ir::ResourceBlob* blob = res->blob.get();
    if (blob && blob->defined && std::find(blobs.begin(), blobs.end(), blob) == blobs.end())
      blobs.push_back(blob);
  } else if (const auto* array = attr.as<ir::ArrayAttr>()) {
    for (const Attribute& e : array->elements)
      collectResources(e, blobs);
  } else if (const auto* dict = attr.as<ir::DictionaryAttr>()) {
    for (const ir::NamedAttribute& e : dict->entries)
      collectResources(Attribute(e.value), blobs);
  }
}
} // namespace

void Printer::printFileMetadata(const ir::Module& module) {
  // MLIR prints the blobs that the printed attributes refer to, in the order of first use, after
  // the module and an empty line.
  std::vector<const ir::ResourceBlob*> blobs;
  module.op().walk([&](const Operation& op) {
    for (const ir::NamedAttribute& a : op.attributes())
      collectResources(Attribute(a.value), blobs);
  });
  if (blobs.empty())
    return;
  static constexpr char kHex[] = "0123456789ABCDEF";
  m_out += "\n{-#\n  dialect_resources: {\n    builtin: {\n";
  for (size_t i = 0; i < blobs.size(); ++i) {
    const ir::ResourceBlob& blob = *blobs[i];
    m_out += "      ";
    ir::printResourceKey(blob.key, m_out);
    m_out += ": \"0x";
    auto hexByte = [&](uint8_t b) {
      m_out += kHex[b >> 4];
      m_out += kHex[b & 15];
    };
    for (int shift = 0; shift < 32; shift += 8)
      hexByte(static_cast<uint8_t>(blob.alignment >> shift));
    m_out.reserve(m_out.size() + blob.data.size() * 2 + 8);
    for (uint8_t b : blob.data)
      hexByte(b);
    m_out += i + 1 < blobs.size() ? "\",\n" : "\"\n";
  }
  m_out += "    }\n  }\n#-}\n";
}

} // namespace shardscope::io::mlir::detail
