#include "redist/analysis/simulation_report.hpp"

#include <algorithm>

namespace redist {

nlohmann::ordered_json phases_json(const PhaseTimes& phases) {
  return {{"index", phases.index}, {"pack", phases.pack}, {"comm", phases.comm}, {"unpack", phases.unpack},
          {"total", phases.total}};
}

std::string rank_report_to_json(const VerifiedReport& report) {
  nlohmann::ordered_json json = {{"phases", phases_json(report.report.phases)},
                                 {"messages", report.report.messages_sent},
                                 {"bytes", report.report.bytes_sent},
                                 {"misplaced", report.misplaced}};
  json["verified"] = report.verified ? nlohmann::ordered_json(*report.verified) : nlohmann::ordered_json(nullptr);
  return json.dump();
}

RunSummary summarize_ranks(const std::vector<std::string>& rank_reports) {
  RunSummary summary;
  bool any_verified = false, all_verified = true;
  for (const auto& text : rank_reports) {
    const auto json = nlohmann::json::parse(text);
    const auto& phases = json.at("phases");
    PhaseTimes& t = summary.phases;
    t.index = std::max(t.index, phases.at("index").get<double>());
    t.pack = std::max(t.pack, phases.at("pack").get<double>());
    t.comm = std::max(t.comm, phases.at("comm").get<double>());
    t.unpack = std::max(t.unpack, phases.at("unpack").get<double>());
    t.total = std::max(t.total, phases.at("total").get<double>());
    summary.messages += json.at("messages").get<Index>();
    summary.bytes += json.at("bytes").get<Index>();
    summary.misplaced += json.at("misplaced").get<Index>();
    if (!json.at("verified").is_null()) {
      any_verified = true;
      all_verified = all_verified && json.at("verified").get<bool>();
    }
  }
  if (any_verified) summary.verified = all_verified;
  return summary;
}

}  // namespace redist
