// The "pack-beta1" experiment (paper 001, Table I): β1, the block size from which the compact storage
// scheme's local computation is no slower than the simple storage scheme's. One simulation runs PACK
// by SSS and by CSS for every power-of-two block size W = 1, 2, ..., L_0 (W on every dimension, as in
// the paper), each verified; β1 is the smallest W such that CSS's local time is at most SSS's for W and
// for every larger W. Quantity "beta1" holds that block size (in elements: not a time, so not a phase),
// or 0 when CSS never catches up up to BLOCK (the paper's ∞). The run has no phases of its own.
#include <algorithm>
#include <stdexcept>

#include "redist/sim/pack_experiment.hpp"

namespace redist::sim {
namespace {

/// β1 from the local times of SSS and CSS, by increasing block size; 0 when there is none.
Index beta1(const std::vector<Index>& blocks, const std::vector<double>& sss, const std::vector<double>& css) {
  Index found = 0;
  for (std::size_t k = blocks.size(); k-- > 0;) {
    if (css[k] > sss[k]) break;
    found = blocks[k];
  }
  return found;
}

// The pack experiment's parameters but those it sweeps or compares itself (W, scheme) and those of
// other runs (operation, redistribution).
const ExperimentSpec& schema() {
  static const ExperimentSpec spec = [] {
    ExperimentSpec beta1{
        "pack-beta1",
        "Paper 001's Table I: β1, the block size from which CSS's local computation is no slower than SSS's, "
        "from PACK by both schemes at every power-of-two W",
        "",
        {},
        {},
        {"beta1"},
        "beta1 is a block size (unit elements, not a time): the smallest power-of-two W from "
        "which CSS's local time is at most SSS's for every larger W, 0 if none up to BLOCK"};
    for (const char* name : {"d", "N", "L", "P", "density", "seed", "prs", "vector_block", "work"}) {
      beta1.parameters.push_back(*pack_schema().parameter(name));
    }
    return beta1;
  }();
  return spec;
}

ExperimentResult run(const std::string& platform, const Params& params, Payload payload, const std::string& trace) {
  if (payload == Payload::Phantom) throw std::invalid_argument("pack runs need real payloads: the mask's counts drive the ranking");
  if (params.contains("W") || params.contains("scheme") || params.contains("operation") || params.contains("redistribution")) {
    throw std::invalid_argument("pack-beta1 sweeps W and compares sss with css itself");
  }
  (void)ParameterValues(schema(), params);  // every value checked, as in a scenario
  const PackRunConfig base = pack_config(params, 1);
  const Index local = base.extents.front() / base.procs.front();
  std::vector<Index> blocks;
  for (Index w = 1; w <= local; w *= 2) {
    if (local % w == 0) blocks.push_back(w);
  }
  std::vector<PackRunConfig> configs;
  for (Index w : blocks) {
    for (auto scheme : {pack::Scheme::Simple, pack::Scheme::CompactStorage}) {
      PackRunConfig c = base;
      c.blocks.assign(c.blocks.size(), w);
      c.scheme = scheme;
      configs.push_back(c);
    }
  }
  const auto runs = run_packs(platform, configs, trace);
  std::vector<double> sss, css;
  ExperimentResult result;
  result.verified = true;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    (k % 2 == 0 ? sss : css).push_back(runs[k].experiment.phases.local);
    result.messages += runs[k].experiment.messages;
    result.bytes += runs[k].experiment.bytes;
  }
  result.quantities = {{"beta1", static_cast<double>(beta1(blocks, sss, css))}};
  return result;
}

}  // namespace

Experiment pack_beta1_experiment() { return {schema(), run}; }

}  // namespace redist::sim
