// Paper 001's PACK/UNPACK on the simulator: the acceptance set of random cases against Fortran
// semantics (every scheme, both prefix-reduction-sum algorithms and the CM-5 control network), the
// pack experiment's verification, and the `redist pack` / `redist unpack` commands.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <cmath>
#include <random>
#include <utility>

#include "pack_case.hpp"
#include "redist/sim/engine.hpp"
#include "redist/experiments/experiments.hpp"
#include "redist/experiments/pack_experiment.hpp"
#include "run_command.hpp"

namespace redist {
namespace {

const std::string kCm5 = std::string(REDIST_SOURCE_DIR) + "/platforms/cm5.xml";
const std::string kSp2 = std::string(REDIST_SOURCE_DIR) + "/platforms/sp2.xml";

// A 1-D array of `extent` elements, CYCLIC(block) over 16 processors, under `mask`.
sim::PackRunConfig one_dimensional(Index extent, Index block, pack::MaskSpec mask) {
  sim::PackRunConfig c;
  c.extents = {extent};
  c.procs = {16};
  c.blocks = {block};
  c.mask = std::move(mask);
  return c;
}

// 300 random cases (ranks 1-3, random grids, block sizes, densities and the triangle mask), 30 per
// processor count, each case run in one simulation with all its processor count's other cases:
// PACK by SSS, CSS and CMS (CMS also after both preliminary redistributions), UNPACK by SSS and CSS.
TEST(PackOnSimulator, ThreeHundredRandomCasesMatchFortranSemantics) {
  std::mt19937_64 rng(2024);
  int cases = 0;
  const std::vector<Index> proc_counts = {1, 2, 3, 4, 5, 6, 8, 9, 12, 16};
  for (std::size_t k = 0; k < proc_counts.size(); ++k) {
    const Index procs = proc_counts[k];
    std::vector<test::PackCase> batch;
    for (int i = 0; i < 30; ++i) batch.push_back(test::random_pack_case(rng, procs));
    sim::SimulationOptions options;
    options.platform_file = k % 3 == 2 ? kSp2 : kCm5;  // the SP2 has no control network
    options.ranks = static_cast<int>(procs);
    const auto results = sim::simulate(options, [&](Transport& t) {
      std::string errors;
      for (std::size_t i = 0; i < batch.size(); ++i) {
        const auto prs = static_cast<pack::PrsAlgorithm>(i % 3);
        using pack::Preredistribution;
        using pack::Scheme;
        for (const auto& [packing, unpacking, prered] :
             {std::tuple{Scheme::Simple, Scheme::Simple, Preredistribution::None},
              std::tuple{Scheme::CompactStorage, Scheme::CompactStorage, Preredistribution::None},
              std::tuple{Scheme::CompactMessage, Scheme::Simple, Preredistribution::None},
              std::tuple{Scheme::CompactMessage, Scheme::CompactStorage, static_cast<Preredistribution>(1 + i % 2)}}) {
          const auto error = test::check_pack_case(t, batch[i], packing, unpacking, prs, prered);
          if (!error.empty()) errors += batch[i].describe() + " scheme " + pack::scheme_name(packing) + ": " + error + "\n";
        }
      }
      return errors;
    });
    for (const auto& errors : results) EXPECT_EQ(errors, "") << "on " << procs << " processors";
    cases += static_cast<int>(batch.size());
  }
  EXPECT_EQ(cases, 300);
}

// The experiment verifies its result by checksum, PACK and UNPACK, 1-D (control network) and 2-D.
TEST(PackOnSimulator, ExperimentRunsAreVerified) {
  sim::PackRunConfig c = one_dimensional(256, 4, pack::MaskSpec::named("random", 30, 3));
  for (bool unpack : {false, true}) {
    c.unpack = unpack;
    const auto run = sim::run_pack(kCm5, c, "");
    EXPECT_TRUE(run.experiment.verified.value_or(false));
    EXPECT_GT(run.experiment.phases.total, run.experiment.phases.comm);
    EXPECT_GT(run.experiment.phases.prs, 0);
  }
  c.extents = {16, 16};
  c.procs = {2, 2};
  c.blocks = {1, 1};
  c.unpack = false;
  c.mask = pack::MaskSpec::named("triangle", 0, 1);
  c.redistribution = pack::Preredistribution::WholeArrays;
  c.scheme = pack::Scheme::CompactMessage;
  const auto run = sim::run_pack(kCm5, c, "");
  EXPECT_EQ(run.size, 16 * 15 / 2);
  EXPECT_GT(run.experiment.phases.redist, 0);
}

// Section 6.4's models by hand on a full mask: 1024 elements, CYCLIC(16) over 16 processors, so L = 64,
// C = 4 slices (tiles of 16), E_i = 64, Size = 1024 and E_a = 64. The *_ranked quantities add the
// intermediate step the section sets aside, Fig. 2 on C base-rank entries: 5C + 7 = 27 accesses.
TEST(PackOnSimulator, LocalModelsCountSectionSixFourAndTheIntermediateStep) {
  const auto run = sim::run_pack(kCm5, one_dimensional(1024, 16, pack::MaskSpec::named("random", 100, 1)), "");
  const auto& q = run.experiment.quantities;
  EXPECT_EQ(q.at("slices"), 4);
  EXPECT_EQ(q.at("model_local_sss"), 64 + 4 + 6 * 64 + 2 * 64);
  EXPECT_EQ(q.at("model_local_css"), 2 * 64 + 2 * 4 + 3 * 64 + 2 * 64);
  EXPECT_EQ(q.at("model_local_sss_ranked"), q.at("model_local_sss") + 27);
  EXPECT_EQ(q.at("model_local_css_ranked"), q.at("model_local_css") + 27);
}

// On the CM-5 model a 1-D ranking uses the control network: its prefix-reduction-sum costs what
// the control.* properties say (a scan and a reduction of T_0 words), not messages.
TEST(PackOnSimulator, OneDimensionalRankingUsesTheControlNetwork) {
  // T_0 = 4 words; a full mask: the same work everywhere, nobody waits for a late rank.
  sim::PackRunConfig c = one_dimensional(1024, 16, pack::MaskSpec::named("random", 100, 1));
  const auto run = sim::run_pack(kCm5, c, "");
  EXPECT_NEAR(run.experiment.phases.prs, 5e-6 + 5e-6 + 2 * 3 * 5e-6, 1e-9);
  c.prs = pack::PrsAlgorithm::Direct;
  EXPECT_GT(sim::run_pack(kCm5, c, "").experiment.phases.prs, 4 * 88e-6);  // lg 16 rounds of messages
}

// Paper 001's programs start every timed phase after a barrier (phase_timing.hpp): with the triangle
// mask at BLOCK half the processors hold every true element and come late to the scan; their lag
// stays in the local computation, and the prefix-reduction-sum is the control network's scan and
// reduction of T_0 = 1 word alone. Timed as run, the early processors' wait lands in it.
TEST(PackOnSimulator, PaperTimingKeepsALateRanksLagOutOfThePrefixReductionSum) {
  sim::PackRunConfig c = one_dimensional(1024, 64, pack::MaskSpec::named("triangle", 0, 1));
  c.accounting = WorkModel::Paper;
  EXPECT_NEAR(sim::run_pack(kCm5, c, "").experiment.phases.prs, 5e-6 + 5e-6, 1e-9);
  c.accounting = WorkModel::Redist;
  EXPECT_GT(sim::run_pack(kCm5, c, "").experiment.phases.prs, 2 * (5e-6 + 5e-6));
}

// Paper 001's UNPACK replies carry (datum, global rank) pairs (section 6.4.1), after requests of one
// rank each: three words per element against PACK's two, in two exchanges, so its communication
// costs 1.5 to 2 times PACK's ("may be two times as large", section 4.2). redist's own replies are the
// bare values in request order: about PACK's volume. Both are verified.
TEST(PackOnSimulator, PaperUnpackRepliesArePairs) {
  sim::PackRunConfig c = one_dimensional(65536, 16, pack::MaskSpec::named("random", 50, 7));
  const auto comm = [&](WorkModel accounting, bool unpack) {
    c.accounting = accounting;
    c.unpack = unpack;
    const auto run = sim::run_pack(kCm5, c, "");
    EXPECT_TRUE(run.experiment.verified.value_or(false));
    return run.experiment.phases.comm;
  };
  const double paper_ratio = comm(WorkModel::Paper, true) / comm(WorkModel::Paper, false);
  EXPECT_GT(paper_ratio, 1.4);
  EXPECT_LT(paper_ratio, 2.0);
  const double own_ratio = comm(WorkModel::Redist, true) / comm(WorkModel::Redist, false);
  EXPECT_LT(own_ratio, 1.25);
}

// Table I's derivation: β1 from the pack-beta1 experiment is the smallest block size from which CSS's
// local time stays at or below SSS's, checked against the local times of each run.
TEST(PackBeta1, IsTheBlockSizeFromWhichCssStaysAhead) {
  for (const auto& [d, n, procs, density] : {std::tuple{1, 2048, 16, 30}, std::tuple{2, 64, 4, 50}}) {
    const Params params = {{"d", d}, {"N", n}, {"P", procs}, {"density", density}};
    const auto result = sim::find_experiment("pack-beta1").run(kCm5, params, Payload::Real, "");
    const auto beta1 = static_cast<Index>(result.quantities.at("beta1"));
    std::vector<sim::PackRunConfig> configs;
    std::vector<Index> blocks;
    for (Index w = 1; w <= n / procs; w *= 2) {
      for (const char* scheme : {"sss", "css"}) {
        Params one = params;
        one["scheme"] = scheme;
        configs.push_back(sim::pack_config(one, w));
      }
      blocks.push_back(w);
    }
    const auto runs = sim::run_packs(kCm5, configs, "");
    ASSERT_GT(beta1, 0) << "CSS never catches up at density " << density;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      const double sss = runs[2 * k].experiment.phases.local, css = runs[2 * k + 1].experiment.phases.local;
      if (blocks[k] >= beta1) {
        EXPECT_LE(css, sss) << "W = " << blocks[k];
      }
      if (2 * blocks[k] == beta1) {
        EXPECT_GT(css, sss) << "W = " << blocks[k];
      }
    }
    // The fit's smooth stand-in: √2 × a crossing inside (β1/2, β1], so within √2 of β1.
    const double crossing = result.quantities.at("beta1_fit") / std::sqrt(2.0);
    EXPECT_GT(crossing, static_cast<double>(beta1) / 2);
    EXPECT_LE(crossing, static_cast<double>(beta1) * (1 + 1e-12));
    EXPECT_EQ(result.phases, Phases{}) << "beta1 is a block size, not a phase";
  }
}

// Table II's structure (section 6.3): redistributing whole arrays moves and detects every element
// whatever the mask (its time does not depend on the density); redistributing selected data moves
// the true elements only (its time grows with the density).
TEST(PackPreredistribution, WholeArraysIgnoreTheDensitySelectedDataFollowIt) {
  const auto& experiment = sim::find_experiment("pack");
  const auto redist_time = [&](const char* how, int density) {
    const Params p = {{"d", 2}, {"N", 64}, {"P", 4}, {"W", 1}, {"density", density}, {"scheme", "cms"}, {"redistribution", how}};
    return experiment.run(kCm5, p, Payload::Real, "").phases.redist;
  };
  EXPECT_DOUBLE_EQ(redist_time("whole", 10), redist_time("whole", 90));
  EXPECT_LT(redist_time("selected", 10), redist_time("selected", 50));
  EXPECT_LT(redist_time("selected", 50), redist_time("selected", 90));
}

std::string redist(const std::string& args) { return std::string(REDIST_BIN) + " " + args; }

TEST(PackCommand, JsonHasThePhases) {
  const auto result = test::run_command(redist("pack --platform " + kCm5 + " --shape 32x32 --grid 2x4 --block 2x4 --scheme cms --json"));
  ASSERT_EQ(result.status, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["operation"], "pack");
  EXPECT_EQ(json["shape"], nlohmann::json::array({32, 32}));
  EXPECT_EQ(json["grid"], nlohmann::json::array({2, 4}));
  EXPECT_EQ(json["verified"], true);
  for (const char* phase : {"local", "prs", "comm", "redist", "total"}) EXPECT_TRUE(json["phases"][phase].is_number());
  const auto unpack = test::run_command(redist("unpack --platform " + kCm5 + " --shape 8x8x8 --grid 2x1x2 --block 2 --mask triangle"));
  ASSERT_EQ(unpack.status, 0) << unpack.err;
  EXPECT_NE(unpack.out.find("UNPACK of a (8 x 8 x 8) array"), std::string::npos) << unpack.out;
  EXPECT_NE(unpack.out.find("verified yes"), std::string::npos) << unpack.out;
}

class BadPackInput : public ::testing::TestWithParam<const char*> {};

TEST_P(BadPackInput, OneClearErrorLine) {
  test::expect_one_error_line(test::run_command(redist(std::string(GetParam()) + " --platform " + kCm5)));
}

INSTANTIATE_TEST_SUITE_P(
    Pack, BadPackInput,
    ::testing::Values("pack --shape 30 --grid 4 --block 2", "pack --shape 32 --grid 0 --block 2",
                      "pack --shape 32 --grid 4 --block 0", "pack --shape 32x -1 --grid 4 --block 1",
                      "pack --shape 32x32 --grid 4 --block 1", "pack --shape 32 --grid 4 --block 1 --scheme fast",
                      "pack --shape 32 --grid 4 --block 1 --density 101", "pack --shape 32 --grid 4 --block 1 --mask odd",
                      "pack --shape 32 --grid 4 --block 1 --prs tree", "pack --shape 32 --grid 4 --block 1 --redistribution all",
                      "pack --shape 99999999999999999999 --grid 4 --block 1", "pack --shape 32 --grid 512 --block 1",
                      "pack --shape 4x4x4x4 --grid 1x1x1x1 --block 1", "unpack --shape 32 --grid 4 --block 1 --scheme cms",
                      "pack --shape 3000000000x3000000000x3000000000 --grid 1x1x1 --block 1", "pack --grid 4 --block 1",
                      "unpack --shape 32 --grid 4 --block 1 --redistribution whole"));

}  // namespace
}  // namespace redist
