#include "redist/pdgemr2d/blacs_combine.hpp"

#include <algorithm>

namespace redist {
namespace {

constexpr Tag kCombineTag = 0x4d32;  // apart from the copy's messages

// The largest power of two not above `ranks`, at least 2 (BI_BeComb's np2).
Rank power_of_two_below(Rank ranks) {
  Rank p = 4;
  while (p < ranks) p <<= 1;
  if (p > ranks) p >>= 1;
  return p;
}

}  // namespace

std::vector<std::vector<BlacsCombineMessage>> blacs_combine_rounds(Rank ranks) {
  std::vector<std::vector<BlacsCombineMessage>> rounds;
  if (ranks < 2) return rounds;
  const Rank p2 = power_of_two_below(ranks);
  std::vector<BlacsCombineMessage> in, back;
  for (Rank r = p2; r < ranks; ++r) {
    in.push_back({r, r ^ p2, -1});
    back.push_back({r ^ p2, r, -2});
  }
  if (!in.empty()) rounds.push_back(in);
  int round = 0;
  for (Rank bit = 1; bit != p2; bit <<= 1, ++round) {
    std::vector<BlacsCombineMessage> swap;
    for (Rank r = 0; r < p2; ++r) swap.push_back({r, r ^ bit, round});
    rounds.push_back(swap);
  }
  if (!back.empty()) rounds.push_back(back);
  return rounds;
}

void blacs_min_combine(Transport& transport, std::span<BlacsInt> values) {
  const Rank ranks = transport.size(), me = transport.rank();
  if (ranks < 2) return;
  const Rank p2 = power_of_two_below(ranks);
  const Index bytes = static_cast<Index>(values.size() * sizeof(BlacsInt));
  const bool real = !transport.phantom();
  std::vector<BlacsInt> received(real ? values.size() : 0);
  auto* mine = real ? reinterpret_cast<std::byte*>(values.data()) : nullptr;
  auto* theirs = real ? reinterpret_cast<std::byte*>(received.data()) : nullptr;
  const auto combine = [&] {
    if (real) std::transform(values.begin(), values.end(), received.begin(), values.begin(), [](BlacsInt a, BlacsInt b) { return std::min(a, b); });
    transport.charge(Work(WorkKind::ElementScanned, static_cast<Index>(values.size())));
  };
  if (me >= p2) {  // hand in, wait for the answer
    Request requests[2] = {transport.irecv(me ^ p2, mine, bytes, kCombineTag),
                           transport.isend(me ^ p2, mine, bytes, kCombineTag)};
    // BLACS posts the receive of the answer first, then sends its vector blocking: the answer lands
    // in the same buffer only after the send completed (the partner answers once it has combined).
    transport.wait_all(std::span<Request>(requests + 1, 1));
    transport.wait_all(std::span<Request>(requests, 1));
    return;
  }
  if (me < (ranks ^ p2)) {
    Request r = transport.irecv(me ^ p2, theirs, bytes, kCombineTag);
    transport.wait_all(std::span<Request>(&r, 1));
    combine();
  }
  for (Rank bit = 1; bit != p2; bit <<= 1) {
    const Rank peer = me ^ bit;
    Request requests[2] = {transport.irecv(peer, theirs, bytes, kCombineTag), transport.isend(peer, mine, bytes, kCombineTag)};
    transport.wait_all(requests);
    combine();
  }
  if (me < (ranks ^ p2)) {
    Request r = transport.isend(me ^ p2, mine, bytes, kCombineTag);
    transport.wait_all(std::span<Request>(&r, 1));
  }
}

}  // namespace redist
