#include "redist/reports/redistribution_json.hpp"

namespace redist {

const std::vector<Phase>& redistribution_phases() {
  static const std::vector<Phase> phases = {Phase::Indexing, Phase::Packing, Phase::Communication, Phase::Unpacking,
                                            Phase::Total};
  return phases;
}

namespace {

nlohmann::ordered_json side_json(const ScalapackDescriptor& d, Index row0, Index col0) {
  nlohmann::ordered_json json = {{"grid", {d.grid_rows, d.grid_cols}},
                                 {"block", {d.row_block, d.col_block}},
                                 {"first", {d.first_row, d.first_col}}};
  if (d.order == StorageOrder::RowMajor) json["order"] = "row-major";
  if (row0 != 0 || col0 != 0) json["at"] = {row0 + 1, col0 + 1};
  return json;
}

}  // namespace

nlohmann::ordered_json matrix_copy_json(const MatrixCopy& copy) {
  nlohmann::ordered_json json = {{"rows", copy.from.rows}, {"cols", copy.from.cols}};
  json["src"] = side_json(copy.from, copy.from_row0, copy.from_col0);
  json["dst"] = side_json(copy.to, copy.to_row0, copy.to_col0);
  if (copy.to.rows != copy.from.rows || copy.to.cols != copy.from.cols) json["dst"]["matrix"] = {copy.to.rows, copy.to.cols};
  if (!copy.whole()) json["sub"] = {copy.rows, copy.cols};
  return json;
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
