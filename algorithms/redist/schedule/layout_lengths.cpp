#include "redist/schedule/layout_lengths.hpp"

namespace redist {
namespace {

LengthMatrix block_cyclic_lengths(const BlockCyclic& source, const BlockCyclic& dest) {
  const CommGrid grid = comm_grid({source.procs(), source.block_size(), dest.procs(), dest.block_size()});
  // Block 0 on processor `first` relabels processor p of the paper's numbering as p + first.
  LengthMatrix lengths(grid.P(), grid.Q());
  for (Index p = 0; p < grid.P(); ++p) {
    for (Index q = 0; q < grid.Q(); ++q) {
      lengths.set((p + source.first_proc()) % grid.P(), (q + dest.first_proc()) % grid.Q(), grid.length(p, q));
    }
  }
  return lengths;
}

LengthMatrix scanned_lengths(const Layout& source, const Layout& dest) {
  LengthMatrix lengths(source.processors(), dest.processors());
  for (Index g = 0; g < source.size(); ++g) lengths.add(source.owner(g), dest.owner(g), 1);
  return lengths;
}

}  // namespace

LengthMatrix message_lengths(const Layout& source, const Layout& dest) {
  const auto* from = std::get_if<BlockCyclic>(&source.variant());
  const auto* to = std::get_if<BlockCyclic>(&dest.variant());
  if (from != nullptr && to != nullptr) return block_cyclic_lengths(*from, *to);
  return scanned_lengths(source, dest);
}

}  // namespace redist
