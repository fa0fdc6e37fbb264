#include "core/import/gspmd/hlo_sharding_parser.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

namespace shardscope::import_::gspmd {

namespace {

// Reads one sharding string. Every method returns false after recording the first error.
class ShardingReader {
public:
  ShardingReader(std::string_view text, HloShardingParseError& error)
      : m_text(text), m_error(error) {}

  bool parse(HloSharding& out) {
    skipSpace();
    if (!expect('{', "expected '{' to start sharding attribute"))
      return false;
    skipSpace();
    // `{}` is the empty tuple; `{{` starts a tuple of single shardings.
    if (peek() == '}' || peek() == '{') {
      if (!parseTupleElements(out))
        return false;
    } else if (!parseSingleBody(out)) {
      return false;
    }
    skipSpace();
    if (m_pos != m_text.size())
      return fail("unexpected text after sharding");
    return true;
  }

private:
  bool parseTupleElements(HloSharding& out) {
    std::vector<HloSharding> elements;
    while (peek() != '}') {
      if (!expect('{', "expected '{' to start sharding attribute"))
        return false;
      HloSharding element;
      if (!parseSingleBody(element))
        return false;
      elements.push_back(std::move(element));
      skipSpace();
      if (peek() == ',') {
        ++m_pos;
        skipSpace();
        continue;
      }
      if (peek() != '}')
        return fail("expected ',' or '}' in tuple sharding");
    }
    ++m_pos;
    out = HloSharding::tuple(std::move(elements));
    return true;
  }

  // The attributes of one sharding after its '{', up to and including the closing '}'.
  bool parseSingleBody(HloSharding& out) {
    size_t start = m_pos;
    bool replicated = false, maximal = false, manual = false, unknown = false,
         unreduced = false, lastTileDimReplicate = false, iota = false;
    std::vector<int64_t> dims, devices, reshapeDims, perm;
    std::vector<SubgroupType> subgroupTypes;
    std::optional<int64_t> device;
    std::string metadata;
    while (true) {
      skipSpace();
      if (peek() == '}') {
        ++m_pos;
        break;
      }
      size_t wordStart = m_pos;
      std::string_view word = readWord();
      if (word.empty())
        return fail("expected a sharding attribute");
      if (word == "replicated") {
        replicated = true;
      } else if (word == "maximal") {
        maximal = true;
      } else if (word == "manual") {
        manual = true;
      } else if (word == "unknown") {
        unknown = true;
      } else if (word == "unreduced") {
        unreduced = true;
      } else if (word == "last_tile_dim_replicate") {
        lastTileDimReplicate = true;
      } else if (word == "last_tile_dims") {
        if (!expectEquals() || !parseSubgroupTypes(subgroupTypes))
          return false;
      } else if (word == "device") {
        int64_t value = 0;
        if (!expectEquals() || !readInt(value))
          return false;
        device = value;
      } else if (word == "devices") {
        if (!expectEquals() || !parseDevices(dims, devices, reshapeDims, perm, iota))
          return false;
      } else if (word == "metadata") {
        if (!expectEquals() || !readBalanced(metadata))
          return false;
      } else if (word == "shard_as" || word == "shard_like") {
        int64_t group = 0;
        skipSpace();
        if (!readInt(group))
          return false;
      } else {
        m_pos = wordStart;
        return fail("unknown sharding attribute '" + std::string(word) + "'");
      }
    }
    size_t end = m_pos;
    m_pos = start;
    if (replicated || manual || unknown || unreduced) {
      if (!dims.empty() || device)
        return fail(std::string(replicated ? "replicated" : manual ? "manual"
                                                  : unknown     ? "unknown"
                                                                : "unreduced") +
                    " shardings should not have any devices assigned");
      out = replicated ? HloSharding::replicate()
            : manual   ? HloSharding::manual()
            : unknown  ? HloSharding::unknown()
                       : HloSharding::subgroup(TileAssignment::iota({1, 1}, {1}, {0}),
                                               {SubgroupType::Unreduced});
    } else if (maximal) {
      if (!device || !dims.empty())
        return fail("maximal shardings should have exactly one device assigned");
      out = HloSharding::maximal(*device);
    } else {
      if (!buildTiled(dims, devices, reshapeDims, perm, iota, lastTileDimReplicate,
                      subgroupTypes, out))
        return false;
    }
    out.metadata = std::move(metadata);
    m_pos = end;
    return true;
  }

