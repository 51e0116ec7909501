#include "redist/schedule/strategy.hpp"

#include <stdexcept>
#include <string>

#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/matching_schedule.hpp"
#include "redist/schedule/walker_otto.hpp"

namespace redist {
namespace {

Schedule plain_caterpillar(const LengthMatrix& lengths) { return caterpillar_schedule(lengths); }

// In the order of the Strategy enumerators.
std::vector<ScheduleStrategy>& strategy_table() {
  static std::vector<ScheduleStrategy> strategies = {
      {"caterpillar", "ScaLAPACK's total exchange in max(P, Q) steps, source p to destination p - k at step k",
       plain_caterpillar},
      {"walker-otto",
       "Walker and Otto's K steps of one message per processor, for CYCLIC(r) -> CYCLIC(K·r) on P = Q "
       "processors with K <= P",
       nullptr, walker_otto_schedule, ValidationShape::SquareDividing},
      {"stepwise", "paper 004's maximum-weight matchings covering the busiest processors: the fewest steps",
       stepwise_schedule},
      {"greedy", "paper 004's maximum-weight matching of what is left, step after step", greedy_schedule},
  };
  return strategies;
}

}  // namespace

const std::vector<ScheduleStrategy>& schedule_strategies() { return strategy_table(); }

const ScheduleStrategy& strategy_entry(Strategy strategy) {
  const auto at = static_cast<std::size_t>(strategy);
  if (at >= strategy_table().size()) throw std::logic_error("a strategy outside the registry");
  return strategy_table()[at];
}

Strategy register_schedule_strategy(const ScheduleStrategy& strategy) {
  for (const ScheduleStrategy& known : strategy_table()) {
    if (known.name == strategy.name) {
      throw std::invalid_argument("strategy '" + std::string(strategy.name) + "' is registered already");
    }
  }
  strategy_table().push_back(strategy);
  return static_cast<Strategy>(strategy_table().size() - 1);
}

NameTable<Strategy> strategy_names() {
  std::vector<NameTable<Strategy>::Entry> entries;
  for (std::size_t i = 0; i < strategy_table().size(); ++i) {
    entries.push_back({static_cast<Strategy>(i), strategy_table()[i].name});
  }
  return NameTable<Strategy>("strategy", std::move(entries));
}

Strategy strategy_from_name(std::string_view name) { return strategy_names().from_name(name); }

std::string_view name_of(Strategy strategy) { return strategy_entry(strategy).name; }

std::vector<Strategy> all_strategies() { return strategy_names().values(); }

Schedule make_schedule(Strategy strategy, const CommGrid& grid) {
  const ScheduleStrategy& entry = strategy_entry(strategy);
  if (entry.from_redistribution != nullptr) return entry.from_redistribution(grid.redistribution());
  return entry.from_lengths(LengthMatrix(grid));
}

Schedule make_schedule(Strategy strategy, const LengthMatrix& lengths) {
  const ScheduleStrategy& entry = strategy_entry(strategy);
  if (entry.from_lengths == nullptr) {
    throw std::invalid_argument(std::string(entry.name) + " needs a 1-D CYCLIC(r) -> CYCLIC(s) redistribution, not a "
                                "length matrix");
  }
  return entry.from_lengths(lengths);
}

}  // namespace redist
