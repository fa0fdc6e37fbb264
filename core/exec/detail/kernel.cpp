#include "core/exec/detail/kernel.h"

#include "core/exec/detail/quant.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

namespace shardscope::exec::detail {

bool KernelContext::fail(const std::string& message) const {
  sink.error(op.loc(), "'" + std::string(op.name()) + "': " + message);
  return false;
}

bool KernelContext::expectOperands(size_t n) const {
  if (operands.size() == n)
    return true;
  return fail("expected " + std::to_string(n) + " operands, got " +
              std::to_string(operands.size()));
}

std::optional<Tensor> KernelContext::makeResult(unsigned i, ResultFill fill) const {
  ir::Type type = op.result(i)->type();
  // Quantized values are held in their storage type (or, while a quantized op runs on
  // dequantized values, in the expressed type).
  if (std::optional<QuantType> q = quantTypeOf(type))
    type = dequantized ? q->expressedType() : q->storageType();
  if (!type.isTensor() || !type.hasStaticShape() ||
      !Tensor::isSupportedElement(type.elementType())) {
    fail("unsupported result type " + type.str());
    return std::nullopt;
  }
  std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
  if (fill == ResultFill::None)
    return Tensor::uninitialized(type.elementType(), std::move(shape));
  return Tensor(type.elementType(), std::move(shape));
}

namespace {

using KernelTable = std::map<std::string, Kernel, std::less<>>;

// Ops whose kernels handle complex operands and results: byte-copying shape ops, kernels with a
// complex path, and region-based kernels whose fast paths exclude complex types. Any other
// kernel reads elements as real numbers, so `findKernel` wraps it in `rejectComplex`.
constexpr std::string_view kComplexAware[] = {
    // Data movement (byte copies) and annotations.
    "stablehlo.optimization_barrier", "sdy.sharding_constraint", "sdy.reshard", "stablehlo.reshape",
    "stablehlo.broadcast_in_dim", "stablehlo.transpose", "stablehlo.slice", "stablehlo.concatenate",
    "stablehlo.pad", "stablehlo.reverse", "stablehlo.dynamic_slice",
    "stablehlo.dynamic_update_slice", "stablehlo.gather", "stablehlo.dynamic_gather",
    "stablehlo.scatter", "stablehlo.dynamic_reshape", "stablehlo.dynamic_broadcast_in_dim",
    "stablehlo.dynamic_pad", "stablehlo.real_dynamic_slice", "stablehlo.select",
    "stablehlo.bitcast_convert", "stablehlo.constant", "stablehlo.iota", "stablehlo.dynamic_iota",
    "stablehlo.get_dimension_size", "stablehlo.map", "stablehlo.sort",
    // Elementwise kernels: complex operands go to `complexElementwise`.
    "stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide",
    "stablehlo.remainder", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.power",
    "stablehlo.atan2", "stablehlo.and", "stablehlo.or", "stablehlo.xor", "stablehlo.not",
    "stablehlo.negate", "stablehlo.abs", "stablehlo.sign", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.tanh",
    "stablehlo.logistic", "stablehlo.sqrt", "stablehlo.rsqrt", "stablehlo.cbrt", "stablehlo.sine",
    "stablehlo.cosine", "stablehlo.tan", "stablehlo.floor", "stablehlo.ceil",
    "stablehlo.round_nearest_afz", "stablehlo.round_nearest_even",
    // Kernels with complex paths.
    "stablehlo.compare", "stablehlo.convert", "stablehlo.reduce", "stablehlo.reduce_window",
    "stablehlo.dot_general", "stablehlo.dot", "stablehlo.complex", "stablehlo.real",
    "stablehlo.imag", "stablehlo.fft", "stablehlo.triangular_solve",
    // Identity custom calls copy their operands; tuples hold values of any type.
    "stablehlo.custom_call", "stablehlo.tuple", "stablehlo.get_tuple_element"};

const KernelTable& kernelTable() {
  static const KernelTable table = [] {
    KernelTable t;
    registerElementwiseKernels(t);
    registerCompareKernels(t);
    registerShapeKernels(t);
    registerReduceKernels(t);
    registerBitKernels(t);
    registerGatherKernels(t);
    registerSortKernels(t);
    registerWindowKernels(t);
    registerConvolutionKernels(t);
    registerLinalgKernels(t);
    registerDynamicKernels(t);
    registerComplexKernels(t);
    registerFftKernels(t);
    registerCustomCallKernels(t);
    registerTokenKernels(t);
    registerQuantKernels(t);
    return t;
  }();
  return table;
}

bool isComplexAware(std::string_view name) {
  return std::find(std::begin(kComplexAware), std::end(kComplexAware), name) !=
         std::end(kComplexAware);
}

// The wrapper of kernels without a complex path: the op's own kernel runs only when no operand
// and no result is complex. Looking the kernel up again keeps `Kernel` a plain function pointer.
bool rejectComplex(KernelContext& ctx) {
  for (const Tensor& t : ctx.operands)
    if (ir::isComplexElement(t.elementType()))
      return ctx.fail("complex operands are not supported by this op in the interpreter; got " +
                      t.type().str());
  for (unsigned i = 0; i < ctx.op.numResults(); ++i) {
    ir::Type type = ctx.op.result(i)->type();
    if (type.isTensor() && ir::isComplexElement(type.elementType()))
      return ctx.fail("complex results are not supported by this op in the interpreter; got " +
                      type.str());
  }
  return kernelTable().find(ctx.op.name())->second(ctx);
}

} // namespace

Kernel findKernel(std::string_view name) {
  // Decided once per op name: the table of what `findKernel` hands out.
  static const KernelTable guarded = [] {
    KernelTable t;
    for (const auto& [opName, kernel] : kernelTable())
      t[opName] = isComplexAware(opName) ? kernel : rejectComplex;
    return t;
  }();
  auto it = guarded.find(name);
  return it == guarded.end() ? nullptr : it->second;
}

void copyElement(const Tensor& src, int64_t from, Tensor& dst, int64_t to) {
  size_t width = Tensor::elementBytes(src.elementType());
  std::memcpy(dst.bytes().data() + static_cast<size_t>(to) * width,
              src.bytes().data() + static_cast<size_t>(from) * width, width);
}

void copyBox(const Tensor& src, const BoxPlace& from, Tensor& dst, const BoxPlace& to,
             std::span<const int64_t> shape) {
  if (std::any_of(shape.begin(), shape.end(), [](int64_t n) { return n == 0; }))
    return;
  const size_t width = Tensor::elementBytes(src.elementType());
  const uint8_t* in = src.bytes().data();
  uint8_t* out = dst.bytes().data(); // one copy-on-write check for the whole box
  const size_t rank = shape.size();
  if (rank == 0) {
    std::memcpy(out + static_cast<size_t>(to.base) * width,
                in + static_cast<size_t>(from.base) * width, width);
    return;
  }
  const int64_t run = shape[rank - 1];
  const int64_t inStep = from.strides[rank - 1], outStep = to.strides[rank - 1];
  const bool block = inStep == 1 && outStep == 1;
  // An odometer over the outer dimensions; each position copies one innermost run.
  std::vector<int64_t> index(rank - 1, 0);
  int64_t inAt = from.base, outAt = to.base;
  while (true) {
    if (block) {
      std::memcpy(out + static_cast<size_t>(outAt) * width, in + static_cast<size_t>(inAt) * width,
                  static_cast<size_t>(run) * width);
    } else {
      for (int64_t i = 0; i < run; ++i)
        std::memcpy(out + static_cast<size_t>(outAt + i * outStep) * width,
                    in + static_cast<size_t>(inAt + i * inStep) * width, width);
    }
    size_t d = rank - 1;
    while (d > 0) {
      --d;
      inAt += from.strides[d];
      outAt += to.strides[d];
      if (++index[d] < shape[d])
        break;
      inAt -= from.strides[d] * shape[d];
      outAt -= to.strides[d] * shape[d];
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (rank == 1)
      return;
  }
}

std::optional<DotDims> dotDims(const ir::Operation& op) {
  std::optional<ir::stablehlo::DotDimensionNumbers> d = ir::stablehlo::dotDimensionNumbers(op);
  if (!d)
    return std::nullopt;
  return DotDims{d->lhsBatching, d->rhsBatching, d->lhsContracting, d->rhsContracting};
}

} // namespace shardscope::exec::detail
