#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <string_view>

namespace shardscope::verify {

/// Verifies every StableHLO op of `module` (and the `func.call`/`func.return` ops that tie
/// functions together) against StableHLO's own verification and type inference rules
/// (`stablehlo/dialect/TypeInference.cpp`, the ODS constraints of `StablehloOps.td`), with
/// StableHLO's message texts, at the offending op's location. Also rejects tensor types whose
/// element count does not fit in 64 bits.
///
/// Messages that StableHLO emits from its type inference functions carry no op prefix (as
/// `sdy_opt` prints them); the ones MLIR emits through `emitOpError` start with
/// `'<op name>' op `. Ops are visited in MLIR's verification order (an op before the ops in its
/// regions), call sites last (MLIR checks symbol uses when leaving the module). Like MLIR's
/// verifier, it stops at the first error. Rules are applied only where every type involved is
/// one ShardScope models (ranked tensors of known element types, tokens, tuples); anything else
/// (quantized or unranked types, ops of other dialects) is accepted unchecked, so the verifier
/// is never stricter than StableHLO. Returns true when there is no error.
bool verifyStablehlo(const ir::Module& module, support::DiagnosticSink& sink);

/// Returns true when `opName` has a StableHLO rule in the verifier (for tests and docs).
bool hasStablehloRule(std::string_view opName);

} // namespace shardscope::verify
