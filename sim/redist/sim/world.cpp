#include "redist/sim/world.hpp"

#include "redist/sim/ranks_on_host.hpp"
#include "redist/sim/simgrid_transport.hpp"

namespace redist::sim {
namespace {

// The mailbox of `channel` among those named `prefix` and a number, looked up once and kept.
simgrid::s4u::Mailbox* named_mailbox(std::vector<simgrid::s4u::Mailbox*>& kept, const char* prefix, Channel channel) {
  const auto index = static_cast<std::size_t>(channel);
  if (index >= kept.size()) kept.resize(index + 1, nullptr);
  if (kept[index] == nullptr) kept[index] = simgrid::s4u::Mailbox::by_name(prefix + std::to_string(channel));
  return kept[index];
}

std::vector<bool> hosts_shared(const std::vector<RankPlacement>& placement) {
  std::vector<simgrid::s4u::Host*> hosts;
  for (const RankPlacement& p : placement) hosts.push_back(p.host);
  std::vector<bool> shared;
  for (const int ranks : ranks_on_host(hosts)) shared.push_back(ranks > 1);
  return shared;
}

}  // namespace

World::World(std::string platform, std::vector<RankPlacement> placement, bool phantom,
             std::optional<double> barrier_latency)
    : platform_(std::move(platform)),
      placement_(std::move(placement)),
      host_shared_(hosts_shared(placement_)),
      phantom_(phantom),
      barrier_latency_(barrier_latency),
      matcher_(static_cast<Rank>(placement_.size())),
      scan_inputs_(placement_.size()),
      publications_(placement_.size()),
      transports_(placement_.size(), nullptr) {}

simgrid::s4u::Mailbox* World::mailbox(Channel channel) { return named_mailbox(mailboxes_, "redist.channel.", channel); }

Channel World::take_acknowledgement() {
  if (free_acknowledgements_.empty()) return next_acknowledgement_++;
  const Channel channel = free_acknowledgements_.back();
  free_acknowledgements_.pop_back();
  return channel;
}

simgrid::s4u::Mailbox* World::acknowledgement_mailbox(Channel channel) {
  return named_mailbox(acknowledgement_mailboxes_, "redist.acknowledgement.", channel);
}

simgrid::s4u::Barrier& World::control_barrier() {
  if (!control_barrier_) control_barrier_ = simgrid::s4u::Barrier::create(static_cast<unsigned>(size()));
  return *control_barrier_;
}

void World::attach(Rank rank, const SimGridTransport* transport) {
  transports_[static_cast<std::size_t>(rank)] = transport;
}

void World::detach(Rank rank) { transports_[static_cast<std::size_t>(rank)] = nullptr; }

void World::fail(const std::string& message) {
  if (error_.empty()) error_ = message;
}

std::string World::deadlock_report() const {
  constexpr int kShown = 8;  // one readable line, even with hundreds of ranks
  std::string line = "deadlock: every unfinished rank waits for something that never comes (";
  int shown = 0;
  int blocked = 0;
  for (const SimGridTransport* transport : transports_) {
    if (transport == nullptr) continue;
    ++blocked;
    if (shown == kShown) continue;
    if (shown > 0) line += "; ";
    line += "rank " + std::to_string(transport->rank()) + " " + transport->describe_wait();
    ++shown;
  }
  if (blocked > shown) line += "; and " + std::to_string(blocked - shown) + " more ranks";
  return line + ")";
}

}  // namespace redist::sim
