// The 1-D block-cyclic redistribution CYCLIC(r) over P -> CYCLIC(s) over Q as the table and
// intersection methods see it: two BlockCyclic layouts and their global complete cycle, and the view
// one processor has of it (its own layout, the peers' layout).
#pragma once

#include <string_view>

#include "redist/layout/layout.hpp"

namespace redist {

struct CyclicPair {
  BlockCyclic source;
  BlockCyclic dest;
  Index gcc;  ///< global complete cycle lcm(P·r, Q·s): the pattern repeats every gcc elements
};

/// The pair behind two layouts. Throws std::invalid_argument naming `method` when a layout is not
/// a 1-D BlockCyclic, or the sizes differ; OverflowError when the cycle does not fit in 64 bits.
CyclicPair cyclic_pair(const Layout& source, const Layout& dest, std::string_view method);

/// One processor's side: a sender sees (own = source, peer = dest), a receiver the reverse.
struct SideView {
  BlockCyclic own;
  BlockCyclic peer;
  Index me;   ///< processor index in `own`
  Index gcc;

  static SideView sender(const CyclicPair& pair, Index p) { return {pair.source, pair.dest, p, pair.gcc}; }
  static SideView receiver(const CyclicPair& pair, Index q) { return {pair.dest, pair.source, q, pair.gcc}; }

  /// Local complete cycle: own local elements per global complete cycle (LCC_s or LCC_d).
  Index local_period() const { return gcc / own.procs(); }
  /// Global elements worth describing: one cycle, or less when the array is shorter.
  Index span() const { return gcc < own.size() ? gcc : own.size(); }
  /// Position of `me` among block owners (the paper's processor number when block 0 is elsewhere).
  Index own_position() const { return floor_mod(me - own.first_proc(), own.procs()); }
  Index peer_position(Index peer_proc) const { return floor_mod(peer_proc - peer.first_proc(), peer.procs()); }
  Index peer_at(Index position) const { return floor_mod(position + peer.first_proc(), peer.procs()); }
};

}  // namespace redist
