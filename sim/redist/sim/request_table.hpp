// The pending requests of one simulated rank, by handle. A simulated all-to-all posts millions of
// requests: slots and the objects in them are reused, so that posting one allocates nothing, and a
// handle carries its slot's generation, so that a stale handle is still refused.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "redist/transport/transport.hpp"

namespace redist::sim {

template <class T>
class RequestTable {
 public:
  /// A free slot and its handle. The object may hold what its last user left: reset what you use.
  std::pair<Request, T&> acquire() {
    if (free_.empty()) {
      free_.push_back(static_cast<std::uint32_t>(slots_.size()));
      slots_.push_back({std::make_unique<T>(), 0, false});
    }
    const std::uint32_t index = free_.back();
    free_.pop_back();
    Slot& slot = slots_[index];
    slot.used = true;
    ++used_;
    return {handle(index, slot.generation), *slot.object};
  }

  /// The object of a pending handle; nullptr for a handle that is not (or no longer) pending.
  T* find(Request request) const {
    const auto index = static_cast<std::uint64_t>(request) & kSlotMask;
    if (request < 0 || index >= slots_.size()) return nullptr;
    const Slot& slot = slots_[index];
    return slot.used && handle(static_cast<std::uint32_t>(index), slot.generation) == request ? slot.object.get()
                                                                                             : nullptr;
  }
  T& at(Request request) {
    if (T* object = find(request)) return *object;
    throw std::invalid_argument("unknown request " + std::to_string(request));
  }

  /// Frees the slot of a pending handle; the handle is refused from then on.
  void release(Request request) {
    at(request);
    Slot& slot = slots_[static_cast<std::uint64_t>(request) & kSlotMask];
    slot.used = false;
    ++slot.generation;
    --used_;
    free_.push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(request) & kSlotMask));
  }

  std::size_t size() const { return used_; }

 private:
  static constexpr std::uint64_t kSlotMask = 0xffffffffu;
  struct Slot {
    std::unique_ptr<T> object;  // stable address: the matcher may point into it
    std::uint32_t generation;
    bool used;
  };
  // Generations wrap within 31 bits, so that no handle is negative (kNullRequest is -1).
  static Request handle(std::uint32_t index, std::uint32_t generation) {
    return static_cast<Request>((static_cast<std::uint64_t>(generation & 0x7fffffffu) << 32) | index);
  }

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::size_t used_ = 0;
};

}  // namespace redist::sim
