// The scheduling strategies by name, and one entry point to compute a schedule with any of them.
#pragma once

#include <string_view>
#include <vector>

#include "redist/core/name_table.hpp"
#include "redist/comm_grid/comm_grid.hpp"
#include "redist/schedule/length_matrix.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

enum class Strategy { Caterpillar, WalkerOtto, Stepwise, Greedy };

const NameTable<Strategy>& strategy_names();
/// Throws std::invalid_argument("unknown strategy 'x' (known: caterpillar, walker-otto, stepwise, greedy)").
Strategy strategy_from_name(std::string_view name);
std::string_view name_of(Strategy strategy);
/// Every strategy, in the order above.
std::vector<Strategy> all_strategies();

/// The schedule of the 1-D redistribution the grid describes.
Schedule make_schedule(Strategy strategy, const CommGrid& grid);
/// The schedule of any length matrix. Walker-otto needs block sizes and throws std::invalid_argument.
Schedule make_schedule(Strategy strategy, const LengthMatrix& lengths);

}  // namespace redist
