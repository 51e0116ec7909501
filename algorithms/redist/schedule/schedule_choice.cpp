#include "redist/schedule/schedule_choice.hpp"

#include <vector>

namespace redist {

NameTable<ScheduleChoice> schedule_names() {
  std::vector<NameTable<ScheduleChoice>::Entry> entries = {{std::nullopt, "async"}};
  for (const Strategy strategy : all_strategies()) entries.push_back({strategy, name_of(strategy)});
  return NameTable<ScheduleChoice>("schedule", std::move(entries));
}

ScheduleChoice schedule_from_name(std::string_view name) { return schedule_names().from_name(name); }

std::string_view name_of(ScheduleChoice schedule) { return schedule ? name_of(*schedule) : "async"; }

std::string_view description_of(ScheduleChoice schedule) {
  return schedule ? strategy_entry(*schedule).description : "every message at once, without steps, as Wang et al.'s template";
}

ValidationShape validation_shape(ScheduleChoice schedule) {
  return schedule ? strategy_entry(*schedule).validation : ValidationShape::AnyBlocks;
}

}  // namespace redist
