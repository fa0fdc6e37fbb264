#include "core/pipeline/pass_manager.h"

#include "core/pipeline/passes.h"

#include <algorithm>

namespace shardscope::pipeline {

bool PassOptions::parse(std::string_view text, std::string& error) {
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == ' ')
      ++pos;
    if (pos >= text.size())
      break;
    size_t end = text.find(' ', pos);
    std::string_view item = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      error = "expected 'option=value', got '" + std::string(item) + "'";
      return false;
    }
    m_entries.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
    pos = end == std::string_view::npos ? text.size() : end;
  }
  return true;
}

std::optional<std::string> PassOptions::get(std::string_view name) const {
  for (const auto& [key, value] : m_entries)
    if (key == name)
      return value;
  return std::nullopt;
}

bool PassOptions::getBool(std::string_view name, bool fallback) const {
  std::optional<std::string> v = get(name);
  if (!v)
    return fallback;
  return *v == "true" || *v == "1";
}

void PassRegistry::add(PassInfo pass) { m_passes.push_back(std::move(pass)); }

const PassInfo* PassRegistry::lookup(std::string_view name) const {
  for (const PassInfo& p : m_passes)
    if (p.name == name)
      return &p;
  return nullptr;
}

std::vector<const PassInfo*> PassRegistry::all() const {
  std::vector<const PassInfo*> out;
  for (const PassInfo& p : m_passes)
    out.push_back(&p);
  std::sort(out.begin(), out.end(),
            [](const PassInfo* a, const PassInfo* b) { return a->name < b->name; });
  return out;
}

const PassRegistry& PassRegistry::builtin() {
  static const PassRegistry* registry = [] {
    auto* r = new PassRegistry();
    registerBuiltinPasses(*r);
    return r;
  }();
  return *registry;
}

bool parsePassArgument(std::string_view arg, const PassRegistry& registry, PassInvocation& out,
                       std::string& error) {
  size_t eq = arg.find('=');
  std::string_view name = arg.substr(0, eq);
  const PassInfo* pass = registry.lookup(name);
  if (!pass) {
    error = "unknown pass '" + std::string(name) + "'";
    return false;
  }
  out.pass = pass;
  out.options = PassOptions();
  if (eq == std::string_view::npos)
    return true;
  std::string_view text = arg.substr(eq + 1);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front())
    text = text.substr(1, text.size() - 2);
  if (!out.options.parse(text, error))
    return false;
  for (const auto& [key, value] : out.options.entries()) {
    if (std::find(pass->options.begin(), pass->options.end(), key) == pass->options.end()) {
      error = "pass '" + pass->name + "' has no option '" + key + "'";
      return false;
    }
  }
  return true;
}

PassInfo modulePass(std::string name, std::string summary,
                    bool (*fn)(ir::Module&, support::DiagnosticSink&)) {
  return {std::move(name), std::move(summary), {},
          [fn](ir::Module& module, const PassOptions&, support::DiagnosticSink& sink) {
            return fn(module, sink);
          }};
}

bool runPasses(ir::Module& module, std::span<const PassInvocation> passes,
               support::DiagnosticSink& sink) {
  for (const PassInvocation& p : passes) {
    support::ErrorTrackingSink tracking(sink);
    if (!p.pass->run(module, p.options, tracking) || tracking.hadError())
      return false;
  }
  return true;
}

} // namespace shardscope::pipeline
