#include "redist/analysis/redistribution_json.hpp"

namespace redist {

const std::vector<Phase>& redistribution_phases() {
  static const std::vector<Phase> phases = {Phase::Indexing, Phase::Packing, Phase::Communication, Phase::Unpacking,
                                            Phase::Total};
  return phases;
}

nlohmann::ordered_json redistribution_json(const RedistributionRun& run) {
  nlohmann::ordered_json json = {{"platform", run.platform}};
  if (run.ranks) json["ranks"] = *run.ranks;
  json["P"] = run.P;
  json["Q"] = run.Q;
  for (const auto& [key, value] : run.layouts.items()) json[key] = value;
  json["N"] = run.N;
  json["phases"] = phases_json(run.phases, redistribution_phases());
  json["messages"] = run.messages;
  json["bytes"] = run.bytes;
  json["verified"] = run.verified ? nlohmann::ordered_json(*run.verified) : nlohmann::ordered_json(nullptr);
  json["elem_bytes"] = run.elem_bytes;
  json["indexing"] = run.indexing;
  json["schedule"] = run.schedule;
  json["placement"] = run.placement;
  json["phantom"] = run.phantom;
  return json;
}

}  // namespace redist
