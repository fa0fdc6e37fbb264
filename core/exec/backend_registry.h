#pragma once

#include "core/exec/device_context.h"

#include <string>
#include <string_view>
#include <vector>

namespace shardscope::exec {

/// Communicator backends by name (`local`, later `mpi`), so front ends pick one with
/// `--backend NAME` without `core/exec` depending on any. Backends live in `core/backends/*` and
/// register explicitly (static libraries drop self-registering globals), e.g.
/// `backends::local::registerLocalBackend(BackendRegistry::global())` in a front end's `main`.
/// Registration is not thread-safe; do it at startup.
class BackendRegistry {
public:
  struct Entry {
    std::string name;
    std::string summary;
    CommunicatorFactory factory;
  };

  /// The process-wide registry.
  static BackendRegistry& global();

  /// Adds or replaces backend `name`.
  void add(std::string name, std::string summary, CommunicatorFactory factory);
  /// The backend named `name`, or null.
  const Entry* find(std::string_view name) const;
  /// All backends in registration order.
  const std::vector<Entry>& all() const { return m_entries; }

private:
  std::vector<Entry> m_entries;
};

} // namespace shardscope::exec
