// The exchange a redistribution is asked for by name: "async" (every message at once, Wang et
// al.'s template) or the synchronous steps of a schedule strategy (the registry of strategy.hpp).
#pragma once

#include <optional>
#include <string_view>

#include "redist/core/name_table.hpp"
#include "redist/core/validation_shape.hpp"
#include "redist/schedule/strategy.hpp"

namespace redist {

/// std::nullopt: the asynchronous exchange; a strategy: the steps of its schedule.
using ScheduleChoice = std::optional<Strategy>;

/// "async", then every strategy of the registry.
NameTable<ScheduleChoice> schedule_names();
/// Throws std::invalid_argument("unknown schedule 'x' (known: async, caterpillar, ...)") for an unknown name.
ScheduleChoice schedule_from_name(std::string_view name);
std::string_view name_of(ScheduleChoice schedule);
/// One line, for the documented table of choices: async's, else the strategy's.
std::string_view description_of(ScheduleChoice schedule);
/// The redistributions `redist validate`'s random cases check it on (async: any).
ValidationShape validation_shape(ScheduleChoice schedule);

}  // namespace redist
