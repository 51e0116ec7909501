#include "redist/sim/work_accounting.hpp"

namespace redist::sim {

ParameterSpec work_parameter(const std::string& paper_does) {
  return {.name = "work",
          .meaning = "whose local work is charged: redist's own code, or the paper's programs (" + paper_does + ")",
          .names = {"redist", "paper"},
          .default_value = "redist"};
}

bool paper_work(const ParameterValues& values) { return values.text("work") == "paper"; }

}  // namespace redist::sim
