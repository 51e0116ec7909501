// A Transport that forwards to another and counts what goes through it: the work charged, the
// messages and bytes sent (for reports, and for tests of an algorithm's counted complexity).
#pragma once

#include "redist/transport/transport.hpp"

namespace redist {

class CountingTransport : public Transport {
 public:
  explicit CountingTransport(Transport& inner) : inner_(inner) {}

  Rank rank() const override { return inner_.rank(); }
  Rank size() const override { return inner_.size(); }
  bool phantom() const override { return inner_.phantom(); }
  Request isend(Rank to, const std::byte* data, Index bytes, Tag tag) override {
    ++messages;
    bytes_sent += bytes;
    return inner_.isend(to, data, bytes, tag);
  }
  Request irecv(Rank from, std::byte* data, Index capacity, Tag tag) override {
    return inner_.irecv(from, data, capacity, tag);
  }
  bool control_prefix_reduction_sum(std::span<const Index> values, std::span<Index> prefix,
                                    std::span<Index> total) override {
    return inner_.control_prefix_reduction_sum(values, prefix, total);
  }
  Completion wait_any(std::span<Request> requests) override { return inner_.wait_any(requests); }
  void wait_all(std::span<Request> requests) override { inner_.wait_all(requests); }
  void barrier() override { inner_.barrier(); }
  void charge(const Work& w) override {
    work += w;
    inner_.charge(w);
  }
  void charge_unpack(const Work& w, CopyLoop loop) override {
    work += w;
    inner_.charge_unpack(w, loop);
  }
  double now() const override { return inner_.now(); }

  Work work;
  Index messages = 0;
  Index bytes_sent = 0;

 private:
  Transport& inner_;
};

}  // namespace redist
