#include "redist/sim/core_turns.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "redist/sim/host_costs.hpp"
#include "redist/sim/ranks_on_host.hpp"
#include "redist/transport/ranks_per_core.hpp"

namespace redist::sim {

std::optional<double> read_time_slice(const simgrid::s4u::Host& host, const std::string& platform) {
  const auto slice = read_seconds(host, kTimeSliceProperty, platform);
  if (slice && *slice <= 0) {
    throw std::runtime_error("platform " + platform + ": host " + host.get_name() + " has a time slice (" +
                             std::string(kTimeSliceProperty) + ") of 0 s: a positive number of seconds is needed");
  }
  return slice;
}

PiecewiseCurve read_switch_costs(const simgrid::s4u::Host& host, const std::string& platform) {
  return read_curve_property(host.get_property(std::string(kSwitchCostProperty)), "host " + host.get_name(),
                             kSwitchCostProperty, platform, true)
      .value_or(PiecewiseCurve());
}

std::vector<std::shared_ptr<Core>> assign_cores(const std::vector<simgrid::s4u::Host*>& rank_hosts,
                                                const std::string& platform) {
  const std::vector<int> ranks_on = ranks_on_host(rank_hosts);
  std::map<const simgrid::s4u::Host*, std::vector<std::shared_ptr<Core>>> cores;
  std::map<const simgrid::s4u::Host*, int> placed;
  std::vector<std::shared_ptr<Core>> out;
  for (std::size_t rank = 0; rank < rank_hosts.size(); ++rank) {
    const simgrid::s4u::Host* host = rank_hosts[rank];
    const auto slice = read_time_slice(*host, platform);  // checked wherever declared
    if (!slice || ranks_on[rank] <= host->get_core_count()) {
      out.push_back(nullptr);
      continue;
    }
    auto& host_cores = cores[host];
    if (host_cores.empty()) {
      const double switch_cost =
          switch_cost_at(read_switch_costs(*host, platform), ranks_per_core(ranks_on[rank], host->get_core_count()));
      for (int c = 0; c < host->get_core_count(); ++c) {
        host_cores.push_back(std::make_shared<Core>(Core{simgrid::s4u::Semaphore::create(1), *slice, switch_cost}));
      }
    }
    out.push_back(host_cores[static_cast<std::size_t>(placed[host]++ % host->get_core_count())]);
  }
  return out;
}

void CoreTurn::hold() {
  if (holding_) return;
  core_->free->acquire();
  holding_ = true;
  const bool switched = core_->last_holder >= 0 && core_->last_holder != rank_;
  core_->last_holder = rank_;
  if (switched && core_->switch_cost > 0) simgrid::s4u::this_actor::sleep_for(core_->switch_cost);
  held_since_ = simgrid::s4u::Engine::get_clock();
}

void CoreTurn::yield() {
  if (!holding_) return;
  core_->free->release();
  holding_ = false;
}

void CoreTurn::compute(double seconds, simgrid::s4u::Host& host, bool traced) {
  while (seconds > 0) {
    hold();
    const double left_of_slice = held_since_ + core_->time_slice - simgrid::s4u::Engine::get_clock();
    if (left_of_slice <= 0) {  // the slice is over: to the back of the queue (at once if nobody waits)
      yield();
      continue;
    }
    const double run = std::min(seconds, left_of_slice);
    if (traced) {
      simgrid::s4u::this_actor::execute(run * host.get_speed());
    } else {
      simgrid::s4u::this_actor::sleep_for(run);
    }
    seconds -= run;
  }
}

}  // namespace redist::sim
