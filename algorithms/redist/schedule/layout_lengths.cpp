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

// Same-shape multi-dimensional layouts: entry ((a0, a1, ...), (c0, c1, ...)) is the product over
// dimensions of the 1-D counts a_d -> c_d, each from a scan of that dimension's extent.
bool same_shape_multi_dim(const Layout& source, const Layout& dest) {
  const auto* from = std::get_if<MultiDimLayout>(&source.variant());
  const auto* to = std::get_if<MultiDimLayout>(&dest.variant());
  return from != nullptr && to != nullptr && from->shape() == to->shape();
}

LengthMatrix tensor_lengths(const MultiDimLayout& source, const MultiDimLayout& dest) {
  std::vector<LengthMatrix> dims;
  for (std::size_t d = 0; d < source.rank(); ++d) {
    dims.push_back(scanned_lengths(source.dim(d).layout(), dest.dim(d).layout()));
  }
  LengthMatrix lengths(source.processors(), dest.processors());
  for (Index p = 0; p < source.processors(); ++p) {
    const auto a = source.grid_coords(p);
    for (Index q = 0; q < dest.processors(); ++q) {
      const auto c = dest.grid_coords(q);
      Index count = 1;
      for (std::size_t d = 0; d < dims.size() && count > 0; ++d) count *= dims[d].at(a[d], c[d]);
      lengths.set(p, q, count);
    }
  }
  return lengths;
}

}  // namespace

LengthMatrix message_lengths(const Layout& source, const Layout& dest) {
  const auto* from = std::get_if<BlockCyclic>(&source.variant());
  const auto* to = std::get_if<BlockCyclic>(&dest.variant());
  if (from != nullptr && to != nullptr) return block_cyclic_lengths(*from, *to);
  if (same_shape_multi_dim(source, dest)) {
    return tensor_lengths(std::get<MultiDimLayout>(source.variant()), std::get<MultiDimLayout>(dest.variant()));
  }
  return scanned_lengths(source, dest);
}

}  // namespace redist
