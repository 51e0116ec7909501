#include "redist/schedule/strategy.hpp"

#include <stdexcept>

#include "redist/core/name_table.hpp"
#include "redist/schedule/caterpillar.hpp"
#include "redist/schedule/matching_schedule.hpp"
#include "redist/schedule/walker_otto.hpp"

namespace redist {

const NameTable<Strategy>& strategy_names() {
  static const NameTable<Strategy> table("strategy", {{Strategy::Caterpillar, "caterpillar"},
                                                      {Strategy::WalkerOtto, "walker-otto"},
                                                      {Strategy::Stepwise, "stepwise"},
                                                      {Strategy::Greedy, "greedy"}});
  return table;
}

Strategy strategy_from_name(std::string_view name) { return strategy_names().from_name(name); }

std::string_view name_of(Strategy strategy) { return strategy_names().name_of(strategy); }

std::vector<Strategy> all_strategies() { return strategy_names().values(); }

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
