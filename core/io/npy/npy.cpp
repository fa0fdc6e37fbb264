#include "core/io/npy/npy.h"

#include "core/support/atomic_file.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

namespace shardscope::io::npy {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct DescrEntry {
  ir::ElementType element;
  std::string_view descr;
};

// '|' marks single-byte types (no byte order). bf16 has no NumPy type of its own; ml_dtypes'
// bfloat16 saves as the 2-byte void type, which is what we write and accept for bf16.
constexpr DescrEntry kDescrs[] = {
    {ir::ElementType::F64, "<f8"},  {ir::ElementType::F32, "<f4"},  {ir::ElementType::F16, "<f2"},
    {ir::ElementType::BF16, "<V2"}, {ir::ElementType::I1, "|b1"},   {ir::ElementType::I8, "|i1"},
    {ir::ElementType::I16, "<i2"},  {ir::ElementType::I32, "<i4"},  {ir::ElementType::I64, "<i8"},
    {ir::ElementType::UI8, "|u1"},  {ir::ElementType::UI16, "<u2"}, {ir::ElementType::UI32, "<u4"},
    {ir::ElementType::UI64, "<u8"},
    {ir::ElementType::Complex64, "<c8"}, {ir::ElementType::Complex128, "<c16"},
};

size_t storageBytes(ir::ElementType element) {
  // One byte per element below 8 bits (i1, i2, i4, the 6- and 4-bit floats), as in memory.
  return static_cast<size_t>(std::max(8, ir::elementBitWidth(element)) / 8);
}

std::optional<ir::ElementType> elementOf(std::string_view descr) {
  // NumPy writes '=' or '<' for little-endian multi-byte types on little-endian machines, and
  // '|' or '<' for single-byte ones; accept every spelling of the same type.
  if (descr.size() >= 2 && (descr[0] == '<' || descr[0] == '=' || descr[0] == '|')) {
    std::string_view body = descr.substr(1);
    for (const DescrEntry& entry : kDescrs)
      if (entry.descr.substr(1) == body)
        return entry.element;
  }
  return std::nullopt;
}

// A tiny reader for the one Python literal NumPy writes as header:
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderReader {
public:
  explicit HeaderReader(std::string_view text) : m_text(text) {}

  bool parse(std::string& descr, bool& fortran, std::vector<int64_t>& shape, std::string& error) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("header is not a dictionary", error);
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!readString(key))
        return fail("expected a quoted key in the header", error);
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after '" + key + "' in the header", error);
      skipSpace();
      if (key == "descr") {
        if (!readString(descr))
          return fail("'descr' must be a string (structured dtypes are not supported)", error);
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (consumeWord("True"))
          fortran = true;
        else if (consumeWord("False"))
          fortran = false;
        else
          return fail("'fortran_order' must be True or False", error);
        haveOrder = true;
      } else if (key == "shape") {
        if (!readShape(shape))
          return fail("'shape' must be a tuple of non-negative integers", error);
        haveShape = true;
      } else {
        return fail("unexpected key '" + key + "' in the header", error);
      }
      skipSpace();
      if (!consume(',')) {
        skipSpace();
        if (!consume('}'))
          return fail("expected ',' or '}' in the header", error);
        break;
      }
    }
    if (!haveDescr || !haveOrder || !haveShape)
      return fail("header lacks 'descr', 'fortran_order' or 'shape'", error);
    return true;
  }

private:
  static bool fail(const std::string& message, std::string& error) {
    error = message;
    return false;
  }
  void skipSpace() {
    while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n'))
      ++m_pos;
  }
  bool consume(char c) {
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  bool consumeWord(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word)
      return false;
    m_pos += word.size();
    return true;
  }
  bool readString(std::string& out) {
    if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"'))
      return false;
    char quote = m_text[m_pos++];
    size_t end = m_text.find(quote, m_pos);
    if (end == std::string_view::npos)
      return false;
    out.assign(m_text.substr(m_pos, end - m_pos));
    m_pos = end + 1;
    return true;
  }
  bool readShape(std::vector<int64_t>& shape) {
    if (!consume('('))
      return false;
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      int64_t value = 0;
      size_t digits = 0;
      while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
        if (value > (INT64_MAX - 9) / 10)
          return false;
        value = value * 10 + (m_text[m_pos++] - '0');
        ++digits;
      }
      if (digits == 0)
        return false;
      consume('L'); // Python 2 longs
      shape.push_back(value);
      skipSpace();
      if (!consume(',')) {
        skipSpace();
        return consume(')');
      }
    }
  }

  std::string_view m_text;
  size_t m_pos = 0;
};

