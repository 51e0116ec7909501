// Modelled local work (docs/ARCHITECTURE.md §4). Algorithms count elementary operations of a few kinds; a
// platform prices each kind in seconds (host properties), so simulated local time is deterministic
// and explains itself (PITFALLS' index time grows with the intersections it counts).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "redist/core/int_math.hpp"
#include "redist/transport/platform_properties.hpp"

namespace redist {

enum class WorkKind : std::size_t {
  IndexOp,         ///< one integer index computation (div/mod, owner or local-index formula)
  TableEntry,      ///< one entry of a packing/unpacking, class or compression table built
  Intersection,    ///< one interval or line-segment intersection computed
  ElementScanned,  ///< one element visited one at a time (owner scan, mask scan)
  ByteCopied,      ///< one byte moved by pack, unpack or a local copy
  RunCopied,       ///< one contiguous run copied (per-run start-up of a copy loop)
  RunListed,       ///< one contiguous run written to a plan's run list (redist's own indexing output)
  Allocation,      ///< one block taken from the allocator (a table, a list, a buffer) and first touched;
                   ///< counted only for the papers' programs (paper_work.hpp): redist's own code counts none
  RecordCopied,    ///< one record read by a copy loop: of redist's run lists (its loop set up once, however
                   ///< many pieces a strided record has), or of paper 000's PITFALLS and Prylli intersection lists
  ElementCopied,   ///< one element moved on its own by a loop that copies element by element (ScaLAPACK
                   ///< pdgemr2d's packing and unpacking), beyond its bytes, which ByteCopied prices
  ByteFaulted,     ///< one byte of memory written for the first time since the process was given it (the
                   ///< kernel's page fault and zeroing): a plan's run lists when the process first builds
                   ///< one, and blocks an allocator maps anew on every call (pdgemr2d's large buffers)
};
inline constexpr std::size_t kWorkKinds = 11;

/// Whether a platform (or a machine model) may leave the kind's price out, pricing it 0: kinds that
/// only some programs count (allocations: the papers'; records: redist's own and paper 000's; elements
/// copied one by one: pdgemr2d's), or that were added after platforms had been written (first
/// touches: the papers' machines' page faults are inside their measured allocation price).
constexpr bool price_is_optional(WorkKind kind) {
  return kind == WorkKind::Allocation || kind == WorkKind::RecordCopied || kind == WorkKind::ElementCopied ||
         kind == WorkKind::ByteFaulted;
}

/// Host property naming the price, in seconds, of one unit of a work kind ("cost.index_op", ...): the
/// first rows of the platform property table, in WorkKind's order. The send and receive overheads
/// are kSendOverheadProperty and kRecvOverheadProperty of that table.
constexpr std::string_view price_property(WorkKind kind) {
  return kPlatformProperties[static_cast<std::size_t>(kind)].name;
}
static_assert(price_property(WorkKind::IndexOp) == "cost.index_op" &&
              price_property(WorkKind::ByteFaulted) == "cost.byte_faulted");

/// Counts of work, by kind, to be charged at once.
class Work {
 public:
  Work() = default;
  Work(WorkKind kind, Index units) { add(kind, units); }

  Work& add(WorkKind kind, Index units) {
    counts_[static_cast<std::size_t>(kind)] += units;
    return *this;
  }
  Work& operator+=(const Work& other) {
    for (std::size_t k = 0; k < kWorkKinds; ++k) counts_[k] += other.counts_[k];
    return *this;
  }
  Index count(WorkKind kind) const { return counts_[static_cast<std::size_t>(kind)]; }
  bool empty() const {
    for (Index c : counts_) {
      if (c != 0) return false;
    }
    return true;
  }

 private:
  std::array<Index, kWorkKinds> counts_{};
};

/// Seconds per unit of each work kind, as a platform host prices them.
struct WorkPrices {
  std::array<double, kWorkKinds> seconds{};
  double send_overhead = 0;
  double recv_overhead = 0;

  double price(WorkKind kind) const { return seconds[static_cast<std::size_t>(kind)]; }
  friend bool operator==(const WorkPrices&, const WorkPrices&) = default;
  /// Seconds the given work takes on a host with these prices.
  double seconds_for(const Work& work) const {
    double total = 0;
    for (std::size_t k = 0; k < kWorkKinds; ++k) total += seconds[k] * static_cast<double>(work.count(static_cast<WorkKind>(k)));
    return total;
  }
};

}  // namespace redist
