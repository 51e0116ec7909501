// Krr (paper 000, Hsu, Chung, Dow): the packing and unpacking information tables of
// BLOCK-CYCLIC(kr) over P -> BLOCK-CYCLIC(r) over Q and of r -> kr, with P != Q allowed.
//
// A processor's table depends only on which side holds the kr blocks:
//  - the kr-block side (PIT of kr -> r, UPIT of r -> kr) walks its sections (one kr block each):
//    equation (1)/(6) gives the peer of the section's first r chunk, and the chunks go round-robin
//    to the following peers, floor(k/B) or floor(k/B)+1 chunks each (steps 3-4): strided classes;
//  - the r-block side (UPIT of kr -> r, PIT of r -> kr) walks the peers' kr blocks of one cycle in
//    global order: equation (2)/(4) gives how many of its r blocks each one covers, and the first
//    offsets follow by accumulation (the beta chain): contiguous classes, and touching classes of
//    the same peer are merged into one entry (the paper's optimised tables).
// Cost O(table), independent of N: TableEntry per entry and IndexOp per equation evaluated.
#pragma once

#include "redist/indexing/cyclic_pair.hpp"
#include "redist/indexing/info_table.hpp"

namespace redist {

/// kr -> r or r -> kr and its k. Throws std::invalid_argument when neither block size divides the other.
struct KrrShape {
  bool kr_to_r;  ///< the source holds the kr blocks
  Index k;
  Index r;
};
KrrShape krr_shape(const CyclicPair& pair);

/// The table of one side: the PIT of a sender (SideView::sender), the UPIT of a receiver.
InfoTable krr_table(const SideView& side, Work& work);

}  // namespace redist
