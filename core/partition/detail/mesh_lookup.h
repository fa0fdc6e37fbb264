#pragma once
// Internal to core/partition: mesh resolution for passes that resolve the mesh of every sharding
// they look at.

#include "core/ir/module.h"
#include "core/ir/sdy_types.h"

#include <string>

namespace shardscope::partition::detail {

/// `ir::resolveMesh` that remembers the last named mesh: nearly every sharding of a program names
/// the same mesh, and a symbol lookup scans the module's top-level ops. The module's meshes must
/// not change while the lookup is in use.
class MeshLookup {
public:
  explicit MeshLookup(const ir::Module& module) : m_module(&module) {}

  /// The mesh of `sharding` (inline, or the module's mesh symbol), or null.
  const ir::Mesh* operator()(const ir::TensorSharding& sharding) {
    return sharding.inlineMesh ? sharding.inlineMesh.get() : byName(sharding.meshName);
  }
  /// The module's mesh symbol `name`, or null.
  const ir::Mesh* byName(const std::string& name) {
    if (!m_known || m_name != name) {
      m_name = name;
      m_mesh = m_module->lookupMesh(m_name);
      m_known = true;
    }
    return m_mesh;
  }

private:
  const ir::Module* m_module;
  std::string m_name;
  const ir::Mesh* m_mesh = nullptr;
  bool m_known = false;
};

} // namespace shardscope::partition::detail
