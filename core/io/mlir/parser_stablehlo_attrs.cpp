// The StableHLO attributes whose syntax and invariants MLIR checks while it parses them: the
// dimension-number structs of dot_general, gather and scatter, `#stablehlo.dot_algorithm` and
// `#stablehlo.result_accuracy`. They are kept as verbatim text (as every dialect attribute the
// engine reads through `core/ir/stablehlo_attrs.h`), but a malformed one is a located parse error
// with StableHLO's message, as `stablehlo-opt` reports it, rather than a text the later stages
// misread.

#include "core/io/mlir/detail/parser.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace shardscope::io::mlir::detail {

namespace {

struct StructFields {
  std::string_view mnemonic;
  std::string_view what; ///< for "failed parsing <what> attribute"
  std::vector<std::string_view> keys;
  std::string_view scalarKey; ///< the one field that is an integer, not a list (or empty)
};

const StructFields* dimensionNumbers(std::string_view name) {
  static const std::array<StructFields, 3> kStructs = {{
      {"#stablehlo.dot",
       "dot dimension numbers",
       {"lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions",
        "rhs_contracting_dimensions"},
       {}},
      {"#stablehlo.gather",
       "gather dimension numbers",
       {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
        "start_indices_batching_dims", "start_index_map", "index_vector_dim"},
       "index_vector_dim"},
      {"#stablehlo.scatter",
       "scatter dimension numbers",
       {"update_window_dims", "inserted_window_dims", "input_batching_dims",
        "scatter_indices_batching_dims", "scatter_dims_to_operand_dims", "index_vector_dim"},
       "index_vector_dim"},
  }};
  for (const StructFields& s : kStructs)
    if (s.mnemonic == name)
      return &s;
  return nullptr;
}

// The combinations StableHLO's `isKnownDotAlgorithm` knows some hardware to support
// (dot_general_i8..i10): {lhs, rhs, accumulation, primitive operations}, one component each.
bool isKnownDotAlgorithm(std::string_view lhs, std::string_view rhs, std::string_view accum,
                         int64_t lhsComponents, int64_t rhsComponents, int64_t primitiveOps,
                         bool imprecise) {
  if (lhsComponents != 1 || rhsComponents != 1)
    return false;
  auto isF8 = [](std::string_view t) {
    return t == "f8E3M4" || t == "f8E4M3" || t == "f8E4M3FN" || t == "f8E5M2" ||
           t == "f8E4M3FNUZ" || t == "f8E4M3B11FNUZ" || t == "f8E5M2FNUZ";
  };
  if (isF8(lhs) && isF8(rhs) && accum == "f32" && primitiveOps == 1)
    return true;
  if (imprecise)
    return false;
  struct Known {
    std::string_view lhs, rhs, accum;
    int64_t ops;
  };
  static constexpr std::array<Known, 11> kKnown = {{
      {"f16", "f16", "f16", 1},
      {"f16", "f16", "f32", 1},
      {"bf16", "bf16", "bf16", 1},
      {"bf16", "bf16", "f32", 1},
      {"bf16", "bf16", "f32", 3},
      {"bf16", "bf16", "f32", 6},
      {"bf16", "bf16", "f32", 9},
      {"tf32", "tf32", "f32", 1},
      {"tf32", "tf32", "f32", 3},
      {"f32", "f32", "f32", 1},
      {"f64", "f64", "f64", 1},
  }};
  for (const Known& k : kKnown)
    if (k.lhs == lhs && k.rhs == rhs && k.accum == accum && k.ops == primitiveOps)
      return true;
  return false;
}

} // namespace

support::SourceLocation Parser::wrongTokenLoc(const Token& previous) const {
  // As MLIR: when the unexpected token starts another line, the error goes at the end of the
  // token before it, where the missing one belongs.
  if (previous.spelling.empty() || m_tok.line == previous.line)
    return loc();
  Token end = previous;
  end.column += static_cast<uint32_t>(previous.spelling.size());
  return locOf(end);
}

