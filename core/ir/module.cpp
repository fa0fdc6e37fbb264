#include "core/ir/module.h"

namespace shardscope::ir {

Module::Module()
    : m_op(Operation::create("builtin.module", {}, {})),
      m_locations(std::make_shared<LocationTable>()) {
  m_op->addRegion().addBlock();
}

std::unique_ptr<Module> Module::clone(Operation::ValueMapping* mapping) const {
  Operation::ValueMapping local;
  Operation::ValueMapping& map = mapping ? *mapping : local;
  // Every result and block argument gets an entry: size the table once instead of rehashing.
  size_t values = 0;
  m_op->walk([&](const Operation& op) {
    values += op.numResults();
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        values += block->numArguments();
  });
  map.reserve(map.size() + values);
  return std::unique_ptr<Module>(new Module(m_op->clone(map), m_locations));
}

std::string Module::jaxName(const Operation& op) const {
  return std::string(m_locations->jaxName(op.debugLoc()));
}

std::string Module::jaxName(const Value& value) const {
  if (value.isBlockArgument())
    return std::string(m_locations->jaxName(value.debugLoc()));
  return value.definingOp() ? jaxName(*value.definingOp()) : std::string();
}

std::string Module::debugLabel(const Operation& op) const {
  return m_locations->label(op.debugLoc());
}

std::string Module::debugLabel(const Value& value) const {
  if (value.debugLoc() != kUnknownLoc) {
    std::string label = m_locations->label(value.debugLoc());
    if (!label.empty())
      return label;
  }
  if (const Operation* op = value.definingOp())
    return debugLabel(*op);
  return {};
}

std::vector<Operation*> Module::functions() const {
  std::vector<Operation*> fns;
  for (auto& op : body().ops())
    if (op->is("func.func"))
      fns.push_back(op.get());
  return fns;
}

namespace {
Operation* lookupSymbol(const Block& body, std::string_view opName, std::string_view symbol) {
  for (auto& op : body.ops()) {
    if (!op->is(opName))
      continue;
    if (const auto* name = op->attr("sym_name").as<StringAttr>(); name && name->value == symbol)
      return op.get();
  }
  return nullptr;
}

const DictionaryAttr* dictAt(const Operation& fn, std::string_view attrName, unsigned i) {
  const auto* array = fn.attr(attrName).as<ArrayAttr>();
  if (!array || i >= array->elements.size())
    return nullptr;
  return array->elements[i].as<DictionaryAttr>();
}

void setDictEntry(Operation& fn, std::string_view attrName, unsigned count, unsigned i,
                  std::string_view name, Attribute value) {
  std::vector<Attribute> dicts;
  if (const auto* array = fn.attr(attrName).as<ArrayAttr>())
    dicts = array->elements;
  dicts.resize(std::max<size_t>(dicts.size(), count), Attribute::dictionary({}));
  std::vector<NamedAttribute> entries;
  if (const auto* d = dicts[i].as<DictionaryAttr>())
    entries = d->entries;
  std::erase_if(entries, [&](const NamedAttribute& e) { return e.name == name; });
  if (value)
    entries.push_back({std::string(name), value.impl()});
  dicts[i] = Attribute::dictionary(std::move(entries));
  bool allEmpty = true;
  for (const Attribute& d : dicts)
    allEmpty = allEmpty && d.as<DictionaryAttr>()->entries.empty();
  if (allEmpty)
    fn.removeAttr(attrName);
  else
    fn.setAttr(attrName, Attribute::array(std::move(dicts)));
}
} // namespace

Operation* Module::lookupFunction(std::string_view name) const {
  return lookupSymbol(body(), "func.func", name);
}

Operation* Module::lookupMeshOp(std::string_view name) const {
  return lookupSymbol(body(), "sdy.mesh", name);
}

const Mesh* Module::lookupMesh(std::string_view name) const {
  Operation* op = lookupMeshOp(name);
  if (!op)
    return nullptr;
  const auto* mesh = op->attr("mesh").as<MeshAttr>();
  return mesh ? &mesh->mesh : nullptr;
}

namespace func {

std::string_view name(const Operation& fn) {
  const auto* s = fn.attr("sym_name").as<StringAttr>();
  return s ? std::string_view(s->value) : std::string_view();
}

Type type(const Operation& fn) {
  const auto* t = fn.attr("function_type").as<TypeAttr>();
  return t ? t->value : Type();
}

const DictionaryAttr* argAttrs(const Operation& fn, unsigned i) { return dictAt(fn, "arg_attrs", i); }

const DictionaryAttr* resultAttrs(const Operation& fn, unsigned i) {
  return dictAt(fn, "res_attrs", i);
}

void setArgAttr(Operation& fn, unsigned i, std::string_view name, Attribute value) {
  setDictEntry(fn, "arg_attrs", static_cast<unsigned>(type(fn).elements().size()), i, name, value);
}

void setResultAttr(Operation& fn, unsigned i, std::string_view name, Attribute value) {
  setDictEntry(fn, "res_attrs", static_cast<unsigned>(type(fn).results().size()), i, name, value);
}

Block* body(const Operation& fn) {
  if (fn.numRegions() == 0 || fn.region(0).empty())
    return nullptr;
  return fn.region(0).blocks().front().get();
}

} // namespace func

const Mesh* resolveMesh(const Module& module, const TensorSharding& sharding) {
  if (sharding.inlineMesh)
    return sharding.inlineMesh.get();
  return module.lookupMesh(sharding.meshName);
}

const TensorSharding* shardingOf(const Value& value) {
  if (Operation* def = value.definingOp()) {
    const auto* perValue = def->attr("sdy.sharding").as<ShardingPerValueAttr>();
    if (perValue && value.index() < perValue->shardings.size())
      return &perValue->shardings[value.index()];
    return nullptr;
  }
  Operation* owner = value.ownerBlock() ? value.ownerBlock()->parentOp() : nullptr;
  if (owner && owner->is("func.func")) {
    const DictionaryAttr* attrs = func::argAttrs(*owner, value.index());
    if (attrs)
      if (const auto* s = attrs->get("sdy.sharding").as<ShardingAttr>())
        return &s->sharding;
  }
  return nullptr;
}

} // namespace shardscope::ir
