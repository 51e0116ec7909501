// Many-to-many personalised communication by linear permutation scheduling (Wang, Lin and Ranka,
// paper 001's ref. [9]): in step k = 1..P-1 rank p sends to (p + k) mod P and receives from
// (p - k) mod P, so every step is a permutation and no receiver is contended. Every pair exchanges
// one message per direction, empty ones included (the receiver cannot know in advance that nothing
// comes). The message to oneself is handed over without sending or copying (as in the paper's runs).
#pragma once

#include <vector>

#include "redist/transport/transport.hpp"

namespace redist::pack {

using Words = std::vector<Index>;
// The bytes of one word.
inline constexpr Index kWord = sizeof(Index);

/// outgoing[q]: the words for rank q (moved from). Returns incoming[q], the words rank q sent.
/// `capacity[q]`: the most words rank q may send to this rank.
std::vector<Words> linear_permutation_exchange(Transport& transport, std::vector<Words>& outgoing,
                                               const std::vector<Index>& capacity, Tag tag);

}  // namespace redist::pack
