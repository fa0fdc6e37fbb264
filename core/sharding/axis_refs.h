#pragma once

#include "core/ir/sdy_types.h"
#include "core/sharding/mesh_view.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shardscope::sharding {

// Relations between axis references with Shardy's semantics. A full axis "x" of size n is the
// sub-axis "x":(1)n; a sub-axis "x":(m)k covers the log-interval [m, m*k) of axis "x". Functions
// without a mesh argument don't need the full axis size.

/// Returns true when `a` contains `b`: same axis, and `a` is the full axis or `b`'s interval lies
/// within `a`'s.
bool axisContains(const ir::AxisRef& a, const ir::AxisRef& b);
/// Returns true when `a` and `b` share part of the same axis.
bool axisOverlaps(const ir::AxisRef& a, const ir::AxisRef& b);
/// Returns true when `a` is a prefix of `b`: `b` contains `a` and both start at the same pre-size.
bool axisPrefixOf(const ir::AxisRef& a, const ir::AxisRef& b);
/// Returns true when `a` is a suffix of `b`: `b` contains `a` and both end at the same next
/// pre-size.
bool axisSuffixOf(const ir::AxisRef& a, const ir::AxisRef& b, const MeshView& mesh);
/// Returns true when sub-axes `a` and `b` are consecutive (`a` just major to `b`) and can be
/// written as one sub-axis. Full axes never merge.
bool axisCanMerge(const ir::AxisRef& a, const ir::AxisRef& b);
/// Merges consecutive sub-axes `a` and `b` (precondition: `axisCanMerge(a, b)`); gives the full
/// axis when the merge covers it.
ir::AxisRef axisMerge(const ir::AxisRef& a, const ir::AxisRef& b, const MeshView& mesh);
/// Returns true when sub-axes `a` and `b` can be parts of one decomposition of their axis
/// (Shardy's `AxisRefAttr::canCoexist`): the gap between disjoint ones, or the shared and
/// non-shared parts of overlapping ones, are whole sub-axes. Full axes and different axes always
/// can, e.g. `"a":(1)2` and `"a":(3)2` of an axis of size 6 can't.
bool axisCanCoexist(const ir::AxisRef& a, const ir::AxisRef& b);
/// The part of `a` major to `b`: `a` itself when they don't overlap, nothing when `b` starts at or
/// before `a` or when they can't coexist.
std::optional<ir::AxisRef> axisPrefixWithoutOverlap(const ir::AxisRef& a, const ir::AxisRef& b);
/// Appends `axis` to `axes`, merging it into the last axis when they are consecutive sub-axes.
void appendAxisOrMerge(std::vector<ir::AxisRef>& axes, const ir::AxisRef& axis,
                       const MeshView& mesh);

/// Shardy's order of axis refs w.r.t. a mesh: by the position of the axis in the mesh (unknown
/// names last, by name), then sub-axes before the full axis, then sub-axes by (pre-size, size).
bool axisMeshLess(const MeshView& mesh, const ir::AxisRef& a, const ir::AxisRef& b);
/// Returns true when `axes` is sorted w.r.t. `axisMeshLess`.
bool isMeshSorted(const MeshView& mesh, std::span<const ir::AxisRef> axes);
/// Sorts `axes` w.r.t. `axisMeshLess` and merges consecutive sub-axes.
std::vector<ir::AxisRef> sortAndMerge(std::vector<ir::AxisRef> axes, const MeshView& mesh);

/// The parts of the axes of `a` that no axis of `b` covers, as axis refs (Shardy's
/// `getAxisSetDiff`): `["x"] - ["x":(2)2]` on `"x"=8` is `["x":(1)2, "x":(4)2]`.
std::vector<ir::AxisRef> axisRefSetDiff(const std::vector<ir::AxisRef>& a,
                                     const std::vector<ir::AxisRef>& b, const MeshView& mesh);

/// Shardy's text of one axis ref: `"x"` or `"x":(2)4`.
std::string axisRefString(const ir::AxisRef& axis);
/// Shardy's text of an axis ref list in diagnostics: `["x", "y":(1)2]`.
std::string axisRefListString(std::span<const ir::AxisRef> axes);

} // namespace shardscope::sharding
