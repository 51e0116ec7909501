// The indexing methods and communication schedules a redistribution can be asked for, by name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace redist {

/// Naive: owner scan. Krr: packing/unpacking information tables (paper 000). Pitfalls: FALLS
/// intersections (Ramaswamy et al.). Prylli: interval scan (Prylli & Tourancheau, ScaLAPACK).
enum class IndexingMethod { Naive, Krr, Pitfalls, Prylli };
/// Async: every message at once (Wang et al.'s template). The others run in synchronous steps
/// computed by the schedule strategy of the same name (redist/schedule/).
enum class ScheduleKind { Async, Caterpillar, WalkerOtto, Stepwise, Greedy };

/// Throws std::invalid_argument("unknown indexing method 'x' (known: naive, krr, pitfalls, prylli)") for an unknown name.
IndexingMethod indexing_from_name(std::string_view name);
ScheduleKind schedule_from_name(std::string_view name);
std::string_view name_of(IndexingMethod method);
std::string_view name_of(ScheduleKind schedule);

}  // namespace redist
