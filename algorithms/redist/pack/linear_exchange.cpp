#include "redist/pack/linear_exchange.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace redist::pack {

std::vector<Words> linear_permutation_exchange(Transport& transport, std::vector<Words>& outgoing,
                                               const std::vector<Index>& capacity, Tag tag) {
  const Rank size = transport.size(), me = transport.rank();
  std::vector<Words> incoming(static_cast<std::size_t>(size));
  incoming[static_cast<std::size_t>(me)] = std::move(outgoing[static_cast<std::size_t>(me)]);
  // One receive buffer of the largest capacity, reused by every step (steps run one after another).
  Words landing(static_cast<std::size_t>(*std::max_element(capacity.begin(), capacity.end())));
  for (Rank step = 1; step < size; ++step) {
    const Rank to = (me + step) % size, from = (me - step + size) % size;
    const Words& out = outgoing[static_cast<std::size_t>(to)];
    const Index room = capacity[static_cast<std::size_t>(from)] * kWord;
    std::array<Request, 2> requests = {
        transport.irecv(from, reinterpret_cast<std::byte*>(landing.data()), room, tag),
        transport.isend(to, reinterpret_cast<const std::byte*>(out.data()), static_cast<Index>(out.size()) * kWord, tag)};
    Index arrived = -1;
    for (int k = 0; k < 2; ++k) {
      const Completion done = transport.wait_any(requests);
      if (done.index == 0) arrived = done.bytes;
    }
    if (arrived % kWord != 0) throw std::runtime_error("a message of " + std::to_string(arrived) + " bytes is not whole words");
    incoming[static_cast<std::size_t>(from)].assign(landing.begin(), landing.begin() + arrived / kWord);
  }
  return incoming;
}

}  // namespace redist::pack
