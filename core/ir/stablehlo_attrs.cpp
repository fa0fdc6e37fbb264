#include "core/ir/stablehlo_attrs.h"

#include "core/ir/attribute.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace shardscope::ir::stablehlo {

namespace {

using Fields = std::map<std::string, std::vector<int64_t>, std::less<>>;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

std::optional<int64_t> parseInt(std::string_view s) {
  s = trim(s);
  int64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    return std::nullopt;
  return v;
}

// Splits `s` at the commas that are not nested in brackets.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[' || c == '<' || c == '(')
      ++depth;
    else if (c == ']' || c == '>' || c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (std::string_view last = trim(s.substr(start)); !last.empty())
    parts.push_back(last);
  return parts;
}

// `[1, 2, 3]` or `7`.
std::optional<std::vector<int64_t>> parseIntValue(std::string_view value) {
  value = trim(value);
  if (!value.starts_with('[')) {
    std::optional<int64_t> scalar = parseInt(value);
    return scalar ? std::optional(std::vector<int64_t>{*scalar}) : std::nullopt;
  }
  if (!value.ends_with(']'))
    return std::nullopt;
  std::vector<int64_t> out;
  for (std::string_view item : splitTopLevel(value.substr(1, value.size() - 2))) {
    std::optional<int64_t> v = parseInt(item);
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

// The body between `<` and the final `>` of `#<dialect>.<mnemonic><...>`.
std::optional<std::string_view> structBody(std::string_view text, std::string_view mnemonic,
                                           std::string_view dialect = "stablehlo") {
  text = trim(text);
  std::string prefix = "#" + std::string(dialect) + "." + std::string(mnemonic) + "<";
  if (!text.starts_with(prefix) || !text.ends_with('>'))
    return std::nullopt;
  return trim(text.substr(prefix.size(), text.size() - prefix.size() - 1));
}

const std::string* opaqueText(const ir::Operation& op, std::string_view name) {
  const auto* opaque = op.attr(name).as<ir::OpaqueAttr>();
  return opaque ? &opaque->text : nullptr;
}

std::vector<int64_t> field(const Fields& fields, std::string_view name) {
  auto it = fields.find(name);
  return it == fields.end() ? std::vector<int64_t>{} : it->second;
}

int64_t scalarField(const Fields& fields, std::string_view name) {
  std::vector<int64_t> v = field(fields, name);
  return v.empty() ? 0 : v.front();
}

// One `[b, 0, 1, f]` list: the positions of the two letter dims and of each spatial dim.
bool parseConvList(std::string_view list, char first, char second, int64_t& firstDim,
                   int64_t& secondDim, std::vector<int64_t>& spatial) {
  list = trim(list);
  if (!list.starts_with('[') || !list.ends_with(']'))
    return false;
  std::vector<std::string_view> items = splitTopLevel(list.substr(1, list.size() - 2));
  spatial.assign(items.size() >= 2 ? items.size() - 2 : 0, -1);
  for (size_t pos = 0; pos < items.size(); ++pos) {
    std::string_view item = items[pos];
    if (item.size() == 1 && item[0] == first) {
      firstDim = static_cast<int64_t>(pos);
    } else if (item.size() == 1 && item[0] == second) {
      secondDim = static_cast<int64_t>(pos);
    } else {
      std::optional<int64_t> index = parseInt(item);
      if (!index || *index < 0 || *index >= static_cast<int64_t>(spatial.size()))
        return false;
      spatial[*index] = static_cast<int64_t>(pos);
    }
  }
  return true;
}

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
std::optional<ConvDimensionNumbers> parseConvPretty(std::string_view body) {
  size_t x = body.find("]x[");
  size_t arrow = body.find("->");
  if (x == std::string_view::npos || arrow == std::string_view::npos || arrow < x)
    return std::nullopt;
  ConvDimensionNumbers d;
  if (!parseConvList(body.substr(0, x + 1), 'b', 'f', d.inputBatch, d.inputFeature,
                     d.inputSpatial) ||
      !parseConvList(body.substr(x + 2, arrow - x - 2), 'i', 'o', d.kernelInputFeature,
                     d.kernelOutputFeature, d.kernelSpatial) ||
      !parseConvList(body.substr(arrow + 2), 'b', 'f', d.outputBatch, d.outputFeature,
                     d.outputSpatial))
    return std::nullopt;
  return d;
}

// `raw input_batch_dimension = 0, input_feature_dimension = 3, ...`.
std::optional<ConvDimensionNumbers> parseConvRaw(std::string_view text) {
  std::string rewritten = "#stablehlo.conv<" + std::string(text) + ">";
  auto fields = parseStablehloStruct(rewritten, "conv");
  if (!fields)
    return std::nullopt;
  ConvDimensionNumbers d;
  d.inputBatch = scalarField(*fields, "input_batch_dimension");
  d.inputFeature = scalarField(*fields, "input_feature_dimension");
  d.inputSpatial = field(*fields, "input_spatial_dimensions");
  d.kernelInputFeature = scalarField(*fields, "kernel_input_feature_dimension");
  d.kernelOutputFeature = scalarField(*fields, "kernel_output_feature_dimension");
  d.kernelSpatial = field(*fields, "kernel_spatial_dimensions");
  d.outputBatch = scalarField(*fields, "output_batch_dimension");
  d.outputFeature = scalarField(*fields, "output_feature_dimension");
  d.outputSpatial = field(*fields, "output_spatial_dimensions");
  return d;
}

} // namespace

std::span<const int64_t> shapeOf(const ir::Value* value) {
  if (!value || !value->type().isTensor())
    return {};
  return value->type().shape();
}

int64_t rankOf(const ir::Value* value) { return static_cast<int64_t>(shapeOf(value).size()); }

std::optional<int64_t> intAttr(const ir::Operation& op, std::string_view name) {
  if (const auto* i = op.attr(name).as<ir::IntegerAttr>())
    return i->value;
  return std::nullopt;
}

std::optional<bool> boolAttr(const ir::Operation& op, std::string_view name) {
  if (const auto* b = op.attr(name).as<ir::BoolAttr>())
    return b->value;
  return std::nullopt;
}

std::string stringAttr(const ir::Operation& op, std::string_view name) {
  const auto* s = op.attr(name).as<ir::StringAttr>();
  return s ? s->value : std::string();
}

std::optional<std::vector<int64_t>> intListAttr(const ir::Operation& op, std::string_view name) {
  ir::Attribute attr = op.attr(name);
  if (const auto* dense = attr.as<ir::DenseArrayAttr>())
    return dense->ints;
  if (const auto* elements = attr.as<ir::DenseElementsAttr>()) {
    std::vector<int64_t> out;
    for (int64_t i = 0; i < elements->numElements(); ++i)
      out.push_back(elements->intAt(i));
    return out;
  }
  if (const auto* array = attr.as<ir::ArrayAttr>()) {
    std::vector<int64_t> out;
    for (const ir::Attribute& element : array->elements) {
      const auto* i = element.as<ir::IntegerAttr>();
      if (!i)
        return std::nullopt;
      out.push_back(i->value);
    }
    return out;
  }
  return std::nullopt;
}

std::string enumCase(const ir::Operation& op, std::string_view name) {
  const std::string* text = opaqueText(op, name);
  if (!text || !text->ends_with('>'))
    return {};
  std::string_view body = std::string_view(*text).substr(0, text->size() - 1);
  size_t space = body.find_last_of(' ');
  return space == std::string_view::npos ? std::string() : std::string(body.substr(space + 1));
}

// The `key = value` fields of the struct-like attribute body `body`.
std::optional<Fields> parseStructFields(std::optional<std::string_view> body) {
  if (!body)
    return std::nullopt;
  Fields fields;
  for (std::string_view entry : splitTopLevel(*body)) {
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos)
      return std::nullopt;
    std::optional<std::vector<int64_t>> value = parseIntValue(entry.substr(eq + 1));
    if (!value)
      return std::nullopt;
    fields[std::string(trim(entry.substr(0, eq)))] = std::move(*value);
  }
  return fields;
}

std::optional<Fields> parseStablehloStruct(std::string_view text, std::string_view mnemonic) {
  return parseStructFields(structBody(text, mnemonic));
}

std::optional<RaggedDotDimensionNumbers> raggedDotDimensionNumbers(const ir::Operation& op) {
  static constexpr std::string_view kKnown[] = {
      "lhs_batching_dimensions",    "rhs_batching_dimensions", "lhs_contracting_dimensions",
      "rhs_contracting_dimensions", "lhs_ragged_dimensions",   "rhs_group_dimensions"};
  const std::string* text = opaqueText(op, "ragged_dot_dimension_numbers");
  auto fields = text ? parseStructFields(structBody(*text, "ragged_dot", "chlo")) : std::nullopt;
  if (!fields)
    return std::nullopt;
  for (const auto& [name, values] : *fields)
    if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown))
      return std::nullopt;
  RaggedDotDimensionNumbers d;
  d.dot = {field(*fields, "lhs_batching_dimensions"), field(*fields, "rhs_batching_dimensions"),
           field(*fields, "lhs_contracting_dimensions"),
           field(*fields, "rhs_contracting_dimensions")};
  d.lhsRagged = field(*fields, "lhs_ragged_dimensions");
  d.rhsGroup = field(*fields, "rhs_group_dimensions");
  return d;
}

