#pragma once

#include "core/io/mlir/lexer.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::io::mlir::detail {

/// A `%name` or `%name#3` operand that is resolved once its type is known.
struct UnresolvedOperand {
  std::string name;
  unsigned number = 0;
  support::SourceLocation loc;
};

/// A region entry-block argument written by a custom op format (`%arg1: tensor<4xf32>`).
struct BlockArgDef {
  UnresolvedOperand name;
  ir::Type type;
  ir::DebugLoc debugLoc = ir::kUnknownLoc; ///< a trailing `loc(...)`
};

/// Everything a custom op parser collects before the op is created.
struct OperationState {
  std::string name;
  support::SourceLocation loc;
  ir::DebugLoc debugLoc = ir::kUnknownLoc;
  std::vector<ir::Value*> operands;
  std::vector<ir::Type> resultTypes;
  std::vector<ir::NamedAttribute> attrs;
  std::vector<std::string> inherent;
  std::vector<std::unique_ptr<ir::Region>> regions;

  /// Adds attribute `name`; inherent attributes are the op's own parameters.
  void addAttr(std::string name, ir::Attribute value, bool isInherent = true);
  /// Returns the attribute added as `name`, or null.
  ir::Attribute attr(std::string_view name) const;
};

/// Counts one level of recursion for as long as it lives. Types, attributes and regions nest and
/// the parser recurses once per level, so hostile input could overflow the stack; real programs
/// nest a handful of levels, and deeper than `kMaxNesting` is an error.
class NestingGuard {
public:
  static constexpr int kMaxNesting = 256;
  explicit NestingGuard(int& depth) : m_depth(depth) { ++m_depth; }
  ~NestingGuard() { --m_depth; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool tooDeep() const { return m_depth > kMaxNesting; }

private:
  int& m_depth;
};

/// Recursive-descent parser for the MLIR text of StableHLO + Shardy programs. Op-specific syntax
/// lives in op formats (op_formats.cpp), which use the primitives below. Every error is reported to
/// the sink with its location; parsing stops at the first error, as MLIR's does.
class Parser {
public:
  Parser(std::string_view text, uint32_t fileId, support::DiagnosticSink& sink);

  /// Parses a whole buffer: an explicit `module { ... }` or top-level ops (an implicit module).
  std::unique_ptr<ir::Module> parseModule();

  // Tokens.
  const Token& tok() const { return m_tok; }
  support::SourceLocation loc() const { return locOf(m_tok); }
  support::SourceLocation locOf(const Token& t) const;
  void consume();
  bool consumeIf(TokenKind kind);
  bool consumeKeywordIf(std::string_view word);
  /// Consumes `kind` or reports "expected 'spelling'".
  bool expect(TokenKind kind, std::string_view spelling);
  bool expectKeyword(std::string_view word);
  /// Reports `message` at the current token and returns false.
  bool emitError(const std::string& message);
  bool emitError(support::SourceLocation at, const std::string& message);
  bool hadError() const { return m_hadError || m_deferredError; }
  /// Errors reported while a prefix is set start with it, as MLIR prefixes errors that a custom
  /// op's own parser emits (`custom op 'sdy.mesh' ...`).
  void setErrorPrefix(std::string prefix) { m_errorPrefix = std::move(prefix); }

  // Scalars.
  bool parseInteger(int64_t& value);
  bool parseOptionalInteger(int64_t& value, bool& present);
  bool parseBool(bool& value);
  bool parseString(std::string& value);
  bool parseSymbolName(std::string& value);
  /// `[1, 2, 3]` (possibly empty).
  bool parseIntegerList(std::vector<int64_t>& values);
  /// One `[b, 0, 1, f]` list of convolution dimension numbers whose non-spatial letters are
  /// `allowed` (each once, in that order in messages), appended to `text`; and the whole
  /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (parser_stablehlo_attrs.cpp).
  bool parseConvDimList(std::string_view allowed, std::string& text);
  bool parseConvDimensionNumbers(std::string& text);
  /// `key = ` with `key` a bare keyword.
  bool parseKeywordEqual(std::string_view key);

