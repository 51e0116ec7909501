// What a rank gets where its host holds more ranks than cores, by how many ranks share each core
// (the level: ranks on the host / cores). How processes that share a core slow each other down
// beyond taking turns (the kernel's and a hypervisor's scheduling, how MPI's waiting processes poll,
// each core's share of the memory) differs from machine to machine, so `redist calibrate` measures it
// at each level it is run at and the platform declares it as curves over the level, read by the
// simulator and by `auto`'s prediction through these functions alike (docs/ARCHITECTURE.md §5).
#pragma once

#include <string_view>
#include <utility>

#include "redist/core/int_math.hpp"
#include "redist/core/piecewise_curve.hpp"
#include "redist/transport/platform_properties.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// Ranks per core of a host holding `ranks_on_host` ranks on `cores` cores.
inline double ranks_per_core(Index ranks_on_host, Index cores) {
  return static_cast<double>(ranks_on_host) / static_cast<double>(cores < 1 ? 1 : cores);
}

/// The all-to-all bandwidth a link declares for ranks beyond the cores at `level` ranks per core:
/// its curve's value there where it declares one, else its single value (0: none).
inline double oversubscribed_bandwidth_at(double single, const PiecewiseCurve& by_level, double level) {
  return by_level.empty() ? single : by_level.at(level);
}

/// The factor on a rank's copies (or on its other work) at `level` ranks per core: the curve's value
/// where the ranks outnumber the cores and a curve is declared, else 1.
inline double slowdown_at(const PiecewiseCurve& by_level, double level) {
  return level <= 1 || by_level.empty() ? 1.0 : by_level.at(level);
}

/// The core time lost each time a core passes from one of its ranks to another at `level` ranks
/// per core: the curve's value where the ranks outnumber the cores and a curve is declared, else 0.
inline double switch_cost_at(const PiecewiseCurve& by_level, double level) {
  return level <= 1 || by_level.empty() ? 0.0 : by_level.at(level);
}

/// The kinds a copy slowdown applies to: what packing, unpacking and a local copy count.
constexpr bool slowed_with_copies(WorkKind kind) {
  return kind == WorkKind::ByteCopied || kind == WorkKind::RunCopied || kind == WorkKind::RecordCopied ||
         kind == WorkKind::ElementCopied;
}

/// `work` as its copies (slowed_with_copies) and the rest.
inline std::pair<Work, Work> split_copies(const Work& work) {
  Work copies, rest = work;
  for (std::size_t k = 0; k < kWorkKinds; ++k) {
    const auto kind = static_cast<WorkKind>(k);
    if (!slowed_with_copies(kind) || work.count(kind) == 0) continue;
    copies.add(kind, work.count(kind));
    rest.add(kind, -work.count(kind));
  }
  return {copies, rest};
}

}  // namespace redist
