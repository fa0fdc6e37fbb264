#include "tests/fuzz/target_checks.h"

#include "core/session/serve/protocol.h"
#include "core/import/gspmd/hlo_sharding_parser.h"
#include "core/io/npy/npy.h"
#include "core/support/checked_math.h"

#include <algorithm>
#include <stdexcept>

namespace shardscope::fuzz {

std::string checkNpy(std::span<const uint8_t> bytes) {
  std::string error;
  std::optional<io::npy::Array> array = io::npy::parse(bytes, error);
  if (!array)
    return error.empty() ? "parse failed without a message" : "";
  std::optional<int64_t> elements = support::checkedProduct(array->shape);
  if (!elements)
    return "a parsed shape's element count overflows";
  if (*elements > 0 && array->data.size() % static_cast<size_t>(*elements) != 0)
    return "the data is not a whole number of elements";
  if (*elements == 0 && !array->data.empty())
    return "an empty shape with data";
  std::vector<uint8_t> again = io::npy::serialize(*array);
  std::optional<io::npy::Array> reparsed = io::npy::parse(again, error);
  if (!reparsed)
    return "a serialized array does not parse: " + error;
  if (reparsed->element != array->element || reparsed->shape != array->shape ||
      reparsed->data != array->data)
    return "a serialized array parses to another array";
  return "";
}

std::string checkServeProtocol(std::string_view bytes) {
  // The first byte picks the chunk size and the second the line limit, so the fuzzer explores
  // lines split across reads and lines over the limit.
  size_t chunk = bytes.empty() ? 1 : static_cast<uint8_t>(bytes[0]) % 64 + 1;
  int64_t limit = bytes.size() < 2 ? 64 : static_cast<uint8_t>(bytes[1]) * 4 + 1;
  std::string_view stream = bytes.substr(std::min<size_t>(bytes.size(), 2));
  size_t newlines = static_cast<size_t>(std::count(stream.begin(), stream.end(), '\n'));
  size_t expected = newlines + (!stream.empty() && stream.back() != '\n' ? 1 : 0);
  session::serve::LineFramer framer(limit);
  size_t lines = 0;
  std::string line;
  bool tooLong = false;
  auto drain = [&]() -> std::string {
    while (framer.next(line, tooLong)) {
      ++lines;
      if (!tooLong && static_cast<int64_t>(line.size()) > limit)
        return "a line over the limit was returned";
      nlohmann::json response = {{"id", nullptr}};
      try {
        nlohmann::json request = session::serve::parseRequest(line, framer.lineNumber(), tooLong, limit);
        response["id"] = request.contains("id") ? request["id"] : nlohmann::json(nullptr);
        response["ok"] = true;
      } catch (const std::runtime_error& e) {
        std::string prefix = session::serve::requestLoc(framer.lineNumber(), 0);
        prefix.pop_back(); // "<stdin>:N:"
        if (std::string_view(e.what()).substr(0, prefix.size()) != prefix)
          return std::string("an error is not located at its line: ") + e.what();
        response["ok"] = false;
        response["error"] = e.what();
      }
      std::string text = session::serve::responseLine(response);
      if (text.empty() || text.back() != '\n' ||
          std::count(text.begin(), text.end(), '\n') != 1)
        return "a response is not one line";
    }
    return "";
  };
  for (size_t at = 0; at < stream.size(); at += chunk) {
    framer.append(stream.substr(at, chunk));
    if (std::string problem = drain(); !problem.empty())
      return problem;
  }
  framer.finish();
  if (std::string problem = drain(); !problem.empty())
    return problem;
  if (!framer.atEnd())
    return "input left after the end";
  if (lines != expected)
    return "expected " + std::to_string(expected) + " lines, got " + std::to_string(lines);
  return "";
}

std::string checkGspmdSharding(std::string_view text) {
  import_::gspmd::HloShardingParseError error;
  std::optional<import_::gspmd::HloSharding> sharding =
      import_::gspmd::parseHloSharding(text, error);
  if (!sharding) {
    if (error.message.empty())
      return "parse failed without a message";
    if (error.offset > text.size())
      return "the error offset lies beyond the text";
    return "";
  }
  std::string printed = sharding->toString(/*includeMetadata=*/true);
  import_::gspmd::HloShardingParseError again;
  std::optional<import_::gspmd::HloSharding> reparsed =
      import_::gspmd::parseHloSharding(printed, again);
  if (!reparsed)
    return "the printed sharding '" + printed + "' does not parse: " + again.message;
  if (!(*reparsed == *sharding))
    return "the printed sharding '" + printed + "' parses to another sharding ('" +
           reparsed->toString(true) + "')";
  return "";
}

} // namespace shardscope::fuzz
