// Parsing of Shardy's attributes: meshes, axis refs, tensor shardings and op sharding rules, with
// the error texts Shardy's parsers give.
#include "core/io/mlir/detail/parser.h"

#include "core/support/checked_math.h"

#include <algorithm>
#include <charconv>

namespace shardscope::io::mlir::detail {

namespace {
constexpr const char* kDimShardingsContext =
    "failed to parse Sdy_TensorSharding parameter 'dim_shardings' which is to be a "
    "`::llvm::ArrayRef<DimensionShardingAttr>`";
constexpr const char* kAxisListContext =
    "failed to parse axis list which is expected to be an `ArrayRef<AxisRefAttr>`";
constexpr const char* kPerValueContext =
    "failed to parse Sdy_TensorShardingPerValue parameter 'shardings' which is to be a "
    "`::llvm::ArrayRef<TensorShardingAttr>`";
} // namespace

bool Parser::parseMesh(ir::Mesh& mesh) {
  if (!expect(TokenKind::Less, "<") || !expect(TokenKind::LSquare, "["))
    return false;
  std::optional<int64_t> devices = 1;
  if (!m_tok.is(TokenKind::RSquare)) {
    do {
      ir::MeshAxis axis;
      if (!parseString(axis.name) || !expect(TokenKind::Equal, "=") || !parseInteger(axis.size))
        return emitError("failed to parse Sdy_Mesh parameter 'axes' which is to be a "
                         "`::llvm::ArrayRef<MeshAxisAttr>`");
      if (axis.size < 1) {
        emitError("axis size must be at least 1, got: " + std::to_string(axis.size));
        return emitError("failed to parse Sdy_Mesh parameter 'axes' which is to be a "
                         "`::llvm::ArrayRef<MeshAxisAttr>`");
      }
      // Every consumer multiplies the axis sizes: their product must be a device count.
      devices = support::checkedMul(*devices, axis.size);
      if (!devices) {
        emitError("mesh has more devices than fit in 64 bits (product of the axis sizes)");
        return emitError("failed to parse Sdy_Mesh parameter 'axes' which is to be a "
                         "`::llvm::ArrayRef<MeshAxisAttr>`");
      }
      mesh.axes.push_back(std::move(axis));
    } while (consumeIf(TokenKind::Comma));
  }
  if (!expect(TokenKind::RSquare, "]"))
    return false;
  if (consumeIf(TokenKind::Comma)) {
    if (!parseKeywordEqual("device_ids") || !parseIntegerList(mesh.deviceIds))
      return false;
  }
  return expect(TokenKind::Greater, ">");
}

bool Parser::parseAxisRef(ir::AxisRef& axis) {
  if (!m_tok.is(TokenKind::String)) {
    emitError("expected string");
    return emitError("failed to parse Sdy_AxisRef parameter 'name' which is to be a "
                     "`::llvm::StringRef`");
  }
  parseString(axis.name);
  if (consumeIf(TokenKind::Colon)) {
    ir::SubAxisInfo sub;
    if (!expect(TokenKind::LParen, "(") || !parseInteger(sub.preSize) ||
        !expect(TokenKind::RParen, ")") || !parseInteger(sub.size))
      return emitError("failed to parse Sdy_AxisRef parameter 'sub_axis_info'");
    axis.subAxis = sub;
  }
  return true;
}

bool Parser::parseAxisRefList(std::vector<ir::AxisRef>& axes) {
  if (!expect(TokenKind::LBrace, "{"))
    return false;
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    ir::AxisRef axis;
    if (!parseAxisRef(axis))
      return emitError(kAxisListContext);
    axes.push_back(std::move(axis));
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RBrace, "}");
}

