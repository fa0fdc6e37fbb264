#include "tests/bench/module_generator.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace shardscope::bench {

namespace {

constexpr std::string_view kType = "tensor<128x128xf32>";

// Dimension shardings valid on a `["x"=4, "y"=2]` mesh for 128x128 tensors. The first one is the
// most common, as in real programs where most values share a layout.
constexpr std::array<std::string_view, 8> kDimShardings = {
    R"([{"x"}, {"y"}])",   R"([{"x"}, {"y"}])", R"([{"x"}, {"y"}])", R"([{"y"}, {"x"}])",
    R"([{"x", "y"}, {}])", R"([{}, {"x"}])",    R"([{"x"}, {?}])",   R"([{}, {}])",
};

// A small deterministic generator (64-bit LCG, high bits), so every run writes the same text.
class Random {
public:
  uint32_t next(uint32_t bound) {
    m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((m_state >> 33) % bound);
  }

private:
  uint64_t m_state = 0x5eed5eedULL;
};

class Writer {
public:
  explicit Writer(std::string& out) : m_out(out) {}
  Writer& operator<<(std::string_view s) {
    m_out.append(s);
    return *this;
  }
  Writer& operator<<(char c) {
    m_out.push_back(c);
    return *this;
  }
  Writer& operator<<(size_t n) {
    char buf[24];
    char* end = buf + sizeof(buf);
    char* p = end;
    do {
      *--p = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n);
    m_out.append(p, static_cast<size_t>(end - p));
    return *this;
  }

private:
  std::string& m_out;
};

// An SSA value of the function being written: `%argN` or `%N`.
struct Value {
  bool isArg;
  size_t index;
};

Writer& operator<<(Writer& w, Value v) { return w << (v.isArg ? "%arg" : "%") << v.index; }

class Generator {
public:
  Generator(const GenerateOptions& options, std::string& out)
      : m_options(options), m_w(out), m_generic(options.form == ModuleForm::Mlir14Generic) {}

  void run() {
    size_t perFunction = std::max<size_t>(1, m_options.opsPerFunction);
    size_t functions = std::max<size_t>(1, (m_options.ops + perFunction - 1) / perFunction);
    m_w << "// Synthetic StableHLO + Shardy benchmark program (" << m_options.ops
        << " StableHLO ops), written by shardscope-gen-module.\n";
    m_w << "module @bench {\n";
    if (m_generic)
      m_w << R"(  "sdy.mesh"() {mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "mesh"} : () -> ())"
          << "\n";
    else
      m_w << R"(  sdy.mesh @mesh = <["x"=4, "y"=2]>)"
          << "\n";
    size_t remaining = m_options.ops;
    for (size_t f = 0; f < functions; ++f) {
      size_t n = std::min(perFunction, remaining);
      remaining -= n;
      writeChain(f, n);
    }
    writeMain(functions);
    m_w << "}\n";
  }

private:
  std::string_view funcKeyword() const { return m_generic ? "func" : "func.func"; }

  void writeTensorSharding(std::string_view dims) {
    m_w << "{sdy.sharding = #sdy.sharding<@mesh, " << dims << ">}";
  }

  void writeSignature(std::string_view name, size_t index) {
    m_w << "  " << funcKeyword() << " @" << name;
    if (name == "chain")
      m_w << '_' << index;
    m_w << "(";
    static constexpr std::array<std::string_view, 3> argShardings = {
        R"([{"x"}, {"y"}])", R"([{"y"}, {}])", R"([{}, {"x"}])"};
    for (size_t a = 0; a < argShardings.size(); ++a) {
      if (a)
        m_w << ", ";
      m_w << "%arg" << a << ": " << kType << ' ';
      writeTensorSharding(argShardings[a]);
    }
    m_w << ") -> (" << kType << ' ';
    writeTensorSharding(R"([{"x"}, {"y"}])");
    m_w << ") {\n";
  }

  // Writes `{...}` with the op's attributes (sorted by name, as MLIR prints them), or nothing.
  void writeAttrDict(bool dot, bool sharded) {
    bool dotAttr = dot && (m_generic || !m_options.prettyDotGeneral);
    if (!dotAttr && !sharded)
      return;
    m_w << " {";
    if (dotAttr)
      m_w << "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], "
             "rhs_contracting_dimensions = [0]>";
    if (sharded) {
      if (dotAttr)
        m_w << ", ";
      m_w << "sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
          << kDimShardings[m_random.next(kDimShardings.size())] << ">]>";
    }
    m_w << "}";
  }

  void writeChain(size_t index, size_t ops) {
    writeSignature("chain", index);
    std::vector<Value> values = {{true, 0}, {true, 1}, {true, 2}};
    for (size_t i = 0; i < ops; ++i) {
      Value prev = values.back();
      // The second operand: one of the last (up to) 8 values, so chains also fan in.
      size_t window = std::min<size_t>(8, values.size());
      Value other = values[values.size() - 1 - m_random.next(static_cast<uint32_t>(window))];
      uint32_t kind = m_random.next(4);
      if (m_options.sharedParameters && (kind == 0 || kind == 1))
        other = Value{true, kind == 0 ? size_t{1} : size_t{2}};
      bool sharded = m_random.next(10) < 8;
      Value result{false, i};
      m_w << "    " << result << " = ";
      static constexpr std::array<std::string_view, 4> names = {"dot_general", "add", "tanh",
                                                                "multiply"};
      std::string_view name = names[kind];
      bool unary = kind == 2;
      bool dot = kind == 0;
      if (m_generic || (dot && !m_options.prettyDotGeneral)) {
        m_w << "\"stablehlo." << name << "\"(" << prev;
        if (!unary)
          m_w << ", " << other;
        m_w << ")";
        writeAttrDict(dot, sharded);
        m_w << " : (" << kType;
        if (!unary)
          m_w << ", " << kType;
        m_w << ") -> " << kType << "\n";
      } else {
        m_w << "stablehlo." << name << ' ' << prev;
        if (!unary)
          m_w << ", " << other;
        if (dot)
          m_w << ", contracting_dims = [1] x [0]";
        writeAttrDict(dot, sharded);
        if (dot)
          m_w << " : (" << kType << ", " << kType << ") -> " << kType << "\n";
        else
          m_w << " : " << kType << "\n";
      }
      values.push_back(result);
    }
    m_w << "    return " << values.back() << " : " << kType << "\n  }\n";
  }

  void writeMain(size_t functions) {
    writeSignature("main", 0);
    Value prev{true, 0};
    for (size_t f = 0; f < functions; ++f) {
      Value result{false, f};
      m_w << "    " << result << " = call @chain_" << f << '(' << prev << ", %arg1, %arg2) : ("
          << kType << ", " << kType << ", " << kType << ") -> " << kType << "\n";
      prev = result;
    }
    m_w << "    return " << prev << " : " << kType << "\n  }\n";
  }

  const GenerateOptions& m_options;
  Writer m_w;
  bool m_generic;
  Random m_random;
};

} // namespace

std::string generateModule(const GenerateOptions& options) {
  std::string out;
  out.reserve(options.ops * 160 + 4096);
  Generator(options, out).run();
  return out;
}

} // namespace shardscope::bench
