// The indexing methods and communication schedules a redistribution can be asked for, by name.
#pragma once

#include <optional>
#include <string_view>

#include "redist/schedule/strategy.hpp"

namespace redist {

/// Naive: owner scan. Krr: packing/unpacking information tables (paper 000). Pitfalls: FALLS
/// intersections (Ramaswamy et al.). Prylli: interval scan (Prylli & Tourancheau, ScaLAPACK).
enum class IndexingMethod { Naive, Krr, Pitfalls, Prylli };
/// The exchange: "async" (every message at once, Wang et al.'s template; std::nullopt), or the
/// synchronous steps of the schedule strategy of that name (redist/schedule/).
using ScheduleChoice = std::optional<Strategy>;

/// Throws std::invalid_argument("unknown indexing method 'x' (known: naive, krr, pitfalls, prylli)") for an unknown name.
IndexingMethod indexing_from_name(std::string_view name);
/// Throws std::invalid_argument("unknown schedule 'x' (known: async, caterpillar, ...)") for an unknown name.
ScheduleChoice schedule_from_name(std::string_view name);
std::string_view name_of(IndexingMethod method);
std::string_view name_of(ScheduleChoice schedule);

}  // namespace redist