// Reorders Fortran-order (column-major) data into row-major order.
std::vector<uint8_t> fromFortranOrder(std::span<const uint8_t> data,
                                      const std::vector<int64_t>& shape, size_t elementBytes) {
  std::vector<uint8_t> out(data.size());
  int64_t count = static_cast<int64_t>(data.size() / std::max<size_t>(elementBytes, 1));
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    // `linear` walks the row-major order; find its column-major offset.
    int64_t offset = 0, stride = 1;
    for (int64_t d = 0; d < rank; ++d) {
      offset += index[d] * stride;
      stride *= shape[d];
    }
    std::memcpy(out.data() + linear * elementBytes, data.data() + offset * elementBytes,
                elementBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

} // namespace

std::optional<std::string> descrOf(ir::ElementType element) {
  for (const DescrEntry& entry : kDescrs)
    if (entry.element == element)
      return std::string(entry.descr);
  return std::nullopt;
}

std::optional<Array> parse(std::span<const uint8_t> bytes, std::string& error) {
  if (bytes.size() < kMagicSize + 4 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0) {
    error = "not a .npy file (no \\x93NUMPY magic)";
    return std::nullopt;
  }
  uint8_t major = bytes[kMagicSize];
  size_t headerLength = 0, headerStart = 0;
  if (major == 1) {
    headerLength = bytes[8] | (bytes[9] << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      error = "file is truncated inside the header";
      return std::nullopt;
    }
    headerLength = static_cast<size_t>(bytes[8]) | (static_cast<size_t>(bytes[9]) << 8) |
                   (static_cast<size_t>(bytes[10]) << 16) | (static_cast<size_t>(bytes[11]) << 24);
    headerStart = 12;
  } else {
    error = "unsupported .npy format version " + std::to_string(major);
    return std::nullopt;
  }
  if (bytes.size() < headerStart + headerLength) {
    error = "file is truncated inside the header";
    return std::nullopt;
  }
  std::string_view header(reinterpret_cast<const char*>(bytes.data() + headerStart), headerLength);
  std::string descr;
  bool fortran = false;
  Array array;
  if (!HeaderReader(header).parse(descr, fortran, array.shape, error)) {
    error = "bad .npy header: " + error;
    return std::nullopt;
  }
  std::optional<ir::ElementType> element = elementOf(descr);
  if (!element) {
    error = "unsupported dtype '" + descr + "'";
    if (!descr.empty() && descr[0] == '>')
      error += " (big-endian)";
    return std::nullopt;
  }
  array.element = *element;
  size_t elementBytes = storageBytes(*element);
  // Guard the element count against overflow before trusting it for a size comparison.
  uint64_t count = 1;
  for (int64_t d : array.shape) {
    if (d != 0 && count > UINT64_MAX / static_cast<uint64_t>(d) / elementBytes) {
      error = "shape is too large";
      return std::nullopt;
    }
    count *= static_cast<uint64_t>(d);
  }
  uint64_t expected = count * elementBytes;
  uint64_t available = bytes.size() - headerStart - headerLength;
  if (available != expected) {
    error = (available < expected ? "file is truncated: header says " : "file has trailing bytes: "
                                                                        "header says ") +
            std::to_string(expected) + " bytes of data, found " + std::to_string(available);
    return std::nullopt;
  }
  std::span<const uint8_t> data = bytes.subspan(headerStart + headerLength);
  if (fortran && array.shape.size() > 1)
    array.data = fromFortranOrder(data, array.shape, elementBytes);
  else
    array.data.assign(data.begin(), data.end());
  return array;
}

std::optional<Array> read(const std::string& path, std::string& error) {
  // Opening a FIFO without a writer blocks, and a device may never end: only regular files (or
  // links to them) are read.
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    error = "'" + path + "' is not a regular file";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return std::nullopt;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::optional<Array> array = parse(bytes, error);
  if (!array)
    error = path + ": " + error;
  return array;
}

std::vector<uint8_t> serialize(const Array& array) {
  std::string header = "{'descr': '" + descrOf(array.element).value_or("|u1") +
                       "', 'fortran_order': False, 'shape': (";
  // Python's tuple spelling: (), (3,), (2, 3).
  for (size_t i = 0; i < array.shape.size(); ++i)
    header += (i ? ", " : "") + std::to_string(array.shape[i]);
  if (array.shape.size() == 1)
    header += ',';
  header += "), }";
  // Pad with spaces so the data starts on a 64-byte boundary, and end with a newline.
  size_t prefix = kMagicSize + 2 + 2;
  bool v2 = false;
  size_t total = prefix + header.size() + 1;
  if (total + (64 - total % 64) % 64 - prefix > 0xFFFF) {
    v2 = true;
    prefix += 2;
    total = prefix + header.size() + 1;
  }
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::vector<uint8_t> out;
  out.reserve(prefix + header.size() + array.data.size());
  out.insert(out.end(), kMagic, kMagic + kMagicSize);
  out.push_back(v2 ? 2 : 1);
  out.push_back(0);
  size_t length = header.size();
  out.push_back(static_cast<uint8_t>(length & 0xFF));
  out.push_back(static_cast<uint8_t>((length >> 8) & 0xFF));
  if (v2) {
    out.push_back(static_cast<uint8_t>((length >> 16) & 0xFF));
    out.push_back(static_cast<uint8_t>((length >> 24) & 0xFF));
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

bool write(const std::string& path, const Array& array, std::string& error) {
  if (!descrOf(array.element)) {
    error = "cannot write '" + path + "': element type " +
            std::string(ir::elementTypeName(array.element)) + " has no .npy dtype";
    return false;
  }
  std::vector<uint8_t> bytes = serialize(array);
  return support::writeFileAtomically(
      path, std::span<const char>(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
      error);
}

} // namespace shardscope::io::npy
