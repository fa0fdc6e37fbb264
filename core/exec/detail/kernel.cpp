#include "core/exec/detail/kernel.h"

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

std::optional<Tensor> KernelContext::makeResult(unsigned i) const {
  ir::Type type = op.result(i)->type();
  if (!type.isTensor() || !type.hasStaticShape() ||
      !Tensor::isSupportedElement(type.elementType())) {
    fail("unsupported result type " + type.str());
    return std::nullopt;
  }
  return Tensor(type.elementType(), {type.shape().begin(), type.shape().end()});
}

Kernel findKernel(std::string_view name) {
  static const auto table = [] {
    std::map<std::string, Kernel, std::less<>> t;
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
    return t;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : it->second;
}

void copyElement(const Tensor& src, int64_t from, Tensor& dst, int64_t to) {
  size_t width = Tensor::elementBytes(src.elementType());
  std::memcpy(dst.bytes().data() + static_cast<size_t>(to) * width,
              src.bytes().data() + static_cast<size_t>(from) * width, width);
}

std::optional<DotDims> dotDims(const ir::Operation& op) {
  std::optional<ir::stablehlo::DotDimensionNumbers> d = ir::stablehlo::dotDimensionNumbers(op);
  if (!d)
    return std::nullopt;
  return DotDims{d->lhsBatching, d->rhsBatching, d->lhsContracting, d->rhsContracting};
}

} // namespace shardscope::exec::detail