  // Values.
  bool parseOperand(UnresolvedOperand& operand);
  /// Zero or more comma separated operands (stops before a token that is not `%`).
  bool parseOperandList(std::vector<UnresolvedOperand>& operands);
  bool resolveOperand(const UnresolvedOperand& operand, ir::Type type, ir::Value*& out);
  bool resolveOperands(const std::vector<UnresolvedOperand>& operands,
                       const std::vector<ir::Type>& types, std::vector<ir::Value*>& out);

  // Types.
  bool parseType(ir::Type& type);
  bool parseTypeList(std::vector<ir::Type>& types); // one or more, comma separated
  /// `(a, b) -> c` or `(a) -> (b, c)`.
  bool parseFunctionType(std::vector<ir::Type>& inputs, std::vector<ir::Type>& results);
  /// `type` or `(type, type)` or `()`.
  bool parseResultTypes(std::vector<ir::Type>& types);

  // Attributes.
  bool parseAttribute(ir::Attribute& attr, ir::Type expected = {});
  /// An optional `{name = value, unitName}` dictionary.
  bool parseOptionalAttrDict(std::vector<ir::NamedAttribute>& attrs);
  bool parseAttrDictEntries(std::vector<ir::NamedAttribute>& attrs);
  /// Shardy pieces, without the `#sdy.xxx` prefix.
  bool parseTensorSharding(ir::TensorSharding& sharding);     // <@mesh, [...], ...>
  bool parseMesh(ir::Mesh& mesh);                             // <["x"=2], device_ids=[...]>
  bool parseAxisRefList(std::vector<ir::AxisRef>& axes);      // {"x", "y":(1)2}
  bool parseDimSharding(ir::DimensionSharding& dim);          // {"x", ?}p1
  bool parseShardingRule(ir::OpShardingRule& rule);           // <([i])->([i]) {i=4}>
  bool parseShardingPerValue(std::vector<ir::TensorSharding>& shardings); // <[<...>, ...]>

  // Regions.
  /// Parses `{ ... }`. `entryArgs` are arguments a custom format wrote before the region; when
  /// empty, a `^bb0(...)` label may define them. `isolated` regions cannot see outer values.
  bool parseRegion(ir::Region& region, const std::vector<BlockArgDef>& entryArgs, bool isolated);
  /// Parses `%name: type` lists in parentheses: `(%arg1: tensor<4xf32>, ...)`.
  bool parseArgumentList(std::vector<BlockArgDef>& args, bool allowAttrs,
                         std::vector<std::vector<ir::NamedAttribute>>* argAttrs);

