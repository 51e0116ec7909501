// The vector prefix-reduction-sum of paper 001 (§5.1) over a line of processors: every member gets
// the element-wise exclusive prefix sum (over the members before it) and the reduction sum of the
// members' vectors. Written on point-to-point messages, so the simulator prices every message:
//  - direct: recursive doubling, ceil(lg P) rounds exchanging the whole vector of M counts:
//    O((τ + μM) lg P) (non-powers of two fold their surplus members onto partners first and last);
//  - split: each member owns 1/P of the vector, gathers it from all members, scans it and returns
//    the prefix and total pieces: two linear-permutation exchanges of M/P words per pair, so the
//    volume is O(μM) (Kim, Bae and Ranka's report [6] is not available: our start-up term is τ(P-1)
//    per exchange, not the τ lg P of the paper's citation).
// With the CM-5 control network (Transport::control_prefix_reduction_sum) a line spanning the whole
// machine uses the hardware scan and reduction, as the paper's 1-D runs do.
#pragma once

#include <span>
#include <string>

#include "redist/core/name_table.hpp"
#include "redist/transport/transport.hpp"

namespace redist::pack {

enum class PrsAlgorithm {
  Auto,    ///< the paper's choice (§7): control network for a whole-machine line when the platform has
           ///< one; otherwise direct when P ≤ 4 or M < P, split beyond
  Direct,
  Split,
};
const NameTable<PrsAlgorithm>& prs_algorithm_names();            ///< "auto", "direct", "split"
PrsAlgorithm prs_algorithm_from_name(const std::string& name);  ///< throws std::invalid_argument for an unknown name
const char* prs_algorithm_name(PrsAlgorithm algorithm);

/// What `Auto` runs for a line of `members` processors out of `machine`, on vectors of `length`.
enum class PrsRoute { Local, Control, Direct, Split };
PrsRoute prs_route(PrsAlgorithm algorithm, Index members, Index machine, Index length, bool has_control);

/// This rank is `line[me]`; every member calls with vectors of the same length. Message tags used:
/// `tag` and `tag + 1`. Each element-wise addition of the direct algorithm is charged
/// `units_per_add` ElementScanned: 1 (one load-add-store) for redist's own code, 3 memory accesses
/// (kPaperAccessesPerAdd) for the paper's.
void prefix_reduction_sum(Transport& transport, std::span<const Index> line, std::size_t me,
                          std::span<const Index> values, std::span<Index> prefix, std::span<Index> total,
                          PrsAlgorithm algorithm, Tag tag, Index units_per_add = 1);

void prefix_reduction_sum_direct(Transport& transport, std::span<const Index> line, std::size_t me,
                                 std::span<const Index> values, std::span<Index> prefix, std::span<Index> total,
                                 Tag tag, Index units_per_add = 1);
void prefix_reduction_sum_split(Transport& transport, std::span<const Index> line, std::size_t me,
                                std::span<const Index> values, std::span<Index> prefix, std::span<Index> total,
                                Tag tag);

}  // namespace redist::pack
