#pragma once

// The stable ids of ops and values, one spelling for every front end (the app's views, its serve
// client, snapshots and sessions). An id names the source op a stage's op came from, so it is the
// same in every stage and every run of a program: passes keep the location of the op they
// rewrite, and values a pass inserts carry the location of the op they were inserted for.
//
//   op:                 LINE:COL:OPNAME              12:3:stablehlo.add
//   op result:          LINE:COL:OPNAME#RESULT       12:3:stablehlo.add#0
//   region argument:    LINE:COL:OPNAME@REGION.ARG   9:8:sdy.manual_computation@0.1
//   function argument:  arg:FUNCTION#INDEX           arg:main#1

#include "core/ir/module.h"

#include <optional>
#include <string>
#include <string_view>

namespace shardscope::session {

/// The op's id, `LINE:COL:OPNAME`.
std::string opId(const ir::Operation& op);

/// The value's id: a function argument by function and index, an op result or a region argument
/// by its op's id. Empty for a value outside any function.
std::string valueId(const ir::Value& value);

/// A value id taken apart.
struct ValueIdParts {
  enum class Kind { FunctionArgument, Result, RegionArgument };
  Kind kind = Kind::Result;
  std::string function;   ///< FunctionArgument: the function's name
  uint32_t line = 0;      ///< Result, RegionArgument: the op's line, column and name
  uint32_t column = 0;
  std::string opName;     ///< the op's name (`stablehlo.add`)
  unsigned region = 0;    ///< RegionArgument: the region
  unsigned index = 0;     ///< the argument index, or the result index
};

/// Parses an id written by `valueId`; nothing when `id` is not one.
std::optional<ValueIdParts> parseValueId(std::string_view id);

/// The value of `module` with id `id`, or null.
const ir::Value* findValue(const ir::Module& module, std::string_view id);

} // namespace shardscope::session
