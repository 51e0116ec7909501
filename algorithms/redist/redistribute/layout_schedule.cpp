#include "redist/redistribute/layout_schedule.hpp"

#include <atomic>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>

#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/layout_lengths.hpp"
#include "redist/schedule/strategy.hpp"

namespace redist {
namespace {

std::atomic<Index> schedules_asked{0};  // layout_schedules_asked()

// The schedule of a strategy that needs a 1-D redistribution's block sizes (walker-otto's closed
// form), relabelled when block 0 does not sit on processor 0.
Schedule one_dimensional_schedule(const ScheduleStrategy& strategy, const Layout& source, const Layout& dest) {
  const auto* from = std::get_if<BlockCyclic>(&source.variant());
  const auto* to = std::get_if<BlockCyclic>(&dest.variant());
  if (from == nullptr || to == nullptr) {
    throw std::invalid_argument(std::string(strategy.name) + " needs 1-D block-cyclic source and destination layouts");
  }
  Schedule schedule = strategy.from_redistribution({from->procs(), from->block_size(), to->procs(), to->block_size()});
  for (auto& step : schedule.steps) {
    for (auto& m : step.messages) {
      m.src = (m.src + from->first_proc()) % schedule.P;
      m.dst = (m.dst + to->first_proc()) % schedule.Q;
    }
  }
  return schedule;
}

// Source p and destination q on one rank exchange nothing over the network.
void drop_local_copies(LengthMatrix& lengths, const RankMap& ranks) {
  for (Index p = 0; p < lengths.P(); ++p) {
    if (const auto q = ranks.dest_of(ranks.source_rank(p), lengths.Q())) lengths.set(p, *q, 0);
  }
}

// The memo of recent schedules, keyed by what they are computed from. In a simulation every rank
// of a run asks for the same schedule in the same process: only the first pays for it.
class ScheduleMemo {
 public:
  struct Key {
    Strategy strategy;
    StepProcedure procedure;
    Layout source;
    Layout dest;
    RankMap ranks;
    bool operator==(const Key& o) const {
      return strategy == o.strategy && procedure == o.procedure && source == o.source && dest == o.dest &&
             ranks == o.ranks;
    }
  };

  template <class Make>
  std::shared_ptr<const Schedule> get(const Key& key, const Make& make) {
    {
      const std::lock_guard lock(mutex_);
      for (const auto& entry : entries_) {
        if (entry.key == key) return entry.schedule;
      }
    }
    auto schedule = std::make_shared<const Schedule>(make());
    const std::lock_guard lock(mutex_);
    entries_.push_front({key, schedule});
    if (entries_.size() > kCapacity) entries_.pop_back();
    return schedule;
  }

 private:
  static constexpr std::size_t kCapacity = 4;
  struct Entry {
    Key key;
    std::shared_ptr<const Schedule> schedule;
  };
  std::mutex mutex_;
  std::deque<Entry> entries_;
};

}  // namespace

std::shared_ptr<const Schedule> layout_schedule(ScheduleChoice choice, const Layout& source, const Layout& dest,
                                                const RankMap& ranks, StepProcedure procedure) {
  if (!choice) return nullptr;
  schedules_asked.fetch_add(1, std::memory_order_relaxed);
  const Strategy strategy = *choice;
  static ScheduleMemo memo;
  return memo.get({strategy, procedure, source, dest, ranks}, [&] {
    const ScheduleStrategy& entry = strategy_entry(strategy);
    if (entry.from_redistribution != nullptr) return one_dimensional_schedule(entry, source, dest);
    LengthMatrix lengths = message_lengths(source, dest);
    drop_local_copies(lengths, ranks);
    if (strategy == Strategy::Caterpillar && procedure == StepProcedure::Paper004) {
      return caterpillar_schedule(lengths, IdlePairs::ExchangeEmpty);
    }
    return make_schedule(strategy, lengths);
  });
}

Index layout_schedules_asked() { return schedules_asked.load(std::memory_order_relaxed); }

}  // namespace redist