bool Parser::checkDimensionNumbers(const std::string& name) {
  const StructFields* fields = dimensionNumbers(name);
  if (!fields || !m_tok.is(TokenKind::Less))
    return true;
  const Token less = m_tok;
  const size_t offset = static_cast<size_t>(less.spelling.data() - m_lexer.buffer().data());
  auto fail = [&] {
    emitError("failed parsing " + std::string(fields->what) + " attribute");
    return false;
  };
  consume();
  std::set<std::string_view> seen;
  Token previous = less;
  auto take = [&] {
    previous = m_tok;
    consume();
  };
  while (!m_tok.is(TokenKind::Greater)) {
    std::string_view key;
    if (m_tok.is(TokenKind::BareIdentifier))
      for (std::string_view k : fields->keys)
        if (m_tok.spelling == k)
          key = k;
    if (key.empty()) {
      std::string message = "expected one of: ";
      for (size_t i = 0; i < fields->keys.size(); ++i)
        message += (i ? ", `" : "`") + std::string(fields->keys[i]) + "`";
      emitError(message);
      return fail();
    }
    take();
    if (!seen.insert(key).second) {
      emitError("duplicated `" + std::string(key) + "` entry");
      return fail();
    }
    if (!m_tok.is(TokenKind::Equal)) {
      emitError(wrongTokenLoc(previous), "expected '='");
      return fail();
    }
    take();
    if (key == fields->scalarKey) {
      int64_t value = 0;
      const Token integer = m_tok;
      if (!parseInteger(value))
        return fail();
      previous = integer;
    } else {
      if (!m_tok.is(TokenKind::LSquare)) {
        emitError(wrongTokenLoc(previous), "expected '['");
        return fail();
      }
      while (!m_tok.is(TokenKind::RSquare) && !m_tok.is(TokenKind::Eof))
        take();
      if (!m_tok.is(TokenKind::RSquare)) {
        emitError("expected ']'");
        return fail();
      }
      take();
    }
    if (m_tok.is(TokenKind::Comma)) {
      take();
      continue;
    }
    if (!m_tok.is(TokenKind::Greater)) {
      emitError(wrongTokenLoc(previous), "expected '>'");
      return fail();
    }
  }
  // Back to the `<`: the caller keeps the attribute's text verbatim.
  m_lexer.reset(offset, less.line, less.column);
  consume();
  return true;
}

bool Parser::parseConvDimList(std::string_view allowed, std::string& text) {
  // StableHLO's parseConvolutionDimensions: each non-spatial letter once, spatial dimensions
  // 0..N-1 each once, with its messages.
  if (!expect(TokenKind::LSquare, "["))
    return false;
  std::string remaining(allowed);
  std::set<int64_t> spatial;
  int64_t maxSpatial = -1;
  text += "[";
  do {
    const support::SourceLocation at = loc();
    const std::string spelling =
        m_tok.is(TokenKind::Minus) ? "-" : std::string(m_tok.spelling);
    if (m_tok.is(TokenKind::Integer) || m_tok.is(TokenKind::Minus)) {
      int64_t dim = 0;
      if (!parseInteger(dim))
        return false;
      if (dim < 0)
        return emitError(at, "Unexpected dimension " + std::to_string(dim));
      if (!spatial.insert(dim).second)
        return emitError(at, "Duplicate entries for spatial dimension " + std::to_string(dim));
      maxSpatial = std::max(maxSpatial, dim);
      text += (text.back() == '[' ? "" : ", ") + std::to_string(dim);
    } else {
      if (!m_tok.is(TokenKind::BareIdentifier))
        return emitError("expected valid keyword");
      std::string keyword(m_tok.spelling);
      if (keyword.size() != 1 || remaining.empty())
        return emitError(at, "Unexpected keyword " + keyword);
      size_t found = remaining.find(keyword[0]);
      if (found == std::string::npos) {
        std::string expecting;
        for (char c : remaining)
          expecting += (expecting.empty() ? "" : ", ") + std::string(1, c);
        return emitError(at, "Unexpected dimension " + keyword + ", expecting " + expecting);
      }
      remaining.erase(found, 1);
      text += (text.back() == '[' ? "" : ", ") + keyword;
      consume();
    }
  } while (consumeIf(TokenKind::Comma));
  if (!remaining.empty()) {
    std::string missing;
    for (char c : remaining)
      missing += (missing.empty() ? "" : ", ") + std::string(1, c);
    return emitError("Expected dimensions " + missing + " not specified");
  }
  if (!expect(TokenKind::RSquare, "]"))
    return false;
  text += "]";
  std::string unspecified;
  int listed = 0;
  for (int64_t dim = 0; dim <= maxSpatial && listed < 10; ++dim)
    if (!spatial.contains(dim)) {
      unspecified += (unspecified.empty() ? "" : ", ") + std::to_string(dim);
      ++listed;
    }
  if (!unspecified.empty())
    return emitError("Expected spatial dimensions " + unspecified + " not specified");
  return true;
}

bool Parser::parseConvDimensionNumbers(std::string& text) {
  if (!parseConvDimList("bf", text) || !expectKeyword("x"))
    return false;
  text += "x";
  if (!parseConvDimList("io", text) || !expect(TokenKind::Arrow, "->"))
    return false;
  text += "->";
  return parseConvDimList("bf", text);
}

