#include "redist/sim/work_accounting.hpp"

#include <stdexcept>
#include <string>

namespace redist::sim {

void check_work(const nlohmann::json& value) {
  if (!value.is_string() || (value.get<std::string>() != "paper" && value.get<std::string>() != "redist")) {
    throw std::invalid_argument("work must be paper or redist, got " + value.dump());
  }
}

bool paper_work(const Params& params) {
  if (!params.contains(kWorkParameter)) return false;
  check_work(params[kWorkParameter]);
  return params[kWorkParameter].get<std::string>() == "paper";
}

}  // namespace redist::sim
