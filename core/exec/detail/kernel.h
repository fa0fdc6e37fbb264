#pragma once

// The contract between the interpreter loop and the op kernels. A kernel receives the op, its
// operand tensors and a way to run regions (reduce bodies), and fills one tensor per result.
// Control flow that changes the frame stack (while, case, func.call) is not a kernel: it lives in
// `Interpreter` itself so that stepping can stop inside those bodies.

#include "core/exec/tensor.h"
#include "core/ir/operation.h"
#include "core/ir/stablehlo_attrs.h"
#include "core/support/diagnostic.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::exec::detail {

/// Runs a single-block region on `args` and returns its terminator's operands, or nothing after
/// reporting an error. Implemented by the interpreter.
class RegionRunner {
public:
  virtual ~RegionRunner() = default;
  virtual std::optional<std::vector<Tensor>> runRegion(const ir::Region& region,
                                                       std::vector<Tensor> args) = 0;
};

/// Whether `KernelContext::makeResult` clears the buffer it allocates.
enum class ResultFill { Zero, None };

/// Everything one kernel invocation sees.
struct KernelContext {
  const ir::Operation& op;
  std::span<const Tensor> operands;
  std::vector<Tensor>& results;
  support::DiagnosticSink& sink;
  RegionRunner& regions;
  /// True while a quantized op runs on dequantized values (`runDequantized`): `makeResult` then
  /// gives quantized results their expressed type.
  bool dequantized = false;
  /// The operands themselves, when the caller hands them over (`operands` views this vector): a
  /// kernel that can reuse an operand's buffer for its result may move operands out, and must
  /// not read them through `operands` afterwards. Null when the operands are borrowed.
  std::vector<Tensor>* ownedOperands = nullptr;

  /// Returns true when there are exactly `n` operands, else reports and returns false (generic
  /// op syntax lets a program give any operand count).
  bool expectOperands(size_t n) const;
  /// Reports `message` at the op's location and returns false.
  bool fail(const std::string& message) const;
  /// A tensor shaped like result `i`'s static type, zero-filled unless `fill` is
  /// `ResultFill::None` (for kernels that write every element); nothing after reporting when the
  /// type is not a static tensor of a supported element type.
  std::optional<Tensor> makeResult(unsigned i, ResultFill fill = ResultFill::Zero) const;
};

/// A kernel: returns false after reporting to `ctx.sink`.
using Kernel = bool (*)(KernelContext& ctx);

/// Returns the kernel for op `name`, or null when the op is not supported. Kernels of ops that
/// are not known to handle complex values (see `kernel.cpp`) come wrapped: a complex operand or
/// result is reported as unsupported instead of being read as a real number.
Kernel findKernel(std::string_view name);

// Registration tables, one per kernel family file.
void registerElementwiseKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerCompareKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerShapeKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerReduceKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerBitKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerGatherKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerSortKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerWindowKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerConvolutionKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerLinalgKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerDynamicKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerComplexKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerFftKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerCustomCallKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerTokenKernels(std::map<std::string, Kernel, std::less<>>& table);
void registerQuantKernels(std::map<std::string, Kernel, std::less<>>& table);

/// Returns true for the `stablehlo.custom_call` targets the interpreter runs as identities on a
/// device's values (`@Sharding`, `@SPMDFullToShardShape`, the `xla.sdy.*` markers, ...).
bool isIdentityCustomCall(std::string_view target);

/// Runs the elementwise op `ctx.op` on complex operands, in `std::complex<double>` rounded once
/// per part (`complex_kernels.cpp`). The elementwise kernels call it when an operand is complex;
/// ops without a complex form (`floor`, `maximum`, `and`, ...) are reported.
bool complexElementwise(KernelContext& ctx);

// Attribute readers: core/ir's, shared with the sharding rules.
using ir::stablehlo::enumCase;
using ir::stablehlo::intAttr;
using ir::stablehlo::intListAttr;

/// `#stablehlo.dot<...>`; empty lists when a field is absent.
struct DotDims {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
};
std::optional<DotDims> dotDims(const ir::Operation& op);

