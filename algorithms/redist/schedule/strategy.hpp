// The scheduling strategies, in one registry that everything iterates — the names on the command
// line and in scenarios, make_schedule(), `redist validate`'s random cases, the documented table of
// choices: a new strategy is its own files plus one entry in strategy.cpp (or one
// register_schedule_strategy() call).
#pragma once

#include <string_view>
#include <vector>

#include "redist/core/name_table.hpp"
#include "redist/core/validation_shape.hpp"
#include "redist/comm_grid/comm_grid.hpp"
#include "redist/schedule/length_matrix.hpp"
#include "redist/schedule/schedule.hpp"

namespace redist {

/// A strategy is its place in the registry: the built-in ones are named here, any registered
/// later take the next values (register_schedule_strategy).
enum class Strategy : int { Caterpillar, WalkerOtto, Stepwise, Greedy };

struct ScheduleStrategy {
  std::string_view name;         ///< as given to redistribute(), scenarios and the CLI
  std::string_view description;  ///< one line, for the documented table of choices (`redist experiments`)
  /// The schedule of any length matrix; null when the strategy needs the block sizes of a 1-D
  /// redistribution (`from_redistribution`).
  Schedule (*from_lengths)(const LengthMatrix& lengths);
  /// The schedule of a 1-D redistribution CYCLIC(r)/P -> CYCLIC(s)/Q; null: `from_lengths` of its
  /// length matrix. Throws std::invalid_argument for one it cannot schedule.
  Schedule (*from_redistribution)(const Redistribution& redist) = nullptr;
  /// The redistributions `redist validate`'s random cases check it on.
  ValidationShape validation = ValidationShape::AnyBlocks;
};

/// caterpillar, walker-otto, stepwise, greedy (then any registered).
const std::vector<ScheduleStrategy>& schedule_strategies();
/// The registry entry of `strategy`.
const ScheduleStrategy& strategy_entry(Strategy strategy);
/// Adds a strategy to the registry (a test's stand-in, an extension) and returns its value. Not
/// thread-safe: call before any redistribution runs, e.g. from a static initialiser. Throws
/// std::invalid_argument for a name already taken.
Strategy register_schedule_strategy(const ScheduleStrategy& strategy);

/// Every strategy by name, in registry order.
NameTable<Strategy> strategy_names();
/// Throws std::invalid_argument("unknown strategy 'x' (known: caterpillar, walker-otto, stepwise, greedy)").
Strategy strategy_from_name(std::string_view name);
std::string_view name_of(Strategy strategy);
/// Every strategy, in registry order.
std::vector<Strategy> all_strategies();

/// The schedule of the 1-D redistribution the grid describes.
Schedule make_schedule(Strategy strategy, const CommGrid& grid);
/// The schedule of any length matrix. A strategy that needs block sizes (walker-otto) throws
/// std::invalid_argument.
Schedule make_schedule(Strategy strategy, const LengthMatrix& lengths);

}  // namespace redist
