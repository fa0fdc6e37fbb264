#include "core/import/chlo/chlo_legalize.h"

#include "core/import/chlo/detail/hlo_emitter.h"
#include "core/import/chlo/detail/lowerings.h"

#include <algorithm>
#include <vector>

namespace shardscope::import_ {

namespace chlo::detail {

using ir::ElementType;
using ir::Value;

namespace {

// The integer type of twice `element`'s width and the same signedness (`i8` -> `i16`).
ElementType widened(ElementType element) {
  switch (element) {
  case ElementType::I2:
    return ElementType::I4;
  case ElementType::I4:
    return ElementType::I8;
  case ElementType::I8:
    return ElementType::I16;
  case ElementType::I16:
    return ElementType::I32;
  case ElementType::I32:
    return ElementType::I64;
  case ElementType::UI2:
    return ElementType::UI4;
  case ElementType::UI4:
    return ElementType::UI8;
  case ElementType::UI8:
    return ElementType::UI16;
  case ElementType::UI16:
    return ElementType::UI32;
  default:
    return ElementType::UI64;
  }
}

// downcast((upcast(x) * upcast(y)) >> N): the shift is arithmetic for signless integers and
// logical for unsigned ones.
Value* mulhiByWidening(HloEmitter& e, Value* lhs, Value* rhs) {
  ElementType element = lhs->type().elementType();
  ElementType wide = widened(element);
  Value* product = e.binary("multiply", e.convert(lhs, wide), e.convert(rhs, wide));
  Value* shift = e.intConstant(product->type(), {ir::elementBitWidth(element)});
  const char* kind =
      ir::isUnsignedElement(element) ? "shift_right_logical" : "shift_right_arithmetic";
  return e.convert(e.binary(kind, product, shift), element);
}

// The high 64 bits of a `ui64` product from four 32-bit partial products:
// p3 + (mid1 >> 32) + (mid2 >> 32), mid1 = p1 + (p0 >> 32), mid2 = p2 + (mid1 & 0xFFFFFFFF).
Value* mulhiU64(HloEmitter& e, Value* a, Value* b) {
  Value* c32 = e.intConstant(a->type(), {32});
  Value* low = e.intConstant(a->type(), {0xFFFFFFFFLL});
  Value* aHi = e.binary("shift_right_logical", a, c32);
  Value* bHi = e.binary("shift_right_logical", b, c32);
  Value* aLo = e.binary("and", a, low);
  Value* bLo = e.binary("and", b, low);
  Value* p0 = e.binary("multiply", aLo, bLo);
  Value* p1 = e.binary("multiply", aLo, bHi);
  Value* p2 = e.binary("multiply", aHi, bLo);
  Value* p3 = e.binary("multiply", aHi, bHi);
  Value* mid1 = e.binary("add", p1, e.binary("shift_right_logical", p0, c32));
  Value* mid2 = e.binary("add", p2, e.binary("and", mid1, low));
  Value* hi = e.binary("add", p3, e.binary("shift_right_logical", mid1, c32));
  return e.binary("add", hi, e.binary("shift_right_logical", mid2, c32));
}

// The signed high word from the unsigned one: subtract b when a < 0 and a when b < 0 (two's
// complement sign extension).
Value* mulhiI64(HloEmitter& e, Value* a, Value* b) {
  Value* ua = e.convert(a, ElementType::UI64);
  Value* ub = e.convert(b, ElementType::UI64);
  Value* zero = e.zeros(a->type());
  Value* zeroU = e.zeros(ua->type());
  Value* hi = mulhiU64(e, ua, ub);
  hi = e.binary("subtract", hi, e.select(e.compare("LT", a, zero), ub, zeroU));
  hi = e.binary("subtract", hi, e.select(e.compare("LT", b, zero), ua, zeroU));
  return e.convert(hi, ElementType::I64);
}

} // namespace

void lowerMulhi(ir::Operation& op) {
  HloEmitter e(op);
  Value* lhs = op.operand(0);
  Value* rhs = op.operand(1);
  ElementType element = lhs->type().elementType();
  Value* result = element == ElementType::UI64  ? mulhiU64(e, lhs, rhs)
                  : element == ElementType::I64 ? mulhiI64(e, lhs, rhs)
                                                : mulhiByWidening(e, lhs, rhs);
  replaceOp(op, {result});
}

void replaceOp(ir::Operation& op, const std::vector<Value*>& replacements) {
  for (unsigned i = 0; i < op.numResults(); ++i)
    op.result(i)->replaceAllUsesWith(replacements[i]);
  op.parentBlock()->erase(&op);
}

} // namespace chlo::detail

namespace {

bool allStatic(const ir::Operation& op) {
  auto isStatic = [](const ir::Value* v) {
    return v->type().isTensor() && v->type().hasStaticShape();
  };
  return std::all_of(op.operands().begin(), op.operands().end(), isStatic) &&
         std::all_of(op.results().begin(), op.results().end(),
                     [&](const auto& r) { return isStatic(r.get()); });
}

// Why `op` cannot be lowered here, or an empty string when it can.
std::string unsupportedReason(const ir::Operation& op) {
  if (op.is("chlo.mulhi"))
    return allStatic(op) ? "" : "ShardScope lowers 'chlo.mulhi' on static shapes only";
  if (op.is("chlo.ragged_dot"))
    return allStatic(op) ? "" : "ShardScope lowers 'chlo.ragged_dot' on static shapes only";
  if (op.is("chlo.scan"))
    return allStatic(op) && chlo::detail::scanDimensionSize(op) != ir::kDynamicSize
               ? ""
               : "ShardScope lowers 'chlo.scan' on static shapes only";
  return "ShardScope lowers only 'chlo.mulhi', 'chlo.ragged_dot' and 'chlo.scan'";
}

} // namespace

bool legalizeChloToStablehlo(ir::Module& module, support::DiagnosticSink& sink) {
  std::vector<ir::Operation*> ops;
  module.op().walk([&](ir::Operation& op) {
    if (op.dialect() == "chlo")
      ops.push_back(&op);
  });
  // Check every op first, so that a failure leaves the module as it was.
  for (ir::Operation* op : ops)
    if (std::string reason = unsupportedReason(*op); !reason.empty()) {
      sink.error(op->loc(),
                 "failed to legalize operation '" + std::string(op->name()) + "': " + reason);
      return false;
    }
  // Pre-order lists an op before the ops nested in it; lowering innermost first means a scan
  // body is cloned only after its own CHLO ops are gone.
  std::reverse(ops.begin(), ops.end());
  for (ir::Operation* op : ops) {
    if (op->is("chlo.mulhi"))
      chlo::detail::lowerMulhi(*op);
    else if (op->is("chlo.ragged_dot"))
      chlo::detail::lowerRaggedDot(*op);
    else
      chlo::detail::lowerScan(*op);
  }
  return true;
}

} // namespace shardscope::import_
