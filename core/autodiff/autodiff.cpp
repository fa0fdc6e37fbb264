#include "core/autodiff/autodiff.h"

#include "core/autodiff/detail/engine.h"

#include <algorithm>
#include <charconv>

namespace shardscope::autodiff {

using detail::Engine;
using detail::Mode;
using detail::OpBuilder;
using detail::Scope;
using detail::Seeds;
using ir::Attribute;
using ir::Operation;
using ir::Type;
using ir::Value;

const char* collectiveRulesName(CollectiveRules rules) {
  return rules == CollectiveRules::Efficient ? "efficient" : "naive";
}

namespace {

Operation* findFunction(const ir::Module& module, const std::string& name,
                        support::DiagnosticSink& sink) {
  std::string wanted = name.starts_with("@") ? name.substr(1) : name;
  std::vector<Operation*> functions = module.functions();
  if (wanted.empty()) {
    if (Operation* main = module.lookupFunction("main"))
      return main;
    if (functions.size() == 1)
      return functions.front();
    sink.error({}, "no function '@main' and more than one function; name the one to transform");
    return nullptr;
  }
  Operation* fn = module.lookupFunction(wanted);
  if (!fn) {
    std::string known;
    for (Operation* f : functions)
      known += (known.empty() ? "@" : ", @") + std::string(ir::func::name(*f));
    sink.error({}, "no function named '@" + wanted + "'; the module has " + known);
  }
  return fn;
}

std::string argumentList(const ir::Block& body) {
  std::string out;
  for (const auto& arg : body.arguments())
    out += (out.empty() ? "" : ", ") +
           (arg->nameHint().empty() ? "#" + std::to_string(arg->index()) : "%" + arg->nameHint());
  return out;
}

// Resolves argument references (`0`, `%x`, `x`) to sorted, distinct argument numbers.
std::optional<std::vector<unsigned>> resolveArguments(const Operation& fn,
                                                      const std::vector<std::string>& refs,
                                                      support::DiagnosticSink& sink) {
  const ir::Block& body = *ir::func::body(fn);
  std::vector<unsigned> out;
  for (const std::string& ref : refs) {
    std::string name = ref.starts_with("%") ? ref.substr(1) : ref;
    unsigned index = 0;
    auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
    bool numeric = ec == std::errc() && end == name.data() + name.size();
    if (numeric && index >= body.numArguments()) {
      sink.error(fn.loc(), "argument number " + name + " is out of range: '@" +
                               std::string(ir::func::name(fn)) + "' has " +
                               std::to_string(body.numArguments()) + " arguments");
      return std::nullopt;
    }
    if (!numeric) {
      auto it = std::find_if(body.arguments().begin(), body.arguments().end(),
                             [&](const auto& arg) { return arg->nameHint() == name; });
      if (name.empty() || it == body.arguments().end()) {
        sink.error(fn.loc(), "unknown argument '" + ref + "' of '@" +
                                 std::string(ir::func::name(fn)) + "'; its arguments are " +
                                 argumentList(body));
        return std::nullopt;
      }
      index = (*it)->index();
    }
    ir::Type type = body.argument(index)->type();
    if (!type.isTensor() || !ir::isFloatElement(type.elementType())) {
      sink.error(fn.loc(), "argument '" + ref + "' of '@" + std::string(ir::func::name(fn)) +
                               "' is " + type.str() + ", not a float tensor");
      return std::nullopt;
    }
    out.push_back(index);
  }
  if (out.empty()) {
    sink.error(fn.loc(), "no arguments given to differentiate or transpose with respect to");
    return std::nullopt;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Attribute dictAt(const Operation& fn, std::string_view attr, unsigned i) {
  const auto* array = fn.attr(attr).as<ir::ArrayAttr>();
  if (array && i < array->elements.size())
    return array->elements[i];
  return Attribute::dictionary({});
}

Attribute dictionaries(std::vector<Attribute> dicts) {
  bool any = std::any_of(dicts.begin(), dicts.end(), [](const Attribute& d) {
    const auto* dict = d.as<ir::DictionaryAttr>();
    return dict && !dict->entries.empty();
  });
  return any ? Attribute::array(std::move(dicts)) : Attribute();
}

// A new function `name` with the given arguments and results (and their attribute
// dictionaries), appended to the module. Its body is empty.
Operation* newFunction(ir::Module& module, const Operation& source, const std::string& name,
                       std::vector<Type> args, std::vector<Attribute> argAttrs,
                       std::vector<Type> results, std::vector<Attribute> resAttrs) {
  auto fn = Operation::create("func.func", {}, {}, source.loc());
  fn->setAttr("sym_name", Attribute::string(name));
  fn->setAttr("function_type", Attribute::type(Type::function(args, results)));
  if (Attribute a = dictionaries(std::move(argAttrs)))
    fn->setAttr("arg_attrs", a);
  if (Attribute a = dictionaries(std::move(resAttrs)))
    fn->setAttr("res_attrs", a);
  if (Attribute visibility = source.attr("sym_visibility"))
    fn->setAttr("sym_visibility", visibility);
  for (const ir::NamedAttribute& attr : fn->attributes())
    fn->setInherent(attr.name, true);
  ir::Block& body = fn->addRegion().front();
  for (Type t : args)
    body.addArgument(t);
  return module.body().push_back(std::move(fn));
}

void removeFunction(ir::Module& module, Operation* fn) {
  fn->walk([](Operation& op) { op.dropAllReferences(); });
  module.body().erase(fn);
}

std::string uniqueName(const ir::Module& module, std::string name) {
  std::string candidate = name;
  for (int n = 1; module.lookupFunction(candidate); ++n)
    candidate = name + "_" + std::to_string(n);
  return candidate;
}

// While alive, a copy of a function in which every `func.call` to a function with a body is
// replaced by that body (transitively), so that the transforms see through calls: a nested
// `jax.jit` inside a shard_map lowers to one. The copy is removed again at the end; a function
// without calls is used as it is.
class InlinedCopy {
public:
  InlinedCopy(ir::Module& module, Operation& fn, support::DiagnosticSink& sink)
      : m_module(module), m_fn(&fn) {
    if (!hasInlinableCall(fn))
      return;
    Operation::ValueMapping mapping;
    std::unique_ptr<Operation> copy = fn.clone(mapping);
    copy->setAttr("sym_name", Attribute::string(uniqueName(
                                  module, std::string(ir::func::name(fn)) + "_inlined")));
    copy->setAttr("sym_visibility", Attribute::string("private"));
    m_copy = module.body().push_back(std::move(copy));
    // Every round inlines the calls present in the copy; a chain deeper than this is recursion.
    for (int round = 0; hasInlinableCall(*m_copy); ++round) {
      if (round == kMaxDepth) {
        sink.error(fn.loc(), "'@" + std::string(ir::func::name(fn)) +
                                 "' calls itself (through " + std::to_string(kMaxDepth) +
                                 " nested calls): recursive calls cannot be transformed");
        m_failed = true;
        return;
      }
      std::vector<Operation*> calls;
      m_copy->walk([&](Operation& op) {
        if (calleeBody(op))
          calls.push_back(&op);
      });
      for (Operation* call : calls)
        inlineCall(*call);
    }
  }
  ~InlinedCopy() {
    if (m_copy)
      removeFunction(m_module, m_copy);
  }
  InlinedCopy(const InlinedCopy&) = delete;
  InlinedCopy& operator=(const InlinedCopy&) = delete;

  Operation* get() const { return m_failed ? nullptr : m_copy ? m_copy : m_fn; }

private:
  static constexpr int kMaxDepth = 64;

  const ir::Block* calleeBody(const Operation& op) const {
    if (!op.is("func.call"))
      return nullptr;
    const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
    const Operation* fn =
        callee && !callee->path.empty() ? m_module.lookupFunction(callee->path.back()) : nullptr;
    const ir::Block* body = fn ? ir::func::body(*fn) : nullptr;
    return body && body->numArguments() == op.numOperands() && body->back() &&
                   body->back()->is("func.return") &&
                   body->back()->numOperands() == op.numResults()
               ? body
               : nullptr;
  }

  bool hasInlinableCall(Operation& fn) const {
    bool found = false;
    fn.walk([&](Operation& op) { found = found || calleeBody(op); });
    return found;
  }

  void inlineCall(Operation& call) {
    const ir::Block& body = *calleeBody(call);
    Operation::ValueMapping mapping;
    for (unsigned i = 0; i < body.numArguments(); ++i)
      mapping[body.argument(i)] = call.operand(i);
    ir::Block& block = *call.parentBlock();
    for (const auto& op : body.ops())
      if (op.get() != body.back())
        block.insertBefore(&call, op->clone(mapping));
    const Operation& ret = *body.back();
    for (unsigned i = 0; i < call.numResults(); ++i) {
      auto it = mapping.find(ret.operand(i));
      call.result(i)->replaceAllUsesWith(it != mapping.end() ? it->second : ret.operand(i));
    }
    call.dropAllReferences();
    block.erase(&call);
  }

  ir::Module& m_module;
  Operation* m_fn;
  Operation* m_copy = nullptr;
  bool m_failed = false;
};

// Checks the parts every transform needs: a body ending in `func.return`.
const Operation* returnOf(const Operation& fn, support::DiagnosticSink& sink) {
  const ir::Block* body = ir::func::body(fn);
  const Operation* ret = body ? body->back() : nullptr;
  if (!ret || !ret->is("func.return")) {
    sink.error(fn.loc(), "'@" + std::string(ir::func::name(fn)) + "' has no body to transform");
    return nullptr;
  }
  return ret;
}

} // namespace

AutodiffResult transpose(ir::Module& module, const TransposeOptions& options,
                         support::DiagnosticSink& sink) {
  Operation* original = findFunction(module, options.function, sink);
  if (!original || !returnOf(*original, sink))
    return {};
  InlinedCopy inlined(module, *original, sink);
  Operation* fn = inlined.get();
  if (!fn)
    return {};
  auto linear = resolveArguments(*fn, options.linearIn, sink);
  if (!linear)
    return {};
  const ir::Block& body = *ir::func::body(*fn);
  const Operation* ret = body.back();
  std::vector<Type> args, results;
  std::vector<Attribute> argAttrs, resAttrs;
  std::vector<unsigned> kept;
  for (unsigned j = 0; j < body.numArguments(); ++j) {
    if (std::binary_search(linear->begin(), linear->end(), j)) {
      results.push_back(body.argument(j)->type());
      resAttrs.push_back(dictAt(*fn, "arg_attrs", j));
    } else {
      kept.push_back(j);
      args.push_back(body.argument(j)->type());
      argAttrs.push_back(dictAt(*fn, "arg_attrs", j));
    }
  }
  for (unsigned i = 0; i < ret->numOperands(); ++i) {
    args.push_back(ret->operand(i)->type());
    argAttrs.push_back(dictAt(*fn, "res_attrs", i));
  }
  std::string name =
      options.newName.empty()
          ? std::string(ir::func::name(*original)) +
                (options.rules == CollectiveRules::Naive ? "_transpose_naive" : "_transpose")
          : options.newName;
  Engine engine(module, Mode::Transpose, options.rules, sink);
  Operation* out =
      newFunction(module, *original, uniqueName(module, name), args, argAttrs, results, resAttrs);
  ir::Block& target = *ir::func::body(*out);
  Scope scope;
  scope.source = &body;
  scope.target = &target;
  for (unsigned k = 0; k < kept.size(); ++k) {
    Value* arg = target.argument(k);
    arg->setNameHint(body.argument(kept[k])->nameHint());
    scope.primal[body.argument(kept[k])] = arg;
  }
  for (unsigned j : *linear)
    scope.active.insert(body.argument(j));
  Seeds seeds;
  for (unsigned i = 0; i < ret->numOperands(); ++i) {
    Value* ct = target.argument(static_cast<unsigned>(kept.size()) + i);
    ct->setNameHint(ret->operand(i)->nameHint().empty() ? "ybar"
                                                        : ret->operand(i)->nameHint() + "_bar");
    seeds.cts.push_back(ct);
    seeds.axes.emplace_back();
  }
  std::optional<std::vector<Value*>> cts = engine.run(scope, seeds);
  if (!cts) {
    removeFunction(module, out);
    return {};
  }
  OpBuilder b(target);
  b.setLoc(ret->loc());
  b.create("func.return", *cts, {});
  detail::eraseDeadOps(target);
  return {out, original, *linear};
}

AutodiffResult grad(ir::Module& module, const GradOptions& options, support::DiagnosticSink& sink) {
  Operation* original = findFunction(module, options.function, sink);
  if (!original)
    return {};
  InlinedCopy inlined(module, *original, sink);
  Operation* fn = inlined.get();
  if (!fn)
    return {};
  const Operation* ret = returnOf(*fn, sink);
  if (!ret)
    return {};
  Type resultType = ret->numOperands() == 1 ? ret->operand(0)->type() : Type();
  bool scalar = resultType && resultType.isTensor() && resultType.rank() == 0 &&
                ir::isFloatElement(resultType.elementType());
  if (!scalar) {
    std::string got;
    for (Value* v : ret->operands())
      got += (got.empty() ? "" : ", ") + v->type().str();
    sink.error(ret->loc(), "grad needs a function returning one scalar float (a rank-0 float "
                           "tensor); '@" +
                               std::string(ir::func::name(*original)) + "' returns (" + got + ")");
    return {};
  }
  auto wrt = resolveArguments(*fn, options.wrt, sink);
  if (!wrt)
    return {};
  const ir::Block& body = *ir::func::body(*fn);
  std::vector<Type> args, results;
  std::vector<Attribute> argAttrs, resAttrs;
  for (unsigned j = 0; j < body.numArguments(); ++j) {
    args.push_back(body.argument(j)->type());
    argAttrs.push_back(dictAt(*fn, "arg_attrs", j));
  }
  for (unsigned j : *wrt) {
    results.push_back(body.argument(j)->type());
    resAttrs.push_back(dictAt(*fn, "arg_attrs", j));
  }
  std::string name = options.newName.empty()
                         ? std::string(ir::func::name(*original)) +
                               (options.rules == CollectiveRules::Naive ? "_grad_naive" : "_grad")
                         : options.newName;
  Engine engine(module, Mode::Grad, options.rules, sink);
  Operation* out =
      newFunction(module, *original, uniqueName(module, name), args, argAttrs, results, resAttrs);
  ir::Block& target = *ir::func::body(*out);
  Scope scope;
  scope.source = &body;
  scope.target = &target;
  for (unsigned j = 0; j < body.numArguments(); ++j) {
    target.argument(j)->setNameHint(body.argument(j)->nameHint());
    scope.primal[body.argument(j)] = target.argument(j);
  }
  for (unsigned j : *wrt)
    scope.active.insert(body.argument(j));
  OpBuilder b(target);
  b.setLoc(ret->loc());
  Seeds seeds;
  seeds.cts.push_back(b.splat(resultType, 1.0));
  seeds.axes.emplace_back();
  std::optional<std::vector<Value*>> cts = engine.run(scope, seeds);
  if (!cts) {
    removeFunction(module, out);
    return {};
  }
  b.create("func.return", *cts, {});
  detail::eraseDeadOps(target);
  return {out, original, *wrt};
}

} // namespace shardscope::autodiff
