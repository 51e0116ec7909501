// Baseline of paper 003 §4: the virtual-block scheme of Kaushik, Huang and Sadayappan (JPDC 38(2),
// 1996) for generating a processor's compressed local array.
//
// CYCLIC(x) on P is seen as BLOCK(x) on virtual processors, one per template block, with virtual
// processor v on processor v mod P. Processor p visits its virtual processors in order; for each,
// the elements aligned to its block form the closed-form section A(⌈(v·x − o)/s⌉ : ⌊(v·x + x − 1 − o)/s⌋),
// enumerated one by one. The order is preserved, and the cost grows with the number of virtual
// processors (template blocks / P), many of them empty when s > x. Work counted: two IndexOp
// (the section bounds) per virtual processor, one ElementScanned per element and its bytes stored.
#pragma once

#include <vector>

#include "redist/layout/two_level_mapping.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// The global indices processor `proc` holds, increasing. Replaces `out`.
void virtual_block_local_array(const TwoLevelMapping& mapping, Index proc, std::vector<Index>& out, Work& work);

}  // namespace redist
