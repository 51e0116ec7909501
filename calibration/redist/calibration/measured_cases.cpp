#include "redist/calibration/measured_cases.hpp"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace redist::calibration {

CaseMeasurements read_measured_cases(const std::string& file, const std::vector<ValidationCase>& expected) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error&) {
    throw std::runtime_error(file + " is not JSON (the output of redist validate --json is)");
  }
  try {
    const auto& cases = json.at("cases");
    if (cases.size() != expected.size()) {
      throw std::runtime_error(fmt::format("{} holds {} cases, this validate runs {}: give it the options that file was "
                                           "measured with (its seed, --random, --pairs-side, --random-2d, --within-cores, "
                                           "--quick) and a platform of as many cores ({})",
                                           file, cases.size(), expected.size(), json.value("cores", 0)));
    }
    CaseMeasurements m;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const auto& c = cases[i];
      const std::string label = c.at("case").get<std::string>();
      if (label != expected[i].label()) {
        throw std::runtime_error(fmt::format("{}: case {} is '{}', this validate runs '{}': give it the options that file "
                                             "was measured with",
                                             file, i + 1, label, expected[i].label()));
      }
      const auto& p = c.at("measured_phases");
      m.fastest.push_back(Phases{.index = p.at("index").get<double>(), .pack = p.at("pack").get<double>(),
                                 .comm = p.at("comm").get<double>(), .unpack = p.at("unpack").get<double>(),
                                 .total = p.at("total").get<double>()});
      m.totals.push_back(c.at("round_totals").get<std::vector<double>>());
    }
    return m;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(file + " is not the output of redist validate --json (" + e.what() + ")");
  }
}

}  // namespace redist::calibration