  /// The module being built (for symbol lookups by op formats).
  ir::Module* module() { return m_module.get(); }

private:
  bool parseTopLevel(ir::Block& body);
  bool parseAliasDefinition();
  ir::Operation* parseOperation(ir::Block& block);
  bool parseGenericOperation(OperationState& state);
  bool parseCustomOperation(OperationState& state);
  /// Parses `loc(...)` (the current token is `loc`) into the module's location table; the
  /// location goes to `out` when given.
  bool parseTrailingLocation(ir::DebugLoc* out = nullptr);
  bool parseLocationBody(ir::DebugLoc& out);
  bool parseLocationAliasUse(ir::DebugLoc& out);
  bool parseLocationUInt(uint32_t& value);
  bool parseLocationAliasDefinition(const Token& name);
  bool checkLocationAliasesDefined();
  bool parseFileMetadata();
  bool parseResourceGroup(bool builtinBlobs);
  bool parseResourceBlobValue(const std::string& key, const Token& valueTok);
  bool parseDenseResource(ir::Attribute& attr);
  bool checkResourcesDefined();
  std::shared_ptr<ir::ResourceBlob> resourceBlob(const std::string& key);
  bool parseTensorType(ir::Type& type);
  /// A tensor type the IR keeps as text (`raw` is its `<...>`): a uniform quantized one is
  /// interned in one spelling and checked; any other is kept verbatim.
  bool opaqueTensorType(const Token& start, std::string_view raw, ir::Type& type);
  bool parseDenseElements(ir::Attribute& attr);
  /// A dense literal as written, before its type is known (parser_attributes.cpp).
  struct DenseLiteral;
  bool parseDenseElement(DenseLiteral& literal);
  bool parseDenseScalar(DenseLiteral& literal);
  /// Fills `storage` (its type set) from the hex string of a dense literal.
  bool denseFromHex(const std::string& hex, const Token& typeTok, ir::DenseElementsAttr& storage);
  /// Fills `storage` (its type set) from the scalars of a dense literal.
  bool denseFromScalars(const DenseLiteral& literal, const Token& typeTok,
                        ir::DenseElementsAttr& storage);
  bool parseDenseArray(ir::Attribute& attr);
  bool parseDialectAttribute(ir::Attribute& attr);
  bool parseDialectAttributeBody(const std::string& name, const Token& nameTok,
                                 ir::Attribute& attr);
  /// The syntax of StableHLO's dimension-number structs (`#stablehlo.dot<...>`, `gather`,
  /// `scatter`) with the parser at their `<`, which it is left at: known keys, each once, as
  /// StableHLO's struct parser reports them (parser_stablehlo_attrs.cpp).
  bool checkDimensionNumbers(const std::string& name);
  /// The same for `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`.
  bool checkConvDimensionNumbers(const std::string& name);
  /// The invariants StableHLO's attribute verifiers check when they parse `#stablehlo.
  /// dot_algorithm` and `#stablehlo.result_accuracy`, read from the attribute's normalised text.
  bool checkStablehloAttributeInvariants(const std::string& name, const Token& nameTok,
                                         std::string_view body);
  /// Where MLIR puts an "expected ..." error: at the current token, or at the end of `previous`
  /// when the current token starts another line.
  support::SourceLocation wrongTokenLoc(const Token& previous) const;
  /// Looks up a Shardy attribute whose exact text (`name` up to the closing `>`) was parsed before;
  /// on a miss, leaves the parser where it was and returns the text in `rawText` for caching.
  bool lookupParsedSdyAttribute(std::string_view name, ir::Attribute& attr,
                                std::string_view& rawText);
  bool parseAxisRef(ir::AxisRef& axis);
  bool parseTensorMappings(std::vector<ir::TensorMapping>& mappings,
                           std::unordered_map<std::string, int64_t>& symbols, const char* what);
  bool parseFactorSet(std::vector<int64_t>& factors,
                      const std::unordered_map<std::string, int64_t>& symbols);
  std::string opaqueText(std::string_view raw) const;

  struct Scope {
    std::unordered_map<std::string, std::vector<ir::Value*>> values;
    bool isolated = false;
  };
  void pushScope(bool isolated) { m_scopes.push_back(Scope{{}, isolated}); }
  void popScope() { m_scopes.pop_back(); }
  bool defineValues(const UnresolvedOperand& name, std::vector<ir::Value*> values);
  const std::vector<ir::Value*>* lookupValues(const std::string& name) const;

  Lexer m_lexer;
  Token m_tok;
  uint32_t m_fileId;
  support::DiagnosticSink& m_sink;
  bool m_hadError = false;
  bool m_deferredError = false;
  int m_typeDepth = 0;      ///< nesting of types being parsed (see NestingGuard)
  int m_regionDepth = 0;    ///< nesting of regions
  int m_attributeDepth = 0; ///< nesting of attributes and dense literals // an error was reported but parsing went on, as Shardy's does
  std::string m_errorPrefix;
  std::unique_ptr<ir::Module> m_module;
  std::vector<Scope> m_scopes;
  std::unordered_map<std::string, ir::Attribute> m_attrAliases;
  /// Shardy attributes already parsed, keyed by their text in the buffer.
  std::unordered_map<std::string_view, ir::Attribute> m_sdyAttrCache;
  std::unordered_map<std::string, ir::Type> m_typeAliases;
  /// Location aliases (`#loc3`, keyed by their spelling in the buffer) and the entries they name.
  std::unordered_map<std::string_view, ir::DebugLoc> m_locAliases;
  /// Location aliases used before their definition, with their first use.
  std::unordered_map<std::string_view, support::SourceLocation> m_pendingLocAliases;
  /// Resource blobs by key (filled by the `{-# dialect_resources #-}` section, which comes last)
  /// and the first `dense_resource<key>` use of each key.
  std::unordered_map<std::string, std::shared_ptr<ir::ResourceBlob>> m_resources;
  std::unordered_map<std::string, support::SourceLocation> m_resourceUses;
};

} // namespace shardscope::io::mlir::detail
