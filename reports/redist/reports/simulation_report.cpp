#include "redist/reports/simulation_report.hpp"

#include "redist/reports/phases_transfer.hpp"

namespace redist {

std::string rank_report_to_json(const VerifiedReport& report) {
  nlohmann::json json = {{"phases", report.report.phases},
                         {"messages", report.report.messages_sent},
                         {"bytes", report.report.bytes_sent},
                         {"kept", report.report.bytes_kept},
                         {"misplaced", report.misplaced}};
  json["verified"] = report.verified ? nlohmann::json(*report.verified) : nlohmann::json(nullptr);
  return json.dump();
}

RunSummary summarize_ranks(const std::vector<std::string>& rank_reports) {
  RunSummary summary;
  bool any_verified = false, all_verified = true;
  for (const auto& text : rank_reports) {
    const auto json = nlohmann::json::parse(text);
    summary.phases = slowest(summary.phases, with_derived(json.at("phases").get<Phases>()));
    summary.messages += json.at("messages").get<Index>();
    summary.bytes += json.at("bytes").get<Index>();
    summary.bytes_kept += json.value("kept", Index{0});
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