  bool buildTiled(std::vector<int64_t>& dims, std::vector<int64_t>& devices,
                  std::vector<int64_t>& reshapeDims, std::vector<int64_t>& perm, bool iota,
                  bool lastTileDimReplicate, std::vector<SubgroupType>& subgroupTypes,
                  HloSharding& out) {
    if (dims.empty())
      return fail("sharding has neither 'replicated', 'maximal', 'manual', 'unknown' nor "
                  "'devices=[...]'");
    int64_t count = 0, reshapeCount = 0;
    if (!deviceCount(dims, count) || (iota && !deviceCount(reshapeDims, reshapeCount)))
      return false;
    TileAssignment tiles;
    if (iota) {
      if (reshapeCount != count)
        return fail("iota reshape dimensions hold " + std::to_string(reshapeCount) +
                    " devices, the tile assignment " + std::to_string(count));
      if (perm.empty()) {
        perm.resize(reshapeDims.size());
        std::iota(perm.begin(), perm.end(), int64_t{0});
      }
      std::vector<int64_t> sorted = perm;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int64_t>(i) || perm.size() != reshapeDims.size())
          return fail("iota transpose T(...) must be a permutation of the " +
                      std::to_string(reshapeDims.size()) + " reshape dimensions");
      tiles = TileAssignment::iota(dims, reshapeDims, perm);
    } else {
      if (static_cast<int64_t>(devices.size()) != count)
        return fail("devices=[...] lists " + std::to_string(devices.size()) +
                    " devices, the tile assignment shape holds " + std::to_string(count));
      std::set<int64_t> seen;
      for (int64_t d : devices)
        if (!seen.insert(d).second)
          return fail("device " + std::to_string(d) + " appears twice in the tile assignment");
      tiles = TileAssignment::explicitDevices(dims, devices);
    }
    if (count <= 1)
      return fail("non-maximal shardings must have more than one device assigned");
    if (lastTileDimReplicate && !subgroupTypes.empty())
      return fail("'last_tile_dim_replicate' cannot be combined with 'last_tile_dims'");
    size_t subgroups = lastTileDimReplicate ? 1 : subgroupTypes.size();
    if (subgroups > dims.size())
      return fail("more subgroup dimensions than tile assignment dimensions");
    if (lastTileDimReplicate)
      subgroupTypes = {SubgroupType::Replicated};
    out = HloSharding::subgroup(std::move(tiles), subgroupTypes);
    return true;
  }

  // The product of `dims`, bounded so that a hostile string cannot make us allocate without
  // limit (XLA's device counts are far below it).
  bool deviceCount(const std::vector<int64_t>& dims, int64_t& count) {
    static constexpr int64_t kMaxDevices = int64_t{1} << 24;
    count = 1;
    for (int64_t dim : dims) {
      if (dim <= 0)
        return fail("tile assignment dimensions must be positive");
      if (count > kMaxDevices / dim)
        return fail("tile assignment holds more than " + std::to_string(kMaxDevices) +
                    " devices");
      count *= dim;
    }
    return true;
  }

  bool parseDevices(std::vector<int64_t>& dims, std::vector<int64_t>& devices,
                    std::vector<int64_t>& reshapeDims, std::vector<int64_t>& perm, bool& iota) {
    if (!parseBracketList('[', ']', dims))
      return false;
    if (dims.empty())
      return fail("tile assignment dimensions must not be empty");
    skipSpace();
    if (m_text.substr(m_pos, 2) == "<=") {
      m_pos += 2;
      iota = true;
      if (!parseBracketList('[', ']', reshapeDims))
        return false;
      if (reshapeDims.empty())
        return fail("iota reshape dimensions must not be empty");
      if (peek() == 'T') {
        ++m_pos;
        if (!parseBracketList('(', ')', perm))
          return false;
      }
      return true;
    }
    int64_t value = 0;
    if (!readInt(value))
      return false;
    devices.push_back(value);
    while (true) {
      skipSpace();
      if (peek() != ',')
        return true;
      ++m_pos;
      skipSpace();
      if (!readInt(value))
        return false;
      devices.push_back(value);
    }
  }

