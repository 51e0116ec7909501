#include "redist/analysis/explanation.hpp"

#include <sstream>

#include <fmt/format.h>

namespace redist {
namespace {

nlohmann::ordered_json phases_json(const Phases& p) {
  return {{"index", p.index}, {"pack", p.pack}, {"comm", p.comm}, {"unpack", p.unpack}, {"total", p.total}};
}

}  // namespace

std::string explanation_text(const ExplainRequest& o, const Explanation& answer) {
  const auto& rows = answer.rows;
  const std::size_t choice = answer.choice;
  const double seconds = answer.seconds;
  std::ostringstream out;
  out << fmt::format("CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements of {} bytes, {} processor sets, on {}\n",
                     o.r, o.P, o.s, o.Q, o.N, o.elem_bytes, o.placement, o.platform);
  out << fmt::format("{} candidates predicted in {:.3g} ms (seconds below)\n\n", rows.size(), 1e3 * seconds);
  out << "| candidate | index | pack | comm | unpack | total |" << (o.simulate ? " simulated total | simulated/predicted |" : "")
      << "\n|---|---:|---:|---:|---:|---:|" << (o.simulate ? "---:|---:|" : "") << "\n";
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Phases& p = rows[k].predicted.phases;
    out << fmt::format("| {}{} | {:.3e} | {:.3e} | {:.3e} | {:.3e} | {:.3e} |", rows[k].predicted.candidate.label(),
                       k == choice ? " (chosen)" : "", p.index, p.pack, p.comm, p.unpack, p.total);
    if (o.simulate) out << fmt::format(" {:.3e} | {:.2f} |", rows[k].simulated_total, rows[k].simulated_total / p.total);
    out << "\n";
  }
  out << fmt::format("\nchoice: {} (predicted total {:.3e} s)\n", rows[choice].predicted.candidate.label(),
                     rows[choice].predicted.phases.total);
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
  return nlohmann::ordered_json{{"platform", o.platform}, {"P", o.P}, {"Q", o.Q}, {"r", o.r}, {"s", o.s},
                                {"N", o.N}, {"elem_bytes", o.elem_bytes}, {"placement", o.placement},
                                {"prediction_seconds", answer.seconds}, {"candidates", list},
                                {"choice", answer.rows[answer.choice].predicted.candidate.label()}};
}

}  // namespace redist
