#include "redist/redistribute/exchange_buffers.hpp"

namespace redist {
namespace {

std::vector<Index> offsets_of(const std::vector<PeerPlan>& peers, Index elem_bytes) {
  std::vector<Index> offsets{0};
  for (const auto& peer : peers) offsets.push_back(offsets.back() + peer.elements * elem_bytes);
  return offsets;
}

}  // namespace

ExchangeBuffers ExchangeBuffers::for_plan(const RankPlan& plan, Index elem_bytes, Transport& transport) {
  ExchangeBuffers buffers;
  buffers.send_offsets_ = offsets_of(plan.sends, elem_bytes);
  buffers.recv_offsets_ = offsets_of(plan.receives, elem_bytes);
  if (!transport.phantom()) {
    buffers.send_ = transport.message_memory(static_cast<std::size_t>(buffers.send_offsets_.back()));
    buffers.recv_ = transport.message_memory(static_cast<std::size_t>(buffers.recv_offsets_.back()));
  }
  return buffers;
}

}  // namespace redist
