// The "pack-beta1" experiment (paper 001, Table I): β1, the block size from which the compact storage
// scheme's local computation is no slower than the simple storage scheme's. One simulation runs PACK
// by SSS and by CSS for every power-of-two block size W = 1, 2, ..., L_0 (W on every dimension, as in
// the paper), each verified; β1 is the smallest W such that CSS's local time is at most SSS's for W and
// for every larger W. Quantity "beta1" holds that block size (in elements: not a time, so not a phase),
// or 0 when CSS never catches up up to BLOCK (the paper's ∞). The run has no phases of its own.
// β1 is a step function of the platform's prices (a power of two), which a fit's finite differences
// cannot see; quantity "beta1_fit" is its smooth stand-in for `redist fit` (§10): √2 times the block
// size where log(CSS/SSS) crosses 0, interpolated linearly in log2 W between the two block sizes that
// straddle β1 (extrapolated beyond W = 1 or BLOCK). A published β1 = W says the crossing lies in
// (W/2, W], whose geometric centre is W/√2: beta1_fit equals W there and stays within √2 of it.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "redist/pack/geometry.hpp"
#include "redist/experiments/pack_experiment.hpp"

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

/// Where log(css/sss) crosses 0, as log2 of the block size: on the line through the last W at which
/// CSS is slower and the next (β1), or through the first or last two sizes, its slope at least
/// kMinSlope per octave (so that a flat tail still tells how far away the crossing is); at most 8
/// octaves beyond the sizes run.
double crossing_octave(const std::vector<Index>& blocks, const std::vector<double>& sss, const std::vector<double>& css) {
  constexpr double kMinSlope = 0.05;
  const std::size_t n = blocks.size();
  const auto octave = [&](std::size_t k) { return std::log2(static_cast<double>(blocks[k])); };
  const auto ratio = [&](std::size_t k) { return std::log(css[k] / sss[k]); };
  double x = octave(0) - ratio(0) / kMinSlope;
  if (n > 1) {
    const Index beta = beta1(blocks, sss, css);
    const auto at = static_cast<std::size_t>(std::find(blocks.begin(), blocks.end(), beta) - blocks.begin());
    const std::size_t right = beta == 0 ? n - 1 : std::max<std::size_t>(at, 1), left = right - 1;
    const double slope = std::max((ratio(left) - ratio(right)) / (octave(right) - octave(left)), kMinSlope);
    x = octave(left) + ratio(left) / slope;
  }
  return std::clamp(x, octave(0) - 8, octave(n - 1) + 8);
}

// The pack experiment's parameters but those it sweeps or compares itself (W, scheme) and those of
// other runs (operation, redistribution).
const ExperimentSpec& pack_beta1_schema() {
  static const ExperimentSpec spec = [] {
    ExperimentSpec beta1{
        "pack-beta1",
        "Paper 001's Table I: β1, the block size from which CSS's local computation is no slower than SSS's, "
        "from PACK by both schemes at every power-of-two W",
        "",
        {},
        {},
        {"beta1", "beta1_fit"},
        "beta1 is a block size (unit elements, not a time): the smallest power-of-two W from "
        "which CSS's local time is at most SSS's for every larger W, 0 if none up to BLOCK; beta1_fit is its "
        "smooth stand-in for fits: √2 × the block size where CSS's and SSS's local times cross, interpolated in log2 W"};
    for (const char* name : {"d", "N", "L", "P", "density", "seed", "prs", "vector_block", "work"}) {
      beta1.parameters.push_back(*pack_schema().parameter(name));
    }
    return beta1;
  }();
  return spec;
}

// The power-of-two block sizes run (each dividing L_0) and their runs, SSS then CSS for each;
// throws for what a run is refused for: phantom payload, parameters pack-beta1 sets itself, values.
struct Beta1Runs {
  std::vector<Index> blocks;
  std::vector<PackRunConfig> configs;
};

Beta1Runs beta1_runs(const Params& params, Payload payload) {
  if (payload == Payload::Phantom) throw std::invalid_argument("pack runs need real payloads: the mask's counts drive the ranking");
  if (params.contains("W") || params.contains("scheme") || params.contains("operation") || params.contains("redistribution")) {
    throw std::invalid_argument("pack-beta1 sweeps W and compares sss with css itself");
  }
  (void)ParameterValues(pack_beta1_schema(), params);  // every value checked, as in a scenario
  const PackRunConfig base = pack_config(params, 1);
  const Index local = base.extents.front() / base.procs.front();
  Beta1Runs runs;
  for (Index w = 1; w <= local; w *= 2) {
    if (local % w == 0) runs.blocks.push_back(w);
  }
  for (Index w : runs.blocks) {
    for (auto scheme : {pack::Scheme::Simple, pack::Scheme::CompactStorage}) {
      PackRunConfig c = base;
      c.blocks.assign(c.blocks.size(), w);
      c.scheme = scheme;
      runs.configs.push_back(c);
    }
  }
  if (runs.configs.empty()) throw std::invalid_argument("pack-beta1 needs at least one element per processor (N >= P)");
  return runs;
}

// What a run is refused for before anything runs (Experiment::check), as run_packs would: the
// parameters, every run's geometry (P x W dividing N, sizes within 64 bits) and the memory of all
// the runs of its one simulation.
void check_pack_beta1(const Params& params, Payload payload) {
  const Beta1Runs runs = beta1_runs(params, payload);
  for (const PackRunConfig& c : runs.configs) (void)pack::Geometry(c.extents, c.procs, c.blocks);
  check_pack_memory(runs.configs);
}

ExperimentResult run_pack_beta1(const std::string& platform, const Params& params, Payload payload,
                                const std::string& trace) {
  const auto [blocks, configs] = beta1_runs(params, payload);
  const auto runs = run_packs(platform, configs, trace);
  std::vector<double> sss, css;
  ExperimentResult result;
  result.verified = true;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    (k % 2 == 0 ? sss : css).push_back(runs[k].experiment.phases.local);
    result.messages += runs[k].experiment.messages;
    result.bytes += runs[k].experiment.bytes;
  }
  result.quantities = {{"beta1", static_cast<double>(beta1(blocks, sss, css))},
                       {"beta1_fit", std::sqrt(2.0) * std::exp2(crossing_octave(blocks, sss, css))}};
  return result;
}

}  // namespace

Experiment pack_beta1_experiment() { return {pack_beta1_schema(), run_pack_beta1, check_pack_beta1}; }

}  // namespace redist::sim