  bool parseSubgroupTypes(std::vector<SubgroupType>& types) {
    skipSpace();
    if (!expect('{', "expected '{' after 'last_tile_dims='"))
      return false;
    while (true) {
      skipSpace();
      std::string_view word = readWord();
      if (word == "manual")
        types.push_back(SubgroupType::Manual);
      else if (word == "replicated")
        types.push_back(SubgroupType::Replicated);
      else if (word == "unreduced")
        types.push_back(SubgroupType::Unreduced);
      else if (word == "maximal")
        types.push_back(SubgroupType::Maximal);
      else
        return fail("expected 'manual', 'replicated' or 'unreduced' in last_tile_dims");
      skipSpace();
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      return expect('}', "expected ',' or '}' in last_tile_dims");
    }
  }

  bool parseBracketList(char open, char close, std::vector<int64_t>& out) {
    skipSpace();
    if (!expect(open, std::string("expected '") + open + "'"))
      return false;
    skipSpace();
    if (peek() == close) {
      ++m_pos;
      return true;
    }
    while (true) {
      int64_t value = 0;
      skipSpace();
      if (!readInt(value))
        return false;
      out.push_back(value);
      skipSpace();
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      return expect(close, std::string("expected ',' or '") + close + "'");
    }
  }

  // `{...}` with nested braces and quoted strings, kept verbatim.
  bool readBalanced(std::string& out) {
    skipSpace();
    size_t start = m_pos;
    if (!expect('{', "expected '{' after 'metadata='"))
      return false;
    int depth = 1;
    while (m_pos < m_text.size() && depth > 0) {
      char c = m_text[m_pos++];
      if (c == '"') {
        while (m_pos < m_text.size() && m_text[m_pos] != '"')
          m_pos += m_text[m_pos] == '\\' ? 2 : 1;
        ++m_pos;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    if (depth > 0 || m_pos > m_text.size())
      return fail("unterminated metadata");
    out = std::string(m_text.substr(start, m_pos - start));
    return true;
  }

  bool readInt(int64_t& value) {
    size_t start = m_pos;
    while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])))
      ++m_pos;
    if (start == m_pos)
      return fail("expected a non-negative integer");
    if (m_pos - start > 15)
      return failAt(start, "integer out of range");
    value = std::stoll(std::string(m_text.substr(start, m_pos - start)));
    return true;
  }

  std::string_view readWord() {
    size_t start = m_pos;
    while (m_pos < m_text.size() &&
           (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
      ++m_pos;
    return m_text.substr(start, m_pos - start);
  }

  bool expectEquals() {
    skipSpace();
    return expect('=', "expected '='");
  }

  bool expect(char c, const std::string& message) {
    if (peek() != c)
      return fail(message);
    ++m_pos;
    return true;
  }

  // Skips white space and `/*...*/` comments (XLA prints `/*index=5*/` in long tuples).
  void skipSpace() {
    while (m_pos < m_text.size()) {
      if (std::isspace(static_cast<unsigned char>(m_text[m_pos]))) {
        ++m_pos;
      } else if (m_text.substr(m_pos, 2) == "/*") {
        size_t end = m_text.find("*/", m_pos + 2);
        m_pos = end == std::string_view::npos ? m_text.size() : end + 2;
      } else {
        break;
      }
    }
  }

  char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }

  bool fail(std::string message) { return failAt(m_pos, std::move(message)); }
  bool failAt(size_t offset, std::string message) {
    m_error.message = std::move(message);
    m_error.offset = std::min(offset, m_text.size());
    return false;
  }

  std::string_view m_text;
  HloShardingParseError& m_error;
  size_t m_pos = 0;
};

} // namespace

std::optional<HloSharding> parseHloSharding(std::string_view text, HloShardingParseError& error) {
  HloSharding sharding;
  ShardingReader reader(text, error);
  if (!reader.parse(sharding))
    return std::nullopt;
  return sharding;
}

} // namespace shardscope::import_::gspmd