bool Parser::checkConvDimensionNumbers(const std::string& name) {
  if (name != "#stablehlo.conv" || !m_tok.is(TokenKind::Less))
    return true;
  const Token less = m_tok;
  const size_t offset = static_cast<size_t>(less.spelling.data() - m_lexer.buffer().data());
  consume();
  if (m_tok.isKeyword("raw")) {
    // The raw form lists the fields by name; the engine reads it when used.
  } else {
    std::string text;
    if (!parseConvDimensionNumbers(text) || !expect(TokenKind::Greater, ">"))
      return false;
  }
  m_lexer.reset(offset, less.line, less.column);
  consume();
  return true;
}

bool Parser::checkStablehloAttributeInvariants(const std::string& name, const Token& nameTok,
                                                std::string_view body) {
  // `key = value` pairs of a flat struct body (no nested `,` inside values we read).
  auto field = [&](std::string_view key) -> std::string_view {
    size_t at = 0;
    while ((at = body.find(key, at)) != std::string_view::npos) {
      bool start = at == 0 || body[at - 1] == '<' || body[at - 1] == ',' || body[at - 1] == ' ';
      size_t eq = body.find_first_not_of(' ', at + key.size());
      if (start && eq != std::string_view::npos && body[eq] == '=') {
        size_t begin = body.find_first_not_of(' ', eq + 1);
        size_t end = body.find_first_of(",>", begin);
        if (begin == std::string_view::npos)
          return {};
        std::string_view value = body.substr(begin, end == std::string_view::npos ? end : end - begin);
        while (!value.empty() && value.back() == ' ')
          value.remove_suffix(1);
        return value;
      }
      at += key.size();
    }
    return {};
  };
  auto number = [](std::string_view text, double& out) {
    if (text.empty())
      return false;
    std::string s(text);
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0';
  };
  auto integer = [&](std::string_view text, int64_t& out) {
    double value = 0;
    if (!number(text, value) || value != std::floor(value))
      return false;
    out = static_cast<int64_t>(value);
    return true;
  };
  const support::SourceLocation at = locOf(nameTok);
  if (name == "#stablehlo.result_accuracy") {
    double atol = 0, rtol = 0;
    int64_t ulps = 0;
    std::string_view mode = field("mode");
    if (!number(field("atol"), atol) || !number(field("rtol"), rtol) ||
        !integer(field("ulps"), ulps) || mode.empty())
      return true; // a form this check does not read: left to the verbatim text
    if (size_t lt = mode.find('<'); lt != std::string_view::npos)
      mode = mode.substr(lt + 1, mode.find('>', lt) - lt - 1);
    if (atol < 0 || rtol < 0 || ulps < 0 || std::signbit(atol) || std::signbit(rtol))
      return emitError(at, "Negative tolerance");
    if ((mode == "DEFAULT" || mode == "HIGHEST") && (atol != 0 || rtol != 0 || ulps != 0))
      return emitError(at, "Invalid tolerances for ResultAccuracyAttr with mode " +
                               std::string(mode) + ", must be all zero.");
    return true;
  }
  if (name == "#stablehlo.dot_algorithm") {
    int64_t lhsComponents = 0, rhsComponents = 0, primitiveOps = 0;
    std::string_view lhs = field("lhs_precision_type"), rhs = field("rhs_precision_type"),
                     accum = field("accumulation_type"), imprecise =
                                                             field("allow_imprecise_accumulation");
    if (!integer(field("lhs_component_count"), lhsComponents) ||
        !integer(field("rhs_component_count"), rhsComponents) ||
        !integer(field("num_primitive_operations"), primitiveOps) || lhs.empty() ||
        rhs.empty() || accum.empty())
      return true;
    // dot_general_c22..c24
    if (lhsComponents < 1)
      return emitError(at, "lhs component count must be positive");
    if (rhsComponents < 1)
      return emitError(at, "rhs component count must be positive");
    if (primitiveOps < 1)
      return emitError(at, "num primitive operations must be positive");
    bool impreciseAccumulation = imprecise == "true";
    if (!isKnownDotAlgorithm(lhs, rhs, accum, lhsComponents, rhsComponents, primitiveOps,
                             impreciseAccumulation))
      return emitError(at, "dot algorithm not known to be supported on any hardware: {lhs:'" +
                               std::string(lhs) + "', rhs:'" + std::string(rhs) + "', accum:'" +
                               std::string(accum) + "', lhs_components:" +
                               std::to_string(lhsComponents) + ", rhs_components:" +
                               std::to_string(rhsComponents) + ", primitive_ops:" +
                               std::to_string(primitiveOps) + ", imprecise:" +
                               (impreciseAccumulation ? "1" : "0") + "}");
    return true;
  }
  return true;
}

} // namespace shardscope::io::mlir::detail
