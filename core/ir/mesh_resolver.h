#pragma once

#include "core/ir/module.h"
#include "core/ir/sdy_types.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardscope::ir {

/// `resolveMesh` for code that resolves the shardings of a whole module (passes, the verifier,
/// propagation): a symbol lookup scans the module's top-level ops, and nearly every sharding
/// names one of a few meshes, so the meshes looked up by name are remembered. The module's mesh
/// symbols must not change while a resolver is in use.
class MeshResolver {
public:
  explicit MeshResolver(const Module& module) : m_module(&module) {}

  /// The mesh of `sharding` (inline, or the module's mesh symbol), or null.
  const Mesh* operator()(const TensorSharding& sharding) {
    return sharding.inlineMesh ? sharding.inlineMesh.get() : byName(sharding.meshName);
  }
  /// The module's mesh symbol `name`, or null.
  const Mesh* byName(std::string_view name) {
    for (const auto& [known, mesh] : m_known)
      if (known == name)
        return mesh;
    const Mesh* mesh = m_module->lookupMesh(name);
    m_known.emplace_back(std::string(name), mesh);
    return mesh;
  }

private:
  const Module* m_module;
  std::vector<std::pair<std::string, const Mesh*>> m_known; // a few entries: a scan is fastest
};

} // namespace shardscope::ir