bool Parser::parseDimSharding(ir::DimensionSharding& dim) {
  if (!expect(TokenKind::LBrace, "{"))
    return false;
  dim.isClosed = true;
  if (!m_tok.is(TokenKind::RBrace)) {
    do {
      if (consumeIf(TokenKind::Question)) {
        dim.isClosed = false;
        break;
      }
      ir::AxisRef axis;
      if (!parseAxisRef(axis))
        return false;
      dim.axes.push_back(std::move(axis));
    } while (consumeIf(TokenKind::Comma));
  }
  if (!expect(TokenKind::RBrace, "}"))
    return false;
  // A priority is glued to the closing brace: `{"x"}p1`.
  if (m_tok.is(TokenKind::BareIdentifier) && m_tok.spelling.starts_with('p')) {
    std::string_view text = m_tok.spelling;
    std::string_view digits = text.substr(1);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit))
      return emitError("expecting priority in format 'p<number>', got: " + std::string(text));
    if (digits.size() > 1 && digits[0] == '0')
      return emitError("priorities with leading zeros are not allowed, got: " + std::string(text));
    int64_t priority = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), priority);
    if (r.ec != std::errc())
      return emitError("expecting integer priority, got: " + std::string(text));
    dim.priority = priority;
    consume();
  }
  return true;
}

bool Parser::parseTensorSharding(ir::TensorSharding& s) {
  if (!expect(TokenKind::Less, "<"))
    return false;
  if (m_tok.is(TokenKind::AtIdentifier)) {
    parseSymbolName(s.meshName);
  } else if (m_tok.isKeyword("mesh") || m_tok.is(TokenKind::HashIdentifier)) {
    bool isHash = m_tok.is(TokenKind::HashIdentifier);
    if (isHash && m_tok.spelling != "#sdy.mesh")
      return emitError("expected mesh symbol or inline mesh");
    consume();
    auto mesh = std::make_shared<ir::Mesh>();
    if (!parseMesh(*mesh))
      return false;
    s.inlineMesh = std::move(mesh);
  } else {
    return emitError("expected mesh symbol or inline mesh");
  }
  if (!expect(TokenKind::Comma, ",") || !expect(TokenKind::LSquare, "["))
    return false;
  if (!m_tok.is(TokenKind::RSquare)) {
    do {
      ir::DimensionSharding dim;
      if (!parseDimSharding(dim))
        return emitError(kDimShardingsContext);
      s.dims.push_back(std::move(dim));
    } while (consumeIf(TokenKind::Comma));
  }
  if (!expect(TokenKind::RSquare, "]"))
    return emitError(kDimShardingsContext);
  bool seenReplicated = false, seenUnreduced = false;
  while (consumeIf(TokenKind::Comma)) {
    if (m_tok.isKeyword("replicated") && !seenReplicated && !seenUnreduced) {
      consume();
      seenReplicated = true;
      if (!expect(TokenKind::Equal, "=") || !parseAxisRefList(s.replicatedAxes))
        return emitError("failed to parse Sdy_TensorSharding parameter 'replicated_axes'");
    } else if (m_tok.isKeyword("unreduced") && !seenUnreduced) {
      consume();
      seenUnreduced = true;
      if (!expect(TokenKind::Equal, "="))
        return emitError("failed to parse Sdy_TensorSharding parameter 'unreduced_axes'");
      if (m_tok.is(TokenKind::BareIdentifier)) {
        s.unreducedKind = std::string(m_tok.spelling);
        consume();
      }
      if (!parseAxisRefList(s.unreducedAxes))
        return emitError("failed to parse Sdy_TensorSharding parameter 'unreduced_axes'");
    } else if (m_tok.isKeyword("replicated") && seenUnreduced && !seenReplicated) {
      // Shardy accepts `unreduced=..., replicated=...` and prints the canonical order.
      consume();
      seenReplicated = true;
      if (!expect(TokenKind::Equal, "=") || !parseAxisRefList(s.replicatedAxes))
        return emitError("failed to parse Sdy_TensorSharding parameter 'replicated_axes'");
    } else {
      return emitError("failed to parse Sdy_TensorSharding, expected valid named axis list after "
                       "comma");
    }
  }
  if (m_tok.isKeyword("replicated") || m_tok.isKeyword("unreduced")) {
    consume();
    emitError("expected '='");
    return emitError("failed to parse Sdy_TensorSharding parameter 'replicated_axes'");
  }
  return expect(TokenKind::Greater, ">");
}

