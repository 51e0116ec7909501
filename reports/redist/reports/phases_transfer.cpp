#include "redist/reports/phases_transfer.hpp"

#include <stdexcept>
#include <string>

namespace redist {

void to_json(nlohmann::json& json, const Phases& phases) {
  json = nlohmann::json::array();
  for (const auto field : kPhaseFields) json.push_back(phases.*field);
}

void from_json(const nlohmann::json& json, Phases& phases) {
  if (!json.is_array() || json.size() != kPhaseFields.size()) {
    throw std::runtime_error("phases must be an array of " + std::to_string(kPhaseFields.size()) + " numbers, got " + json.dump());
  }
  for (std::size_t k = 0; k < kPhaseFields.size(); ++k) phases.*kPhaseFields[k] = json[k].get<double>();
}

}  // namespace redist
