// Baseline of paper 003 §4: the virtual-cyclic scheme of Kaushik, Huang and Sadayappan (JPDC 38(2),
// 1996) for generating a processor's compressed local array.
//
// CYCLIC(x) on P is seen as CYCLIC(1) on P·x virtual processors, with virtual processors
// p·x .. p·x + x − 1 on processor p. Virtual processor v holds the template cells t ≡ v (mod P·x),
// so its elements solve the linear congruence s·i + o ≡ v (mod P·x): with g = gcd(s, P·x) it is
// solvable iff v ≡ o (mod g) (v is then "active"), and its solutions are i ≡ i_v (mod P·x / g), one
// arithmetic progression per active virtual processor. Processor p enumerates its active virtual
// processors one after the other, so its array holds the right elements but in virtual-processor
// order, not in increasing global order (paper 003 §5). The cost grows with the number of active
// virtual processors, about x / g per processor. Work counted: two IndexOp to solve the congruence
// (gcd and inverse), two per active virtual processor (its first solution and its length), one
// ElementScanned per element and its bytes stored (ByteCopied).
#pragma once

#include <vector>

#include "redist/layout/two_level_mapping.hpp"
#include "redist/transport/work.hpp"

namespace redist {

/// The global indices processor `proc` holds, virtual processor by virtual processor. Replaces `out`.
void virtual_cyclic_local_array(const TwoLevelMapping& mapping, Index proc, std::vector<Index>& out, Work& work);

}  // namespace redist
