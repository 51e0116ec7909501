// An in-process message layer for tests: one thread per rank, eager sends copied into the
// receiver's inbox, receives matched in order per (source, tag). It records what each rank did so
// that tests can check the shape of an exchange (order of sends, messages in flight).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "redist/transport/in_process_publication.hpp"
#include "redist/transport/transport.hpp"

namespace redist::test {

struct RankLog {
  std::vector<Rank> send_order;  ///< destination of each isend, in order
  int max_sends_in_flight = 0;   ///< most sends posted and not yet waited for at one time
  int max_receives_in_flight = 0;
};

/// Whether the ranks share memory (Transport::shares_memory: the shared-memory exchange runs), and
/// whether their sources are then read in place (copying once agreed).
struct ThreadMemory {
  bool shared = false;
  bool sources_shared = false;
};

class ThreadWorld {
 public:
  explicit ThreadWorld(Rank size, ThreadMemory memory = {})
      : size_(size), memory_(memory), inbox_(static_cast<std::size_t>(size)),
        publications_(static_cast<std::size_t>(size)), logs_(static_cast<std::size_t>(size)) {}

  /// Runs body(transport) on every rank, each in its own thread; rethrows the first exception.
  void run(const std::function<void(Transport&)>& body);
  const RankLog& log(Rank rank) const { return logs_[static_cast<std::size_t>(rank)]; }

 private:
  friend class ThreadTransport;
  struct Message {
    Rank from;
    Tag tag;
    std::vector<std::byte> bytes;
  };
  // Records the first failure (later ones are usually "another rank failed") and wakes everyone.
  void fail(std::exception_ptr error) {
    const std::lock_guard lock(mutex_);
    if (!failed_) first_error_ = error;
    failed_ = true;
    changed_.notify_all();
  }
  // Waits under `lock` until `done` holds; throws if another rank failed meanwhile.
  template <class Done>
  void wait_until(std::unique_lock<std::mutex>& lock, Done done) {
    changed_.wait(lock, [&] { return failed_ || done(); });
    if (failed_ && !done()) throw std::runtime_error("another rank failed");
  }

  Rank size_;
  ThreadMemory memory_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool failed_ = false;
  std::exception_ptr first_error_;
  std::vector<std::deque<Message>> inbox_;
  Index barrier_generation_ = 0;
  Rank barrier_waiting_ = 0;
  InProcessPublications publications_;
  std::vector<RankLog> logs_;
};

class ThreadTransport : public Transport {
 public:
  ThreadTransport(ThreadWorld& world, Rank rank) : world_(world), rank_(rank) {}

  Rank rank() const override { return rank_; }
  Rank size() const override { return world_.size_; }
  bool phantom() const override { return false; }

  Request isend(Rank to, const std::byte* data, Index bytes, Tag tag) override {
    const std::lock_guard lock(world_.mutex_);
    world_.inbox_[static_cast<std::size_t>(to)].push_back(
        {rank_, tag, std::vector<std::byte>(data, data + static_cast<std::size_t>(bytes))});
    world_.changed_.notify_all();
    log().send_order.push_back(to);
    return post({true, to, nullptr, 0, tag});
  }

  Request irecv(Rank from, std::byte* data, Index capacity, Tag tag) override {
    const std::lock_guard lock(world_.mutex_);
    return post({false, from, data, capacity, tag});
  }

  Completion wait_any(std::span<Request> requests) override {
    std::unique_lock lock(world_.mutex_);
    Completion done;
    world_.wait_until(lock, [&] { return try_complete(requests, done); });
    return done;
  }

  void wait_all(std::span<Request> requests) override {
    while (std::any_of(requests.begin(), requests.end(), [](Request r) { return r != kNullRequest; })) {
      wait_any(requests);
    }
  }

  void barrier() override {
    std::unique_lock lock(world_.mutex_);
    const Index generation = world_.barrier_generation_;
    if (++world_.barrier_waiting_ == world_.size_) {
      world_.barrier_waiting_ = 0;
      ++world_.barrier_generation_;
      world_.changed_.notify_all();
      return;
    }
    world_.wait_until(lock, [&] { return world_.barrier_generation_ != generation; });
  }

  // Shared publication: areas of this process (in_process_publication.hpp), the collectives
  // barriers, as the simulator's.
  bool shares_memory() const override { return world_.memory_.shared; }
  bool reserve_publication(const PublicationNeeds& needs) override {
    if (!shares_memory()) throw std::logic_error("reserve_publication without shared memory");
    world_.publications_.bring(rank_, needs);
    barrier();
    return world_.publications_.agree(rank_, needs, world_.memory_.sources_shared, false);
  }
  std::byte* publication_area() override { return world_.publications_.area(rank_); }
  const std::byte* published_area(Rank from) const override { return world_.publications_.area(from); }
  void synchronise_publication() override { barrier(); }
  const std::byte* shared_source(Rank from) const override { return world_.publications_.source(from); }
  void finish_reading(bool sources_read) override {
    if (sources_read) barrier();
  }

  void charge(const Work&) override {}
  double now() const override { return 0; }

 private:
  struct Pending {
    bool is_send;
    Rank peer;
    std::byte* data;
    Index capacity;
    Tag tag;
  };
  RankLog& log() { return world_.logs_[static_cast<std::size_t>(rank_)]; }

  Request post(Pending pending) {
    pending_.push_back(pending);
    alive_.push_back(true);
    int sends = 0, receives = 0;
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      if (alive_[k]) (pending_[k].is_send ? sends : receives)++;
    }
    log().max_sends_in_flight = std::max(log().max_sends_in_flight, sends);
    log().max_receives_in_flight = std::max(log().max_receives_in_flight, receives);
    return static_cast<Request>(pending_.size() - 1);
  }

  // Completes one request of `requests` if possible (sends are eager: always complete).
  bool try_complete(std::span<Request> requests, Completion& done) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      if (requests[i] == kNullRequest) continue;
      const auto id = static_cast<std::size_t>(requests[i]);
      Pending& p = pending_[id];
      if (p.is_send) {
        done = {i, -1, 0};
      } else {
        auto& inbox = world_.inbox_[static_cast<std::size_t>(rank_)];
        const auto match = std::find_if(inbox.begin(), inbox.end(), [&](const ThreadWorld::Message& m) {
          return (p.peer == kAnySource || m.from == p.peer) && m.tag == p.tag;
        });
        if (match == inbox.end()) continue;
        if (static_cast<Index>(match->bytes.size()) > p.capacity) throw std::runtime_error("receive buffer too small");
        if (!match->bytes.empty()) std::memcpy(p.data, match->bytes.data(), match->bytes.size());
        done = {i, match->from, static_cast<Index>(match->bytes.size())};
        inbox.erase(match);
      }
      alive_[id] = false;
      requests[i] = kNullRequest;
      return true;
    }
    return false;
  }

  ThreadWorld& world_;
  Rank rank_;
  std::vector<Pending> pending_;
  std::vector<bool> alive_;
};

inline void ThreadWorld::run(const std::function<void(Transport&)>& body) {
  std::vector<std::thread> threads;
  for (Rank r = 0; r < size_; ++r) {
    threads.emplace_back([&, r] {
      ThreadTransport transport(*this, r);
      try {
        body(transport);
      } catch (...) {
        fail(std::current_exception());
      }
    });
  }
  for (auto& t : threads) t.join();
  if (first_error_) std::rethrow_exception(first_error_);
}

}  // namespace redist::test
