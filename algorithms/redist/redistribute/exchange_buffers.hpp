// What the asynchronous and the scheduled exchange share: the message buffers cut per peer, the
// times and counts they report, how they hand arrived messages to unpacking, the data tag.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "redist/indexing/rank_plan.hpp"
#include "redist/transport/transport.hpp"

namespace redist {

/// One contiguous send buffer and one receive buffer, cut per peer in plan order. Without real
/// payload (phantom runs) only the sizes exist and the data pointers are null.
class ExchangeBuffers {
 public:
  /// The buffers of `plan`, their memory from `transport` — sizes only on a phantom transport.
  static ExchangeBuffers for_plan(const RankPlan& plan, Index elem_bytes, Transport& transport);

  std::byte* send_data(std::size_t k) { return at(send_, send_offsets_, k); }
  std::byte* recv_data(std::size_t k) { return at(recv_, recv_offsets_, k); }
  Index send_bytes(std::size_t k) const { return send_offsets_[k + 1] - send_offsets_[k]; }
  Index recv_bytes(std::size_t k) const { return recv_offsets_[k + 1] - recv_offsets_[k]; }

 private:
  static std::byte* at(const MessageMemory& data, const std::vector<Index>& offsets, std::size_t k) {
    return data ? data.get() + offsets[k] : nullptr;
  }
  std::vector<Index> send_offsets_, recv_offsets_;
  // Left uninitialised: every byte is written before it is read, and zeroing (and faulting in) a
  // receive area the local part never uses would cost as much as a copy of it.
  MessageMemory send_, recv_;
};

struct ExchangeTimes {
  double comm = 0;    ///< exchange time, unpacking excluded
  double unpack = 0;  ///< time spent unpacking, the local part included
  Index messages_sent = 0;
  Index bytes_sent = 0;
};

/// Called with receive plan indices and the bytes that arrived for each: one message, or several
/// that arrived together (unpacked in one sweep of local storage).
using UnpackMessages = std::function<void(std::span<const std::size_t>, std::span<const std::byte* const>)>;

inline constexpr Tag kDataTag = 1;

}  // namespace redist