bool Parser::parseShardingPerValue(std::vector<ir::TensorSharding>& shardings) {
  if (!expect(TokenKind::Less, "<") || !expect(TokenKind::LSquare, "["))
    return false;
  if (!m_tok.is(TokenKind::RSquare)) {
    do {
      ir::TensorSharding s;
      // Each element may be written `<...>` or `#sdy.sharding<...>`.
      if (m_tok.is(TokenKind::HashIdentifier) && m_tok.spelling == "#sdy.sharding")
        consume();
      if (!parseTensorSharding(s))
        return emitError(kPerValueContext);
      shardings.push_back(std::move(s));
    } while (consumeIf(TokenKind::Comma));
  }
  return expect(TokenKind::RSquare, "]") && expect(TokenKind::Greater, ">");
}

// ---------------------------------------------------------------------------------------------
// Op sharding rules

namespace {

// Splits a factor-symbol word such as `ij` or `z_1z_2` into factor indices. Returns an error text
// (empty on success) in Shardy's words.
std::string splitFactorSymbols(std::string_view word, std::vector<int64_t>& factors,
                               std::string& overflowError) {
  size_t i = 0;
  while (i < word.size()) {
    char c = word[i];
    if (c < 'i' || c > 'z')
      return "expecting symbol from 'i' to 'z'. Received: '" + std::string(1, c) + "'";
    if (c != 'z' || i + 1 >= word.size() || word[i + 1] != '_') {
      factors.push_back(c - 'i');
      ++i;
      continue;
    }
    size_t digitsBegin = i + 2;
    size_t end = digitsBegin;
    while (end < word.size() && std::isdigit(static_cast<unsigned char>(word[end])))
      ++end;
    std::string_view digits = word.substr(digitsBegin, end - digitsBegin);
    if (digits.empty())
      return "expecting integer after 'z_'. Received: '" + std::string(word.substr(i)) + "'";
    if (digits[0] == '0')
      return "expecting positive integer without leading zeros. Received: '" +
             std::string(digits) + "'";
    int64_t n = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (r.ec != std::errc()) {
      overflowError = "expecting symbol index <=2^63-1. Received: '" + std::string(digits) + "'";
      n = INT64_MAX - 17;
    }
    factors.push_back(n > INT64_MAX - 17 ? INT64_MAX : 17 + n);
    i = end;
  }
  return {};
}

} // namespace

bool Parser::parseTensorMappings(std::vector<ir::TensorMapping>& mappings,
                                 std::unordered_map<std::string, int64_t>& symbols,
                                 const char* what) {
  std::string context = std::string("failed to parse Sdy_OpShardingRule parameter '") + what + "'";
  if (!expect(TokenKind::LParen, "("))
    return emitError(context);
  do {
    if (!expect(TokenKind::LSquare, "["))
      return emitError(context);
    ir::TensorMapping mapping;
    if (!m_tok.is(TokenKind::RSquare)) {
      do {
        if (m_tok.is(TokenKind::RSquare) && !mapping.dims.empty()) {
          // `[i,]`: an empty dim mapping, which the verifier rejects with Shardy's message.
          mapping.dims.emplace_back();
          break;
        }
        if (!m_tok.is(TokenKind::BareIdentifier)) {
          emitError("expected factor symbol");
          emitError("failed to parse Sdy_TensorMapping parameter 'dim_mappings'");
          return emitError(context);
        }
        std::vector<int64_t> factors;
        std::string overflow;
        std::string error = splitFactorSymbols(m_tok.spelling, factors, overflow);
        if (!error.empty()) {
          emitError(error);
          emitError("failed to parse Sdy_TensorMapping parameter 'dim_mappings'");
          return emitError(context);
        }
        if (!overflow.empty()) {
          // Shardy reports the overflow and keeps going; the factor order check then fails too.
          // Each distinct overflow is reported once per rule, as Shardy's symbol table does.
          if (!m_deferredError)
            m_sink.report({support::Severity::Error, overflow, loc(), {}});
          m_deferredError = true;
        }
        consume();
        mapping.dims.push_back(std::move(factors));
      } while (consumeIf(TokenKind::Comma));
    }
    if (!expect(TokenKind::RSquare, "]"))
      return emitError(context);
    mappings.push_back(std::move(mapping));
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RParen, ")"))
    return emitError(context);
  (void)symbols;
  return true;
}

