#include "redist/holes/virtual_block.hpp"

#include "redist/core/checks.hpp"

namespace redist {

void virtual_block_local_array(const TwoLevelMapping& mapping, Index proc, std::vector<Index>& out, Work& work) {
  mapping.validate();
  require_in_range(proc, mapping.procs, "processor");
  out.clear();
  const Index s = mapping.stride, o = mapping.offset, x = mapping.block, P = mapping.procs;
  const Index last_cell = mapping.template_cell(mapping.size - 1);
  // Virtual processors before the one holding A(0) (cell o) hold nothing: start at the first of
  // p's at or after it.
  const Index first_block = o / x;
  const Index last_block = last_cell / x;
  const Index v0 = first_block + floor_mod(proc - first_block, P);
  const Index blocks = v0 > last_block ? 0 : (last_block - v0) / P + 1;
  for (Index k = 0; k < blocks; ++k) {
    const Index begin = (v0 + k * P) * x;
    const Index end = last_cell - begin < x - 1 ? last_cell : begin + (x - 1);
    const Index lo = begin <= o ? 0 : ceil_div(begin - o, s);
    const Index hi = (end - o) / s;  // end >= o: the block is at or after A(0)'s
    for (Index i = lo; i <= hi; ++i) out.push_back(i);
  }
  work.add(WorkKind::IndexOp, 2 * blocks);
  work.add(WorkKind::ElementScanned, static_cast<Index>(out.size()));  // each produced one at a time
  work.add(WorkKind::ByteCopied, static_cast<Index>(out.size() * sizeof(Index)));  // and stored
}

}  // namespace redist
