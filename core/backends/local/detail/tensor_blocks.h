#pragma once

// Block copies of the local backend: splitting a tensor into equal parts along a dimension and
// concatenating parts back.

#include "core/exec/tensor.h"

#include <vector>

namespace shardscope::backends::local::detail {

/// Splits `t` into `parts` equal pieces along `dim`. Precondition: the size of `dim` is
/// divisible by `parts`.
std::vector<exec::Tensor> splitTensor(const exec::Tensor& t, int64_t dim, int64_t parts);

/// Concatenates `parts` (same element type, same shape except along `dim`) along `dim`.
exec::Tensor concatTensors(const std::vector<const exec::Tensor*>& parts, int64_t dim);

} // namespace shardscope::backends::local::detail
