// Shared publication (Transport's) among ranks that live in one process — the simulator's actors,
// the tests' threads: each rank's area, where its source lies, and whether it takes part in the
// exchange under way, and the agreement reserve_publication makes of them. The transport runs its
// own barrier between a rank's two halves (bring, then agree): no rank can then be past the next
// synchronisation before every rank has left this one, so what the others left is still theirs
// when read, and a rank may grow its area.
#pragma once

#include <cstddef>
#include <vector>

#include "redist/transport/transport.hpp"

namespace redist {

class InProcessPublications {
 public:
  explicit InProcessPublications(std::size_t ranks) : ranks_(ranks) {}

  /// Before the barrier: what `rank` brings to reserve_publication.
  void bring(Rank rank, const Transport::PublicationNeeds& needs) {
    Publication& mine = at(rank);
    mine.takes_part = needs.sends || needs.receives;
    mine.source = needs.source.data();
  }
  /// After it: whether the ranks copy once (`sources_shared`, and some rank sends or receives, as
  /// MPI's agreement decides), with `rank`'s area made large enough for that (unless `phantom`:
  /// sizes only, no area).
  bool agree(Rank rank, const Transport::PublicationNeeds& needs, bool sources_shared, bool phantom) {
    bool anyone = false;
    for (const Publication& p : ranks_) anyone = anyone || p.takes_part;
    const bool once = sources_shared && anyone;
    const Index bytes = once ? needs.in_place_bytes : needs.packed_bytes;
    std::vector<std::byte>& area = at(rank).area;
    if (!phantom && static_cast<Index>(area.size()) < bytes) area.resize(static_cast<std::size_t>(bytes));
    return once;
  }

  std::byte* area(Rank rank) { return at(rank).area.data(); }
  const std::byte* area(Rank rank) const { return at(rank).area.data(); }
  const std::byte* source(Rank rank) const { return at(rank).source; }

 private:
  struct Publication {
    std::vector<std::byte> area;
    const std::byte* source = nullptr;
    bool takes_part = false;
  };
  Publication& at(Rank rank) { return ranks_[static_cast<std::size_t>(rank)]; }
  const Publication& at(Rank rank) const { return ranks_[static_cast<std::size_t>(rank)]; }

  std::vector<Publication> ranks_;
};

}  // namespace redist
