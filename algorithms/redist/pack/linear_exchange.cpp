#include "redist/pack/linear_exchange.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace redist::pack {

std::vector<Words> linear_permutation_exchange(Transport& transport, std::vector<Words>& outgoing,
                                               const std::vector<Index>& capacity, Tag tag) {
  const Rank size = transport.size(), me = transport.rank();
  constexpr Index kWord = sizeof(Index);
  std::vector<Words> incoming(static_cast<std::size_t>(size));
  incoming[static_cast<std::size_t>(me)] = std::move(outgoing[static_cast<std::size_t>(me)]);
  for (Rank step = 1; step < size; ++step) {
    const Rank to = (me + step) % size, from = (me - step + size) % size;
    Words& in = incoming[static_cast<std::size_t>(from)];
    const Words& out = outgoing[static_cast<std::size_t>(to)];
    in.resize(static_cast<std::size_t>(capacity[static_cast<std::size_t>(from)]));
    std::array<Request, 2> requests = {
        transport.irecv(from, reinterpret_cast<std::byte*>(in.data()), static_cast<Index>(in.size()) * kWord, tag),
        transport.isend(to, reinterpret_cast<const std::byte*>(out.data()), static_cast<Index>(out.size()) * kWord, tag)};
    Index arrived = -1;
    for (int k = 0; k < 2; ++k) {
      const Completion done = transport.wait_any(requests);
      if (done.index == 0) arrived = done.bytes;
    }
    if (arrived % kWord != 0) throw std::runtime_error("a message of " + std::to_string(arrived) + " bytes is not whole words");
    in.resize(static_cast<std::size_t>(arrived / kWord));
  }
  return incoming;
}

}  // namespace redist::pack