std::optional<DotDimensionNumbers> dotDimensionNumbers(const ir::Operation& op) {
  const std::string* text = opaqueText(op, "dot_dimension_numbers");
  auto fields = text ? parseStablehloStruct(*text, "dot") : std::nullopt;
  if (!fields)
    return std::nullopt;
  return DotDimensionNumbers{field(*fields, "lhs_batching_dimensions"),
                             field(*fields, "rhs_batching_dimensions"),
                             field(*fields, "lhs_contracting_dimensions"),
                             field(*fields, "rhs_contracting_dimensions")};
}

std::optional<GatherScatterDimensionNumbers> gatherDimensionNumbers(const ir::Operation& op) {
  const std::string* text = opaqueText(op, "dimension_numbers");
  auto fields = text ? parseStablehloStruct(*text, "gather") : std::nullopt;
  if (!fields)
    return std::nullopt;
  return GatherScatterDimensionNumbers{field(*fields, "offset_dims"),
                                       field(*fields, "collapsed_slice_dims"),
                                       field(*fields, "operand_batching_dims"),
                                       field(*fields, "start_indices_batching_dims"),
                                       field(*fields, "start_index_map"),
                                       scalarField(*fields, "index_vector_dim")};
}

std::optional<GatherScatterDimensionNumbers> scatterDimensionNumbers(const ir::Operation& op) {
  const std::string* text = opaqueText(op, "scatter_dimension_numbers");
  auto fields = text ? parseStablehloStruct(*text, "scatter") : std::nullopt;
  if (!fields)
    return std::nullopt;
  return GatherScatterDimensionNumbers{field(*fields, "update_window_dims"),
                                       field(*fields, "inserted_window_dims"),
                                       field(*fields, "input_batching_dims"),
                                       field(*fields, "scatter_indices_batching_dims"),
                                       field(*fields, "scatter_dims_to_operand_dims"),
                                       scalarField(*fields, "index_vector_dim")};
}

std::optional<ConvDimensionNumbers> convDimensionNumbers(const ir::Operation& op) {
  const std::string* text = opaqueText(op, "dimension_numbers");
  std::optional<std::string_view> body = text ? structBody(*text, "conv") : std::nullopt;
  if (!body)
    return std::nullopt;
  if (body->starts_with("raw"))
    return parseConvRaw(body->substr(3));
  return parseConvPretty(*body);
}

} // namespace shardscope::ir::stablehlo
