#include "redist/redistribute/input_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "redist/indexing/indexing_methods.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/schedule_choice.hpp"

namespace redist {
namespace {

// elements × elem_bytes, or nothing beyond 64 bits.
std::optional<Index> checked_bytes(Index elements, Index elem_bytes) {
  Index bytes = 0;
  if (elements < 0 || elem_bytes < 0 || __builtin_mul_overflow(elements, elem_bytes, &bytes)) return std::nullopt;
  return bytes;
}

std::string size_problem(std::size_t have, Index elements, Index elem_bytes, const char* which) {
  const std::optional<Index> need = checked_bytes(elements, elem_bytes);
  if (!need) {
    return std::string(which) + " layout's part here is " + std::to_string(elements) + " elements of " +
           std::to_string(elem_bytes) + " bytes, beyond 64-bit sizes";
  }
  if (have <= static_cast<std::size_t>(std::numeric_limits<Index>::max()) && static_cast<Index>(have) == *need) return {};
  return std::string(which) + " buffer holds " + std::to_string(have) + " bytes, the layout needs " +
         std::to_string(*need);
}

// A null buffer where elements are to be read or written.
std::string null_problem(std::span<const std::byte> buffer, const char* which) {
  if (buffer.data() != nullptr || buffer.empty()) return {};
  return std::string(which) + " buffer is null, and the layout gives this rank " + std::to_string(buffer.size()) +
         " bytes of it";
}

// Source and destination must be apart: the exchange reads the one while it writes the other.
std::string overlap_problem(std::span<const std::byte> from, std::span<const std::byte> to) {
  if (from.empty() || to.empty()) return {};
  const auto from_begin = reinterpret_cast<std::uintptr_t>(from.data()), to_begin = reinterpret_cast<std::uintptr_t>(to.data());
  const auto from_end = from_begin + from.size(), to_end = to_begin + to.size();
  if (from_begin >= to_end || to_begin >= from_end) return {};
  return "source and destination buffers overlap (" + std::to_string(std::min(from_end, to_end) - std::max(from_begin, to_begin)) +
         " bytes in common): redistribute() does not work in place, give the destination its own storage";
}

// Everything but the sizes, once they are right.
std::string storage_problem(std::span<const std::byte> from, std::span<const std::byte> to) {
  for (auto problem : {null_problem(from, "source"), null_problem(to, "destination"), overlap_problem(from, to)}) {
    if (!problem.empty()) return problem;
  }
  return {};
}

// The first processor must be a rank of [0, ranks). (That the last one fits too is ranks_needed's
// check, which this makes safe: first + count no longer overflows.)
std::string placement_problem(const char* which, Index first, Rank ranks) {
  const std::string what = std::string("RankMap: the first ") + which + " rank is " + std::to_string(first);
  if (first < 0) return what + ", negative";
  if (first >= ranks) return what + ", beyond the run's " + std::to_string(ranks) + " ranks";
  return {};
}

// A relabelling places each of the Q destination processors on its own rank of the run.
std::string relabelling_problem(const RankMap& ranks, Index Q, Rank run_ranks) {
  if (!ranks.is_relabelled()) return {};
  if (static_cast<Index>(ranks.dest_ranks.size()) != Q) {
    return "RankMap: a relabelling places " + std::to_string(ranks.dest_ranks.size()) + " destination processors, the layout has " +
           std::to_string(Q);
  }
  std::vector<bool> taken(static_cast<std::size_t>(run_ranks), false);
  for (std::size_t q = 0; q < ranks.dest_ranks.size(); ++q) {
    const Index rank = ranks.dest_ranks[q];
    if (rank < 0 || rank >= run_ranks) {
      return "RankMap: destination processor " + std::to_string(q) + " placed on rank " + std::to_string(rank) +
             ", outside the run's " + std::to_string(run_ranks) + " ranks";
    }
    if (taken[static_cast<std::size_t>(rank)]) {
      return "RankMap: two destination processors placed on rank " + std::to_string(rank);
    }
    taken[static_cast<std::size_t>(rank)] = true;
  }
  return {};
}

}  // namespace

std::string call_problem(const Layout& source, const Layout& dest, const RedistributeOptions& options, Rank ranks) {
  const RedistributeOptions o = resolve_defaults(options);
  try {
    if (o.indexing != kAutoName) indexing_method(o.indexing);
    if (o.schedule != kAutoName) schedule_from_name(o.schedule);
    if (o.relabel != kAutoName) relabel_method_names().from_name(o.relabel);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (has_auto_choice(o) && !o.model) return "choosing by auto needs a machine model (options.model)";
  if (o.relabel != "none" && !(o.ranks == RankMap::shared() || o.ranks.is_relabelled())) {
    return "relabel " + o.relabel + " places destination processors on the sources' ranks: it needs RankMap::shared()";
  }
  if (o.elem_bytes <= 0) return "element size must be a positive integer (got " + std::to_string(o.elem_bytes) + ")";
  if (source.size() != dest.size()) {
    return "source and destination layouts describe arrays of " + std::to_string(source.size()) + " and " +
           std::to_string(dest.size()) + " elements";
  }
  for (auto problem : {placement_problem("source", o.ranks.source_first, ranks),
                       placement_problem("destination", o.ranks.dest_first, ranks),
                       relabelling_problem(o.ranks, dest.processors(), ranks)}) {
    if (!problem.empty()) return problem;
  }
  const Index needed = o.ranks.ranks_needed(source.processors(), dest.processors());
  if (needed > ranks) {
    return "the layouts need " + std::to_string(needed) + " ranks, the run has " + std::to_string(ranks);
  }
  return {};
}

std::string buffer_problem(const Layout& source, const Layout& dest, const RedistributeOptions& options, Rank rank,
                           std::span<const std::byte> source_local, std::span<const std::byte> dest_local) {
  const auto p = options.ranks.source_of(rank, source.processors());
  const auto q = options.ranks.dest_of(rank, dest.processors());
  return buffer_problem(p ? source.local_size(*p) : 0, q ? dest.local_size(*q) : 0, options.elem_bytes, source_local,
                        dest_local);
}

std::string buffer_problem(Index source_elements, Index dest_elements, Index elem_bytes,
                           std::span<const std::byte> source_local, std::span<const std::byte> dest_local) {
  std::string problem = buffer_size_problem(source_elements, dest_elements, elem_bytes, source_local, dest_local);
  return problem.empty() ? storage_problem(source_local, dest_local) : problem;
}

std::string buffer_size_problem(Index source_elements, Index dest_elements, Index elem_bytes,
                                std::span<const std::byte> source_local, std::span<const std::byte> dest_local) {
  std::string problem = size_problem(source_local.size(), source_elements, elem_bytes, "source");
  return problem.empty() ? size_problem(dest_local.size(), dest_elements, elem_bytes, "destination") : problem;
}

std::string buffer_problem_before_planning(const Layout& source, const Layout& dest, const RedistributeOptions& options,
                                           Rank rank, std::span<const std::byte> source_local,
                                           std::span<const std::byte> dest_local) {
  if (options.relabel == "none") return buffer_problem(source, dest, options, rank, source_local, dest_local);
  const auto p = options.ranks.source_of(rank, source.processors());
  if (std::string problem = size_problem(source_local.size(), p ? source.local_size(*p) : 0, options.elem_bytes, "source");
      !problem.empty()) {
    return problem;
  }
  // Which destination processor lands here is the relabelling's to say: one of them, or none.
  bool fits = dest_local.empty();
  for (Index q = 0; q < dest.processors() && !fits; ++q) {
    const std::optional<Index> bytes = checked_bytes(dest.local_size(q), options.elem_bytes);
    fits = bytes && static_cast<std::size_t>(*bytes) == dest_local.size();
  }
  if (!fits) {
    return "destination buffer holds " + std::to_string(dest_local.size()) +
           " bytes, the size of no destination processor's part (relabel " + options.relabel +
           " may place any of them here, or none)";
  }
  return storage_problem(source_local, dest_local);
}

}  // namespace redist