/// Iterates all multi-indices of `shape` in row-major order, calling `fn(index, linear)`.
template <typename Fn> void forEachIndex(std::span<const int64_t> shape, Fn&& fn) {
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < total; ++linear) {
    fn(std::span<const int64_t>(index), linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

// Cores shared by the static shape kernels, which read their parameters from attributes, and
// their dynamic forms, which read them from operands. Each validates what it indexes with and
// reports at the op; `out` is the zero result of the op's declared type.

/// Reports unless `x` and `out` have the same element type.
bool sameElement(KernelContext& ctx, const Tensor& x, const Tensor& out);
/// broadcast_in_dim: operand dimension d goes to result dimension `dims[d]`.
bool broadcastInto(KernelContext& ctx, const Tensor& x, std::span<const int64_t> dims, Tensor& out);
/// slice: `out` takes every `steps[d]`-th element from `start[d]` on.
bool sliceInto(KernelContext& ctx, const Tensor& x, std::span<const int64_t> start,
               std::span<const int64_t> steps, Tensor& out);
/// pad: `x` placed at `low[d]` with `interior[d]` padding between elements, `value` elsewhere
/// (negative `low` and high padding cut `x`).
bool padInto(KernelContext& ctx, const Tensor& x, const Tensor& value, std::span<const int64_t> low,
             std::span<const int64_t> interior, Tensor& out);
/// iota: every element is its index along `dim`. Precondition: `dim` is a dimension of `out`.
void fillIota(Tensor& out, int64_t dim);

/// Copies element `from` of `src` into element `to` of `dst` (same element type, byte copy).
void copyElement(const Tensor& src, int64_t from, Tensor& dst, int64_t to);

/// Where a box of elements sits in a tensor: the element offset of its first element and, per
/// dimension, the element step between neighbours.
struct BoxPlace {
  int64_t base = 0;
  std::vector<int64_t> strides;
};

/// Copies a box of `shape` elements: for every index `i` of `shape`, the element of `src` at
/// `from.base + i·from.strides` to the element of `dst` at `to.base + i·to.strides` (same element
/// type, byte copies). Innermost runs contiguous on both sides are copied as one block.
/// Precondition: every such element is in bounds.
void copyBox(const Tensor& src, const BoxPlace& from, Tensor& dst, const BoxPlace& to,
             std::span<const int64_t> shape);

/// A rank-0 tensor holding element `i` of `t`.
Tensor scalarOf(const Tensor& t, int64_t i);

/// The combining op of a reduction-style body that is exactly `%r = op %arg0, %arg1; return %r`
/// in region 0 of `op`, or empty. Such bodies may skip running the region.
std::string_view singleOpBody(const ir::Operation& op);
/// Returns true when `combineFloat` (float types) or `combineInt` (integer types) implements `op`
/// on elements of type `e`; never for complex types, whose bodies run through the region.
bool isFastCombiner(std::string_view op, ir::ElementType e);
/// `op` (add, multiply, maximum, minimum) on doubles; maximum/minimum propagate NaN.
double combineFloat(std::string_view op, double a, double b);
/// `op` (add, multiply, maximum, minimum, and, or) on extended integers; `isUnsigned` selects the
/// order of maximum/minimum. Arithmetic wraps.
int64_t combineInt(std::string_view op, int64_t a, int64_t b, bool isUnsigned);

/// A parsed `stablehlo.compare` (direction and compare type, defaulted from the element type as
/// the compare kernel does), applicable to elements of two tensors without running the op.
class ElementCompare {
public:
  /// Nothing when `op` has no valid `comparison_direction`. `e` is the operands' element type.
  static std::optional<ElementCompare> of(const ir::Operation& op, ir::ElementType e);
  /// The comparison of element `i` of `a` with element `j` of `b` (same element type).
  bool operator()(const Tensor& a, int64_t i, const Tensor& b, int64_t j) const;

private:
  int m_direction = 0;
  std::string m_type;
};

/// Row-major linear index of `index` under `strides`.
inline int64_t linearIndex(std::span<const int64_t> index, std::span<const int64_t> strides) {
  int64_t linear = 0;
  for (size_t d = 0; d < index.size(); ++d)
    linear += index[d] * strides[d];
  return linear;
}

/// Returns true for element types that order and extend as unsigned (`ui*` and `i1`).
inline bool isUnsignedLike(ir::ElementType e) {
  return ir::isUnsignedElement(e) || e == ir::ElementType::I1;
}

} // namespace shardscope::exec::detail
