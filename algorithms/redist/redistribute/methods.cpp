#include "redist/redistribute/methods.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

namespace redist {
namespace {

constexpr std::string_view kAsync = "async";
constexpr std::array kIndexing = {std::pair{IndexingMethod::Naive, std::string_view{"naive"}},
                                  std::pair{IndexingMethod::Krr, std::string_view{"krr"}},
                                  std::pair{IndexingMethod::Pitfalls, std::string_view{"pitfalls"}},
                                  std::pair{IndexingMethod::Prylli, std::string_view{"prylli"}}};

}  // namespace

IndexingMethod indexing_from_name(std::string_view name) {
  std::string known;
  for (const auto& [method, entry] : kIndexing) {
    if (entry == name) return method;
    known += (known.empty() ? "" : ", ") + std::string(entry);
  }
  throw std::invalid_argument("unknown indexing method '" + std::string(name) + "' (known: " + known + ")");
}

ScheduleChoice schedule_from_name(std::string_view name) {
  if (name == kAsync) return std::nullopt;
  std::string known(kAsync);
  for (Strategy s : all_strategies()) {
    if (name_of(s) == name) return s;
    known += ", " + std::string(name_of(s));
  }
  throw std::invalid_argument("unknown schedule '" + std::string(name) + "' (known: " + known + ")");
}

std::string_view name_of(IndexingMethod method) {
  for (const auto& [value, entry] : kIndexing) {
    if (value == method) return entry;
  }
  return "?";
}

std::string_view name_of(ScheduleChoice schedule) { return schedule ? name_of(*schedule) : kAsync; }

}  // namespace redist
