// The parameter exchange that starts every pdgemr2d call: an element-wise minimum of a vector of
// integers over all ranks (BLACS' Cigamn2d over scope "All" with topology "H"), which tells ranks
// outside a grid that grid's shape and descriptor. BLACS runs it as its bidirectional exchange
// (BLACS/SRC/BI_BeComb.c): the ranks beyond the largest power of two hand their vector to a partner
// inside it, the power-of-two ranks swap and combine vectors along each bit, and the partners hand
// the result back. Written here over the message layer so that its messages are simulated.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "redist/transport/transport.hpp"

namespace redist {

/// BLACS integers are C ints (Debian's libscalapack-openmpi).
using BlacsInt = std::int32_t;

/// Collective over all ranks of `transport`: every rank's `values` (the same length everywhere)
/// become the element-wise minimum over the ranks. On a phantom transport only the sizes travel
/// and `values` are left as they are. Each combine of two vectors is charged as their elements
/// scanned.
void blacs_min_combine(Transport& transport, std::span<BlacsInt> values);

/// The messages one rank of `ranks` sends in the combine, in order, each {peer, round}: round r of
/// the power-of-two exchange, or -1 for the hand-in and -2 for the hand-back. For the prediction.
struct BlacsCombineMessage {
  Rank from = 0, to = 0;
  int round = 0;
};
std::vector<std::vector<BlacsCombineMessage>> blacs_combine_rounds(Rank ranks);

}  // namespace redist
