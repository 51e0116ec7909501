#include "redist/experiments/work_parameter.hpp"

namespace redist::sim {

ParameterSpec work_parameter(const std::string& paper_does) {
  return {.name = "work",
          .meaning = "whose local work is charged: redist's own code, or the paper's programs (" + paper_does + ")",
          .names = names_of(work_model_names()),
          .default_value = std::string(work_model_names().name_of(WorkModel::Redist))};
}

bool paper_work(const ParameterValues& values) { return work_model_names().from_name(values.text("work")) == WorkModel::Paper; }

}  // namespace redist::sim
