#include "redist/schedule/strategy.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/matching_schedule.hpp"
#include "redist/schedule/walker_otto.hpp"

namespace redist {
namespace {

constexpr std::array kStrategies = {std::pair{Strategy::Caterpillar, std::string_view{"caterpillar"}},
                                    std::pair{Strategy::WalkerOtto, std::string_view{"walker-otto"}},
                                    std::pair{Strategy::Stepwise, std::string_view{"stepwise"}},
                                    std::pair{Strategy::Greedy, std::string_view{"greedy"}}};

}  // namespace

Strategy strategy_from_name(std::string_view name) {
  std::string known;
  for (const auto& [strategy, entry] : kStrategies) {
    if (entry == name) return strategy;
    known += (known.empty() ? "" : ", ") + std::string(entry);
  }
  throw std::invalid_argument("unknown strategy '" + std::string(name) + "' (known: " + known + ")");
}

std::string_view name_of(Strategy strategy) {
  for (const auto& [value, entry] : kStrategies) {
    if (value == strategy) return entry;
  }
  return "?";
}

std::vector<Strategy> all_strategies() {
  std::vector<Strategy> out;
  for (const auto& entry : kStrategies) out.push_back(entry.first);
  return out;
}

Schedule make_schedule(Strategy strategy, const CommGrid& grid) {
  if (strategy == Strategy::WalkerOtto) return walker_otto_schedule(grid.redistribution());
  return make_schedule(strategy, LengthMatrix(grid));
}

Schedule make_schedule(Strategy strategy, const LengthMatrix& lengths) {
  switch (strategy) {
    case Strategy::Caterpillar:
      return caterpillar_schedule(lengths);
    case Strategy::WalkerOtto:
      throw std::invalid_argument("walker-otto needs a 1-D CYCLIC(r) -> CYCLIC(K*r) redistribution");
    case Strategy::Stepwise:
      return stepwise_schedule(lengths);
    case Strategy::Greedy:
      return greedy_schedule(lengths);
  }
  throw std::logic_error("unhandled strategy");
}

}  // namespace redist
