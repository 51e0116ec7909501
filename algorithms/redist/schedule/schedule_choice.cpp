#include "redist/schedule/schedule_choice.hpp"

#include <vector>

namespace redist {

const NameTable<ScheduleChoice>& schedule_names() {
  static const NameTable<ScheduleChoice> table("schedule", [] {
    std::vector<NameTable<ScheduleChoice>::Entry> entries = {{std::nullopt, "async"}};
    for (const Strategy strategy : all_strategies()) entries.push_back({strategy, name_of(strategy)});
    return entries;
  }());
  return table;
}

ScheduleChoice schedule_from_name(std::string_view name) { return schedule_names().from_name(name); }

std::string_view name_of(ScheduleChoice schedule) { return schedule_names().name_of(schedule); }

}  // namespace redist
