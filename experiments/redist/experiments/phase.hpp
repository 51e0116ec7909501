// The phases reports name (scenario `phases:`, command output, JSON), each read from a run's Phases
// (redist/transport/phases.hpp). Phase names are spelled here and nowhere else.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/core/name_table.hpp"
#include "redist/transport/phases.hpp"

namespace redist {

enum class Phase {
  Indexing, Packing, Communication, Unpacking, PackingUnpacking, Computation, LocalComputation, PrefixSums,
  Preredistribution, Generation, Total
};

/// Each phase's name, as scenarios, commands and JSON spell it.
const NameTable<Phase>& phase_names();

/// Seconds of `phase` in a run's phases (each the maximum over ranks).
double seconds(const Phases& run, Phase phase);

/// {"<name>": seconds, ...}, `phases` in their order.
nlohmann::ordered_json phases_json(const Phases& run, const std::vector<Phase>& phases);

/// The table commands print: a header, then one line per phase of `phases`.
std::string phases_text(const Phases& run, const std::vector<Phase>& phases);

}  // namespace redist
