#pragma once

#include "core/ir/operation.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

/// A parsed program: the top-level `builtin.module` op and its symbol tables (meshes,
/// functions). Owns everything in it.
class Module {
public:
  /// Creates an empty module.
  Module();
  /// A deep copy: independent ops and values, shared (immutable) attributes, the same locations.
  /// `mapping`, when given, receives every value of this module with its copy.
  std::unique_ptr<Module> clone(Operation::ValueMapping* mapping = nullptr) const;

  Operation& op() { return *m_op; }
  const Operation& op() const { return *m_op; }
  /// The module body, holding `sdy.mesh` and `func.func` ops.
  Block& body() { return m_op->region(0).front(); }
  const Block& body() const { return m_op->region(0).front(); }

  /// All `func.func` ops, in order.
  std::vector<Operation*> functions() const;
  /// The function named `name`, or null.
  Operation* lookupFunction(std::string_view name) const;
  /// The `sdy.mesh` op named `name`, or null.
  Operation* lookupMeshOp(std::string_view name) const;
  /// The mesh named `name`, or null.
  const Mesh* lookupMesh(std::string_view name) const;

  /// The debug locations (`loc(...)`) of this module's ops and block arguments. A clone shares
  /// the table with the module it was cloned from (entries are only ever added).
  const LocationTable& locations() const { return *m_locations; }
  LocationTable& locations() { return *m_locations; }
  /// The full JAX name of `op` (`jit(f)/jit(main)/dot_general`, see `LocationTable::jaxName`);
  /// empty when its location has none.
  std::string jaxName(const Operation& op) const;
  /// The JAX name of a value: a block argument's name location (`loc("x")` gives `x`), else the
  /// JAX name of the op defining it.
  std::string jaxName(const Value& value) const;
  /// The best human label of `op`: its JAX name, else the `file:line` of its debug location,
  /// else empty.
  std::string debugLabel(const Operation& op) const;
  /// The same for a value: a block argument's own location (`loc("x")` gives `x`), else the label
  /// of the op defining it.
  std::string debugLabel(const Value& value) const;

private:
  Module(std::unique_ptr<Operation> op, std::shared_ptr<LocationTable> locations)
      : m_op(std::move(op)), m_locations(std::move(locations)) {}
  std::unique_ptr<Operation> m_op;
  std::shared_ptr<LocationTable> m_locations;
};

/// Accessors for `func.func` ops (attributes `sym_name`, `function_type`, `arg_attrs`,
/// `res_attrs`, `sym_visibility`).
namespace func {

/// The function's symbol name.
std::string_view name(const Operation& fn);
/// The function's type `(inputs) -> results`.
Type type(const Operation& fn);
/// The attribute dictionary of argument `i` (may be null).
const DictionaryAttr* argAttrs(const Operation& fn, unsigned i);
/// The attribute dictionary of result `i` (may be null).
const DictionaryAttr* resultAttrs(const Operation& fn, unsigned i);
/// Sets attribute `name` of argument `i` (null `value` removes it).
void setArgAttr(Operation& fn, unsigned i, std::string_view name, Attribute value);
/// Sets attribute `name` of result `i` (null `value` removes it).
void setResultAttr(Operation& fn, unsigned i, std::string_view name, Attribute value);
/// The entry block (holding the arguments), or null for a declaration.
Block* body(const Operation& fn);

} // namespace func

/// Returns the mesh a sharding refers to: its inline mesh or the module's mesh symbol, or null.
const Mesh* resolveMesh(const Module& module, const TensorSharding& sharding);

/// Looks up the sharding attribute `sdy.sharding` of `value` wherever it is stored: on the
/// defining op (`#sdy.sharding_per_value`), on a function argument, or on a region argument of a
/// data-flow op. Returns null when the value has none.
const TensorSharding* shardingOf(const Value& value);

} // namespace shardscope::ir
