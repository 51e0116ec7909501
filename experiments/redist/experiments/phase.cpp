#include "redist/experiments/phase.hpp"

#include <fmt/format.h>

namespace redist {

const NameTable<Phase>& phase_names() {
  static const NameTable<Phase> table("phase", {{Phase::Indexing, "index"},
                                                {Phase::Packing, "pack"},
                                                {Phase::Communication, "comm"},
                                                {Phase::Unpacking, "unpack"},
                                                {Phase::PackingUnpacking, "pack_unpack"},
                                                {Phase::Computation, "comp"},
                                                {Phase::LocalComputation, "local"},
                                                {Phase::PrefixSums, "prs"},
                                                {Phase::Preredistribution, "redist"},
                                                {Phase::Generation, "generate"},
                                                {Phase::Total, "total"}});
  return table;
}

double seconds(const Phases& run, Phase phase) {
  switch (phase) {
    case Phase::Indexing: return run.index;
    case Phase::Packing: return run.pack;
    case Phase::Communication: return run.comm;
    case Phase::Unpacking: return run.unpack;
    // Paper 000's pack/unpack column: the slowest packing plus the slowest unpacking.
    case Phase::PackingUnpacking: return run.pack + run.unpack;
    case Phase::Computation: return run.comp;
    case Phase::LocalComputation: return run.local;
    case Phase::PrefixSums: return run.prs;
    case Phase::Preredistribution: return run.redist;
    // Paper 003's generation of compressed local arrays is the whole of a holes run.
    case Phase::Generation: return run.total;
    case Phase::Total: return run.total;
  }
  throw std::logic_error("a phase without a field");
}

nlohmann::ordered_json phases_json(const Phases& run, const std::vector<Phase>& phases) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const Phase phase : phases) json[std::string(phase_names().name_of(phase))] = seconds(run, phase);
  return json;
}

std::string phases_text(const Phases& run, const std::vector<Phase>& phases) {
  std::string text = "phase     seconds (max over ranks)\n";
  for (const Phase phase : phases) text += fmt::format("{:<9} {:.6e}\n", phase_names().name_of(phase), seconds(run, phase));
  return text;
}

}  // namespace redist
