#include "core/exec/backend_registry.h"

#include "core/exec/communicator.h"

#include <algorithm>

namespace shardscope::exec {

BackendRegistry& BackendRegistry::global() {
  static BackendRegistry registry;
  return registry;
}

void BackendRegistry::add(std::string name, std::string summary, CommunicatorFactory factory) {
  auto it = std::find_if(m_entries.begin(), m_entries.end(),
                         [&](const Entry& e) { return e.name == name; });
  Entry entry{std::move(name), std::move(summary), std::move(factory)};
  if (it != m_entries.end())
    *it = std::move(entry);
  else
    m_entries.push_back(std::move(entry));
}

const BackendRegistry::Entry* BackendRegistry::find(std::string_view name) const {
  auto it = std::find_if(m_entries.begin(), m_entries.end(),
                         [&](const Entry& e) { return e.name == name; });
  return it == m_entries.end() ? nullptr : &*it;
}

} // namespace shardscope::exec
