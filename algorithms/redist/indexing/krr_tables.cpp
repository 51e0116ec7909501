#include "redist/indexing/krr_tables.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace redist {
namespace {

// Keeps the messages that received classes, in peer order.
std::vector<TableMessage> non_empty(std::vector<TableMessage> by_peer) {
  std::erase_if(by_peer, [](const TableMessage& m) { return m.classes.empty(); });
  return by_peer;
}

std::vector<TableMessage> one_message_per_peer(const SideView& side) {
  std::vector<TableMessage> by_peer(static_cast<std::size_t>(side.peer.procs()));
  for (Index q = 0; q < side.peer.procs(); ++q) by_peer[static_cast<std::size_t>(q)].peer = q;
  return by_peer;
}

// Advances a processor position by one, wrapping at `procs` (no division in the table loops).
Index next_position(Index position, Index procs) { return position + 1 == procs ? 0 : position + 1; }

// The kr-block side. Section u is this processor's block number u·A + i of the cycle; its chunk d
// is the peers' block k·(u·A + i) + d.
InfoTable strided_table(const SideView& side, Index k, Index r, Work& work) {
  const Index A = side.own.procs(), B = side.peer.procs(), i = side.own_position();
  const Index sections = side.local_period() / (k * r);
  const Index base = (k / B) * r;
  const Index classes_per_section = std::min(k, B);
  InfoTable table{side.local_period(), ClassShape::Strided, r, B * r, {}};
  auto by_peer = one_message_per_peer(side);
  for (Index u = 0; u < sections; ++u) {
    Index peer = side.peer_at((k % B) * ((u * A + i) % B) % B);  // equation (1) / (6)
    work.add(WorkKind::IndexOp, 1);
    for (Index d = 0; d < classes_per_section; ++d) {
      const Index size = base + (d < k % B ? r : 0);                                          // step 4
      by_peer[static_cast<std::size_t>(peer)].classes.push_back({size, u * k * r + d * r});  // step 3
      peer = next_position(peer, B);
    }
    work.add(WorkKind::TableEntry, classes_per_section);
  }
  table.messages = non_empty(std::move(by_peer));
  return table;
}

// The r-block side. The peers' kr block g covers k of the cycle's r blocks; those numbered
// i mod A are ours: floor(k/A) of them, one more when (i - k·g) mod A < k mod A.
InfoTable contiguous_table(const SideView& side, Index k, Index r, Work& work) {
  const Index A = side.own.procs(), B = side.peer.procs(), i = side.own_position();
  const Index big_blocks = side.gcc / (k * r);
  InfoTable table{side.local_period(), ClassShape::Contiguous, 0, 0, {}};
  auto by_peer = one_message_per_peer(side);
  Index beta = 0;
  Index phase = i;  // (i - k·g) mod A, kept up to date as g advances
  Index peer = side.peer_at(0);
  for (Index g = 0; g < big_blocks; ++g) {
    const Index alpha = (k / A + (phase < k % A ? 1 : 0)) * r;  // equation (2) / (4)
    work.add(WorkKind::IndexOp, 1);
    auto& classes = by_peer[static_cast<std::size_t>(peer)].classes;
    if (alpha > 0 && !classes.empty() && classes.back().first + classes.back().size == beta) {
      classes.back().size += alpha;  // consecutive elements of one peer: a single entry
    } else if (alpha > 0) {
      classes.push_back({alpha, beta});
      work.add(WorkKind::TableEntry, 1);
    }
    beta += alpha;
    phase -= k % A;
    if (phase < 0) phase += A;
    peer = next_position(peer, B);
  }
  table.messages = non_empty(std::move(by_peer));
  return table;
}

[[noreturn]] void not_kr_to_r(Index a, Index b, const char* separator) {
  throw std::invalid_argument("indexing method 'krr' needs one block size to divide the other (kr -> r or r -> kr), got " +
                              std::to_string(a) + separator + std::to_string(b));
}

}  // namespace

KrrShape krr_shape(const CyclicPair& pair) {
  const Index from = pair.source.block_size(), to = pair.dest.block_size();
  if (from % to == 0) return {true, from / to, to};
  if (to % from == 0) return {false, to / from, from};
  not_kr_to_r(from, to, " -> ");
}

InfoTable krr_table(const SideView& side, Work& work) {
  const Index own = side.own.block_size(), peer = side.peer.block_size();
  if (own % peer == 0) return strided_table(side, own / peer, peer, work);
  if (peer % own == 0) return contiguous_table(side, peer / own, own, work);
  not_kr_to_r(own, peer, " and ");
}

}  // namespace redist
