#include "redist/redistribute/layout_schedule.hpp"

#include <deque>
#include <mutex>
#include <stdexcept>

#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/layout_lengths.hpp"
#include "redist/schedule/strategy.hpp"
#include "redist/schedule/walker_otto.hpp"

namespace redist {
namespace {

// Walker and Otto's closed form, relabelled when block 0 does not sit on processor 0.
Schedule walker_otto_for(const Layout& source, const Layout& dest) {
  const auto* from = std::get_if<BlockCyclic>(&source.variant());
  const auto* to = std::get_if<BlockCyclic>(&dest.variant());
  if (from == nullptr || to == nullptr) {
    throw std::invalid_argument("walker-otto needs 1-D block-cyclic source and destination layouts");
  }
  Schedule schedule = walker_otto_schedule({from->procs(), from->block_size(), to->procs(), to->block_size()});
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
    const Index q = ranks.source_rank(p) - ranks.dest_first;
    if (q >= 0 && q < lengths.Q()) lengths.set(p, q, 0);
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
             ranks.source_first == o.ranks.source_first && ranks.dest_first == o.ranks.dest_first;
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
  const Strategy strategy = *choice;
  static ScheduleMemo memo;
  return memo.get({strategy, procedure, source, dest, ranks}, [&] {
    if (strategy == Strategy::WalkerOtto) return walker_otto_for(source, dest);
    LengthMatrix lengths = message_lengths(source, dest);
    drop_local_copies(lengths, ranks);
    if (strategy == Strategy::Caterpillar && procedure == StepProcedure::Paper004) {
      return caterpillar_schedule(lengths, IdlePairs::ExchangeEmpty);
    }
    return make_schedule(strategy, lengths);
  });
}

}  // namespace redist
