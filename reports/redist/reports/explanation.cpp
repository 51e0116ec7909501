#include "redist/reports/explanation.hpp"

#include <sstream>

#include <fmt/format.h>

#include "redist/reports/redistribution_json.hpp"
#include "redist/layout/scalapack_descriptor.hpp"

namespace redist {
namespace {

nlohmann::ordered_json phases_json(const Phases& p) {
  return {{"index", p.index}, {"pack", p.pack}, {"comm", p.comm}, {"unpack", p.unpack}, {"total", p.total}};
}

// "CYCLIC(3) on 4 -> CYCLIC(5) on 4, N = 1000 elements", or the 2-D copy's descriptors.
std::string request_text(const ExplainRequest& o) {
  if (o.matrix) return matrix_copy_text(*o.matrix) + ", elements";
  return fmt::format("CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements", o.r, o.P, o.s, o.Q, o.N);
}

}  // namespace

Layout ExplainRequest::source() const { return matrix ? scalapack_layout(matrix->from) : Layout(BlockCyclic(N, r, P)); }

Layout ExplainRequest::dest() const { return matrix ? scalapack_layout(matrix->to) : Layout(BlockCyclic(N, s, Q)); }

std::string explanation_text(const ExplainRequest& o, const Explanation& answer) {
  const auto& rows = answer.rows;
  const std::size_t choice = answer.choice;
  const double seconds = answer.seconds;
  std::ostringstream out;
  out << fmt::format("{} of {} bytes, {} processor sets, on {}\n", request_text(o), o.elem_bytes, o.placement,
                     o.platform);
  out << fmt::format("{} candidates predicted in {:.3g} ms (seconds below)\n\n", rows.size(), 1e3 * seconds);
  out << "| candidate | index | pack | comm | unpack | total |" << (o.simulate ? " simulated total | simulated/predicted |" : "")
      << "\n|---|---:|---:|---:|---:|---:|" << (o.simulate ? "---:|---:|" : "") << "\n";
  const auto row = [&](const ExplainedCandidate& c, const std::string& label) {
    const Phases& p = c.predicted.phases;
    out << fmt::format("| {} | {:.3e} | {:.3e} | {:.3e} | {:.3e} | {:.3e} |", label, p.index, p.pack, p.comm, p.unpack,
                       p.total);
    if (o.simulate) out << fmt::format(" {:.3e} | {:.2f} |", c.simulated_total, c.simulated_total / p.total);
    out << "\n";
  };
  for (std::size_t k = 0; k < rows.size(); ++k) {
    row(rows[k], rows[k].predicted.candidate.label() + (k == choice ? " (chosen)" : ""));
  }
  if (answer.pdgemr2d) row(*answer.pdgemr2d, "ScaLAPACK's pdgemr2d");
  out << fmt::format("\nchoice: {} (predicted total {:.3e} s)\n", rows[choice].predicted.candidate.label(),
                     rows[choice].predicted.phases.total);
  if (answer.pdgemr2d) {
    out << fmt::format("pdgemr2d predicted {:.2f} times the choice's total\n",
                       answer.pdgemr2d->predicted.phases.total / rows[choice].predicted.phases.total);
  }
  return out.str();
}

nlohmann::ordered_json explanation_json(const ExplainRequest& o, const Explanation& answer) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ExplainedCandidate& row : answer.rows) {
    const Candidate& c = row.predicted.candidate;
    nlohmann::ordered_json entry = {{"indexing", c.indexing}, {"schedule", c.schedule},
                                    {"relabel", relabel_method_names().name_of(c.relabel)},
                                    {"predicted", phases_json(row.predicted.phases)}};
    if (o.simulate) entry["simulated_total"] = row.simulated_total;
    list.push_back(entry);
  }
  nlohmann::ordered_json json = {{"platform", o.platform}};
  if (o.matrix) {
    json["P"] = o.matrix->from.processes();
    json["Q"] = o.matrix->to.processes();
    const nlohmann::ordered_json layouts = matrix_copy_json(*o.matrix);
    for (const auto& [key, value] : layouts.items()) json[key] = value;
    json["N"] = o.matrix->from.rows * o.matrix->from.cols;
  } else {
    json["P"] = o.P;
    json["Q"] = o.Q;
    json["r"] = o.r;
    json["s"] = o.s;
    json["N"] = o.N;
  }
  json["elem_bytes"] = o.elem_bytes;
  json["placement"] = o.placement;
  json["prediction_seconds"] = answer.seconds;
  json["candidates"] = list;
  json["choice"] = answer.rows[answer.choice].predicted.candidate.label();
  if (answer.pdgemr2d) {
    json["pdgemr2d"] = {{"predicted", phases_json(answer.pdgemr2d->predicted.phases)},
                        {"predicted_over_choice", answer.pdgemr2d->predicted.phases.total /
                                                      answer.rows[answer.choice].predicted.phases.total}};
    if (o.simulate) json["pdgemr2d"]["simulated_total"] = answer.pdgemr2d->simulated_total;
  }
  return json;
}

}  // namespace redist