bool Parser::parseFactorSet(std::vector<int64_t>& factors,
                            const std::unordered_map<std::string, int64_t>& symbols) {
  if (!expect(TokenKind::Equal, "=") || !expect(TokenKind::LBrace, "{"))
    return false;
  if (consumeIf(TokenKind::RBrace))
    return true;
  do {
    if (!m_tok.is(TokenKind::BareIdentifier))
      return emitError("expected factor symbol");
    std::vector<int64_t> parsed;
    std::string overflow;
    std::string error = splitFactorSymbols(m_tok.spelling, parsed, overflow);
    if (!error.empty() || parsed.size() != 1)
      return emitError(error.empty() ? "expected a single factor symbol" : error);
    consume();
    factors.push_back(parsed[0]);
  } while (consumeIf(TokenKind::Comma));
  (void)symbols;
  return expect(TokenKind::RBrace, "}");
}

bool Parser::parseShardingRule(ir::OpShardingRule& rule) {
  std::unordered_map<std::string, int64_t> symbols;
  if (!expect(TokenKind::Less, "<") ||
      !parseTensorMappings(rule.operands, symbols, "operand_mappings") ||
      !expect(TokenKind::Arrow, "->") ||
      !parseTensorMappings(rule.results, symbols, "result_mappings"))
    return false;
  if (consumeIf(TokenKind::LBrace)) {
    int64_t expectedIndex = 0;
    do {
      if (!m_tok.is(TokenKind::BareIdentifier))
        return emitError("expected factor symbol");
      std::vector<int64_t> parsed;
      std::string overflow;
      std::string error = splitFactorSymbols(m_tok.spelling, parsed, overflow);
      std::string received(m_tok.spelling);
      if (!error.empty() || parsed.size() != 1 || parsed[0] != expectedIndex)
        return emitError(
            "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. {i=#, j=#, "
            "...}). Expecting factor index symbol '" +
            ir::factorSymbol(expectedIndex) + "', received: '" + received + "'");
      consume();
      int64_t size;
      if (!expect(TokenKind::Equal, "=") || !parseInteger(size))
        return false;
      rule.factorSizes.push_back(size);
      ++expectedIndex;
    } while (consumeIf(TokenKind::Comma));
    if (!expect(TokenKind::RBrace, "}"))
      return false;
  }
  if (consumeKeywordIf("reduction") && !parseFactorSet(rule.reductionFactors, symbols))
    return false;
  if (consumeKeywordIf("need_replication") && !parseFactorSet(rule.needReplicationFactors, symbols))
    return false;
  if (consumeKeywordIf("permutation") && !parseFactorSet(rule.permutationFactors, symbols))
    return false;
  if (consumeKeywordIf("blocked_propagation") &&
      !parseFactorSet(rule.blockedPropagationFactors, symbols))
    return false;
  if (consumeIf(TokenKind::Comma)) {
    if (!expectKeyword("custom"))
      return false;
    rule.isCustom = true;
  }
  if (!expect(TokenKind::Greater, ">"))
    return false;
  return true;
}

} // namespace shardscope::io::mlir::detail
