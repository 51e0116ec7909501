#include "redist/redistribute/methods.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace redist {
namespace {

constexpr std::array kIndexing = {std::pair{IndexingMethod::Naive, std::string_view{"naive"}},
                                  std::pair{IndexingMethod::Krr, std::string_view{"krr"}},
                                  std::pair{IndexingMethod::Pitfalls, std::string_view{"pitfalls"}},
                                  std::pair{IndexingMethod::Prylli, std::string_view{"prylli"}}};
constexpr std::array kSchedules = {std::pair{ScheduleKind::Async, std::string_view{"async"}},
                                   std::pair{ScheduleKind::Caterpillar, std::string_view{"caterpillar"}},
                                   std::pair{ScheduleKind::WalkerOtto, std::string_view{"walker-otto"}},
                                   std::pair{ScheduleKind::Stepwise, std::string_view{"stepwise"}},
                                   std::pair{ScheduleKind::Greedy, std::string_view{"greedy"}}};

template <class Table>
auto find_by_name(const Table& table, std::string_view name, const char* what) {
  std::string known;
  for (const auto& [value, entry] : table) {
    if (entry == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(entry);
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) + "' (known: " + known + ")");
}

template <class Table, class Value>
std::string_view find_name(const Table& table, Value value) {
  for (const auto& [v, entry] : table) {
    if (v == value) return entry;
  }
  return "?";
}

}  // namespace

IndexingMethod indexing_from_name(std::string_view name) { return find_by_name(kIndexing, name, "indexing method"); }
ScheduleKind schedule_from_name(std::string_view name) { return find_by_name(kSchedules, name, "schedule"); }
std::string_view name_of(IndexingMethod method) { return find_name(kIndexing, method); }
std::string_view name_of(ScheduleKind schedule) { return find_name(kSchedules, schedule); }

}  // namespace redist
