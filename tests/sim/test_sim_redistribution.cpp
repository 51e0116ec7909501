// Whole redistributions on the simulated platforms: real data verified element by element, phantom
// runs timed like real ones, every schedule on every platform.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <random>

#include "redist/predict/predicted_comm.hpp"
#include "redist/reports/simulation_report.hpp"
#include "redist/predict/prediction.hpp"
#include "redist/redistribute/relabelling.hpp"
#include "redist/schedule/schedule_choice.hpp"
#include "redist/sim/engine.hpp"
#include "redist/sim/machine_model_from_platform.hpp"
#include "../sanitizer_share.hpp"
#include "../temp_dir.hpp"

namespace redist {
namespace {

struct Platform {
  const char* file;
  Index hosts;
};

const std::vector<Platform> kPlatforms = {{"sp2.xml", 64},           {"paragon.xml", 64},  {"cm5.xml", 256},
                                          {"linux-fe-2003.xml", 16}, {"alpha3000.xml", 1}, {"modern-100g.xml", 64}};
const std::vector<std::string> kSchedules = {"async", "caterpillar", "stepwise", "greedy"};

std::string platform_path(const Platform& p) { return std::string(REDIST_SOURCE_DIR) + "/platforms/" + p.file; }

RunSummary run(const Platform& platform, const Layout& source, const Layout& dest, const RedistributeOptions& options,
               bool phantom) {
  sim::SimulationOptions sim;
  sim.platform_file = platform_path(platform);
  sim.ranks = static_cast<int>(options.ranks.ranks_needed(source.processors(), dest.processors()));
  sim.phantom = phantom;
  return summarize_ranks(sim::simulate(sim, [&](Transport& transport) {
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
  }));
}

// Source and destination ranks: shared, disjoint, or overlapping by a random shift.
RankMap random_placement(std::mt19937_64& rng, Index P, Index Q, Index hosts) {
  const Index max_shift = std::max<Index>(0, std::min(P, hosts - Q));
  const Index shift = std::uniform_int_distribution<Index>(0, max_shift)(rng);
  return {0, shift};
}

Layout random_2d(std::mt19937_64& rng, Index rows, Index cols, Index max_procs) {
  std::uniform_int_distribution<Index> block(1, 6);
  const Index pr = std::uniform_int_distribution<Index>(1, std::max<Index>(1, max_procs / 2))(rng);
  const Index pc = std::uniform_int_distribution<Index>(1, std::max<Index>(1, max_procs / pr))(rng);
  const auto storage = rng() % 2 ? StorageOrder::RowMajor : StorageOrder::ColumnMajor;
  std::vector<DimMapping> dims = {DimMapping::distributed(BlockCyclic(rows, block(rng), pr)),
                                  DimMapping::distributed(BlockCyclic(cols, block(rng), pc))};
  if (rng() % 4 == 0) dims[1] = DimMapping::collapsed(cols);
  return MultiDimLayout(dims, storage);
}

TEST(SimulatedRedistribution, RandomRunsVerifyOnEveryPlatform) {
  std::mt19937_64 rng(20261122);
  int runs = 0, two_dimensional = 0, disjoint = 0, overlapping = 0, uneven = 0;
  const int cases = test::sampled_cases(210);
  for (int n = 0; n < cases; ++n) {
    const Platform& platform = kPlatforms[static_cast<std::size_t>(n) % kPlatforms.size()];
    const Index max_procs = std::min<Index>(platform.hosts, 12);
    std::uniform_int_distribution<Index> procs(1, max_procs), block(1, 9);
    const bool flat = n % 3 != 0;
    Index P = 0, Q = 0;
    Layout source = BlockCyclic(1, 1, 1), dest = BlockCyclic(1, 1, 1);
    if (flat) {
      P = procs(rng), Q = procs(rng);
      const Index N = std::uniform_int_distribution<Index>(1, 4000)(rng);
      const Index r = block(rng), s = block(rng);
      source = BlockCyclic(N, r, P);
      dest = BlockCyclic(N, s, Q);
      uneven += N % std::lcm(P * r, Q * s) != 0;
    } else {
      const Index rows = std::uniform_int_distribution<Index>(1, 40)(rng), cols = std::uniform_int_distribution<Index>(1, 40)(rng);
      source = random_2d(rng, rows, cols, max_procs);
      dest = random_2d(rng, rows, cols, max_procs);
      P = source.processors(), Q = dest.processors();
      ++two_dimensional;
    }
    RedistributeOptions options;
    options.elem_bytes = std::uniform_int_distribution<Index>(1, 16)(rng);
    options.schedule = kSchedules[rng() % kSchedules.size()];
    options.ranks = random_placement(rng, P, Q, platform.hosts);
    disjoint += options.ranks.dest_first >= P;
    overlapping += options.ranks.dest_first > 0 && options.ranks.dest_first < P;
    SCOPED_TRACE(testing::Message() << platform.file << " run " << n << " P=" << P << " Q=" << Q << " schedule="
                                    << options.schedule << " dest_first=" << options.ranks.dest_first);
    const RunSummary summary = run(platform, source, dest, options, false);
    ASSERT_TRUE(summary.verified.has_value());
    ASSERT_TRUE(*summary.verified) << summary.misplaced << " misplaced";
    ASSERT_GE(summary.phases.total, summary.phases.comm);
    ++runs;
  }
  EXPECT_EQ(runs, cases);
  EXPECT_GE(two_dimensional, cases * 2 / 7);
  EXPECT_GE(disjoint, cases / 21);
  EXPECT_GE(overlapping, cases / 21);
  EXPECT_GE(uneven, cases * 2 / 7);  // N not a multiple of the period lcm(P·r, Q·s)
}

// Relabelled destinations: every element still lands where the relabelled layout puts
// it, and the exact assignment keeps at least as many bytes on their rank as numbering does — more
// on some pairs, with fewer bytes sent.
// On one node whose cores share memory (memory.node), the asynchronous exchange hands messages over
// in place (shared_memory_exchange.hpp), as redist's MPI layer does: every element still lands where
// it belongs, real or phantom, and the run is faster than the same one sending the bytes as
// messages over the node's memory link (the same platform without memory.node).
const std::string kOneNode = std::string(REDIST_TEST_DATA) + "/platforms/one_node.xml";

// one_node.xml written as `name` in `dir`, each line through `edit` (false: left out).
std::string one_node_edited(const test::TempDir& dir, const std::string& name,
                            const std::function<bool(std::string&)>& edit) {
  const std::string path = (dir / name).string();
  std::ifstream in(kOneNode);
  std::ofstream out(path);
  for (std::string line; std::getline(in, line);) {
    if (edit(line)) out << line << "\n";
  }
  return path;
}

// one_node.xml without memory.node: its ranks send messages over the memory link.
std::string one_node_without_shared_memory(const test::TempDir& dir) {
  return one_node_edited(dir, "without-shared-memory.xml",
                         [](std::string& line) { return line.find("<prop id=\"memory.node\"") == std::string::npos; });
}

// A redistribution on `platform` with rank r on hosts[r], `check` looking at each rank's transport.
RunSummary run_on_hosts(const std::string& platform, const std::vector<std::string>& hosts, const Layout& source,
                        const Layout& dest, const RedistributeOptions& options, bool phantom,
                        const std::function<void(const Transport&)>& check = {}) {
  sim::SimulationOptions sim;
  sim.platform_file = platform;
  sim.ranks = static_cast<int>(hosts.size());
  sim.rank_hosts = hosts;
  sim.phantom = phantom;
  return summarize_ranks(sim::simulate(sim, [&](Transport& transport) {
    if (check) check(transport);
    return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
  }));
}

// A redistribution on `platform`'s four hosts, ranks dealt to them in turn.
RunSummary run_on_one_node(const std::string& platform, const Layout& source, const Layout& dest,
                           const RedistributeOptions& options, bool phantom) {
  std::vector<std::string> hosts;
  for (Index r = 0; r < options.ranks.ranks_needed(source.processors(), dest.processors()); ++r) {
    hosts.push_back("node-" + std::to_string(r % 4));
  }
  return run_on_hosts(platform, hosts, source, dest, options, phantom, [&](const Transport& transport) {
    EXPECT_EQ(transport.shares_memory(), platform == kOneNode);
  });
}

TEST(SimulatedRedistribution, RanksSharingMemoryExchangeInPlaceAndVerify) {
  const std::string& shared = kOneNode;
  const test::TempDir dir("redist-one-node");
  const std::string messages = one_node_without_shared_memory(dir);
  std::mt19937_64 rng(20261126);
  for (int n = 0; n < 16; ++n) {
    std::uniform_int_distribution<Index> procs(1, 8), block(1, 40);
    const Index N = std::uniform_int_distribution<Index>(1, 300000)(rng);
    const Layout source = BlockCyclic(N, block(rng), procs(rng)), dest = BlockCyclic(N, block(rng), procs(rng));
    const RedistributeOptions options;  // prylli, async
    SCOPED_TRACE(testing::Message() << "run " << n << ": N " << N);
    const auto run = [&](const std::string& platform, bool phantom) {
      return run_on_one_node(platform, source, dest, options, phantom);
    };
    const RunSummary in_place = run(shared, false), sent = run(messages, false);
    ASSERT_EQ(in_place.verified, std::optional<bool>(true)) << in_place.misplaced << " misplaced";
    EXPECT_EQ(in_place.bytes, sent.bytes);
    EXPECT_LE(in_place.phases.total, sent.phases.total * (1 + 1e-9));
    if (sent.bytes > 100000) {
      EXPECT_LT(in_place.phases.total, sent.phases.total);
    }
    EXPECT_EQ(run(shared, true).phases.total, in_place.phases.total);  // phantom, timed alike
  }
}

// Sources in storage every rank reads in place (sources: shared, as an MPI SharedArray): a message of
// long pieces is copied once, straight out of its sender's source, and verifies; short-pieced ones
// are still packed. Phantom runs are timed alike, and the exchange takes no longer than from
// private sources (one copy instead of two, one barrier more).
TEST(SimulatedRedistribution, SourcesInSharedStorageAreCopiedOnce) {
  std::mt19937_64 rng(20261129);
  for (int n = 0; n < 8; ++n) {
    std::uniform_int_distribution<Index> procs(2, 6), block(16, 400);  // pieces of 128 bytes and more
    const Index N = std::uniform_int_distribution<Index>(50000, 300000)(rng);
    const Layout source = BlockCyclic(N, block(rng), procs(rng)), dest = BlockCyclic(N, block(rng), procs(rng));
    const RedistributeOptions options;
    SCOPED_TRACE(testing::Message() << "run " << n << ": N " << N);
    const auto run = [&](bool shared, bool phantom) {
      sim::SimulationOptions sim;
      sim.platform_file = kOneNode;
      sim.ranks = static_cast<int>(options.ranks.ranks_needed(source.processors(), dest.processors()));
      for (int r = 0; r < sim.ranks; ++r) sim.rank_hosts.push_back("node-" + std::to_string(r % 4));
      sim.phantom = phantom;
      sim.sources_shared = shared;
      Index once = 0;
      const auto reports = sim::simulate(sim, [&](Transport& transport) {
        const VerifiedReport v = redistribute_and_verify(transport, source, dest, options);
        return std::to_string(v.report.bytes_copied_once) + " " + rank_report_to_json(v);
      });
      std::vector<std::string> json;
      for (const std::string& r : reports) {
        once += std::stoll(r.substr(0, r.find(' ')));
        json.push_back(r.substr(r.find(' ') + 1));
      }
      return std::pair{summarize_ranks(json), once};
    };
    const auto [shared, once] = run(true, false);
    const auto [private_sources, none] = run(false, false);
    ASSERT_EQ(shared.verified, std::optional<bool>(true)) << shared.misplaced << " misplaced";
    EXPECT_EQ(none, 0);
    EXPECT_GT(once, 0);
    EXPECT_LE(once, shared.bytes);
    EXPECT_EQ(shared.bytes, private_sources.bytes);
    EXPECT_LE(shared.phases.pack + shared.phases.unpack, private_sources.phases.pack + private_sources.phases.unpack);
    EXPECT_EQ(run(true, true).first.phases.total, shared.phases.total);  // phantom, timed alike
  }
}

// A rank copies the data that stays on it once, straight from source to destination storage, as
// redist's MPI layer does, whether the ranks exchange in place or send messages (exchange_direct);
// an exchange along a schedule packs and unpacks it as a message to itself. With nothing to move
// (the same layout on both sides), the copying then costs half: bytes once instead of twice, on
// every size and block.
TEST(SimulatedRedistribution, RanksCopyTheDataThatStaysOnce) {
  const test::TempDir dir("redist-one-node-local");
  const std::string messages = one_node_without_shared_memory(dir);
  std::mt19937_64 rng(20261127);
  for (int n = 0; n < 8; ++n) {
    const Index N = std::uniform_int_distribution<Index>(100000, 400000)(rng);
    const Layout layout = BlockCyclic(N, std::uniform_int_distribution<Index>(1, 64)(rng), 4);
    RedistributeOptions options;
    options.elem_bytes = 8;
    RedistributeOptions stepped = options;
    stepped.schedule = "caterpillar";
    SCOPED_TRACE(testing::Message() << "run " << n << ": N " << N);
    const RunSummary in_place = run_on_one_node(kOneNode, layout, layout, options, false);
    const RunSummary direct = run_on_one_node(messages, layout, layout, options, false);
    const RunSummary twice = run_on_one_node(messages, layout, layout, stepped, false);
    ASSERT_EQ(in_place.verified, std::optional<bool>(true));
    ASSERT_EQ(direct.verified, std::optional<bool>(true));
    ASSERT_EQ(twice.verified, std::optional<bool>(true));
    EXPECT_EQ(in_place.bytes, 0);
    EXPECT_EQ(direct.bytes, 0);
    const auto copying = [](const RunSummary& run) { return run.phases.pack + run.phases.unpack; };
    EXPECT_NEAR(copying(in_place), copying(twice) / 2, copying(twice) * 1e-3);
    EXPECT_NEAR(copying(direct), copying(twice) / 2, copying(twice) * 1e-3);
    EXPECT_EQ(run_on_one_node(kOneNode, layout, layout, options, true).phases.total, in_place.phases.total);
    EXPECT_EQ(run_on_one_node(messages, layout, layout, options, true).phases.total, direct.phases.total);
  }
}

// one_node.xml with node-0 given two cores.
std::string one_node_with_two_cores(const test::TempDir& dir) {
  return one_node_edited(dir, "two-cores.xml", [](std::string& line) {
    const std::string host = "<host id=\"node-0\" speed=\"1Gf\"";
    if (const auto at = line.find(host); at != std::string::npos) line.insert(at + host.size(), " core=\"2\"");
    return true;
  });
}

// The index phase of a naive redistribution (every rank computes at once, then exchanges) with rank
// r on hosts[r].
double index_phase(const std::string& platform, const std::vector<std::string>& hosts, const Layout& source,
                   const Layout& dest, const RedistributeOptions& options) {
  const RunSummary run = run_on_hosts(platform, hosts, source, dest, options, false);
  EXPECT_EQ(run.verified, std::optional<bool>(true));
  return run.phases.index;
}

// Ranks sharing a host's cores get them in proportion to their work, each held to one core, so that
// work started together ends together when it can: the index phase on a 2-core host is
// max(longest rank's work, all ranks' work / 2), the best a scheduler can do, as predict_local prices
// it and as a real run's fastest repetition measures (the sender of 1 -> 5 on this machine: 12.7-14.3
// ms in the fastest of 15 runs, 12.4 ms alone, an even share 20.5 ms).
TEST(SimulatedRedistribution, RanksSharingCoresEndWorkStartedTogetherTogether) {
  const test::TempDir dir("redist-two-cores");
  const std::string platform = one_node_with_two_cores(dir);
  std::mt19937_64 rng(20261128);
  for (int n = 0; n < 8; ++n) {
    const Index N = std::uniform_int_distribution<Index>(20000, 200000)(rng);
    const Index P = n == 0 ? 1 : std::uniform_int_distribution<Index>(1, 3)(rng);
    const Index Q = n == 0 ? 3 : std::uniform_int_distribution<Index>(1, 4 - P)(rng);
    const Layout source = BlockCyclic(N, std::uniform_int_distribution<Index>(1, 50)(rng), P);
    const Layout dest = BlockCyclic(N, std::uniform_int_distribution<Index>(1, 50)(rng), Q);
    RedistributeOptions options;
    options.indexing = "naive";  // index work: one scan of each rank's own elements, its share of N
    options.ranks = RankMap::disjoint(P);
    SCOPED_TRACE(testing::Message() << "run " << n << ": N " << N << ", " << P << " -> " << Q);
    const auto ranks = static_cast<std::size_t>(P + Q);
    std::vector<std::string> alone, one_core(ranks, "node-1"), two_cores(ranks, "node-0");
    for (std::size_t r = 0; r < ranks; ++r) alone.push_back("node-" + std::to_string(r));
    const double longest = index_phase(platform, alone, source, dest, options);  // each on a host of its own
    const double all = index_phase(platform, one_core, source, dest, options);   // one core: the sum
    const double shared = index_phase(platform, two_cores, source, dest, options);
    EXPECT_NEAR(shared, std::max(longest, all / 2), all * 1e-6);
    if (n == 0) {  // an even share: the 3 receivers' Y each done at 2Y, then the sender's X - Y alone
      const double receiver = (all - longest) / 3;
      EXPECT_LT(shared, (longest + receiver) * 0.9);
    }
  }
}

TEST(SimulatedRedistribution, RelabelledRunsVerifyAndKeepMoreLocal) {
  std::mt19937_64 rng(20261125);
  const Platform& platform = kPlatforms[0];
  int more = 0;
  for (int n = 0; n < 40; ++n) {
    std::uniform_int_distribution<Index> procs(1, 10), block(1, 9);
    Layout source = BlockCyclic(1, 1, 1), dest = BlockCyclic(1, 1, 1);
    if (n % 2 == 0) {
      const Index N = std::uniform_int_distribution<Index>(1, 4000)(rng);
      source = BlockCyclic(N, block(rng), procs(rng));
      dest = BlockCyclic(N, block(rng), procs(rng));
    } else {
      const Index rows = std::uniform_int_distribution<Index>(1, 40)(rng), cols = std::uniform_int_distribution<Index>(1, 40)(rng);
      source = random_2d(rng, rows, cols, 10);
      dest = random_2d(rng, rows, cols, 10);
    }
    RedistributeOptions options;
    options.elem_bytes = 8;
    options.schedule = kSchedules[rng() % kSchedules.size()];
    const RunSummary plain = run(platform, source, dest, options, false);
    const RelabelMethod method = n % 4 < 2 ? RelabelMethod::Exact : RelabelMethod::Greedy;
    options.ranks = relabelled_ranks(source, dest, method);
    SCOPED_TRACE(testing::Message() << "run " << n << " " << options.schedule << " "
                                    << relabel_method_names().name_of(method));
    const RunSummary relabelled = run(platform, source, dest, options, false);
    ASSERT_EQ(relabelled.verified, std::optional<bool>(true)) << relabelled.misplaced << " misplaced";
    EXPECT_EQ(relabelled.bytes + relabelled.bytes_kept, plain.bytes + plain.bytes_kept);
    if (method == RelabelMethod::Exact) {
      EXPECT_GE(relabelled.bytes_kept, plain.bytes_kept);
    }
    more += relabelled.bytes_kept > plain.bytes_kept;
  }
  EXPECT_GE(more, 10);
}

// Relabelling is index work: a run asked to relabel places the destination processors as one given
// the relabelled ranks does, and its index phase is longer by the priced work of relabelling.
TEST(SimulatedRedistribution, RelabellingIsChargedInTheIndexPhase) {
  const Platform& platform = kPlatforms[0];
  const Layout source = BlockCyclic(10007, 3, 8), dest = BlockCyclic(10007, 5, 8);
  RedistributeOptions placed;
  placed.elem_bytes = 8;
  Work counted;
  placed.ranks = relabelled_ranks(source, dest, RelabelMethod::Exact, counted);
  RedistributeOptions asked = placed;
  asked.relabel = "exact";
  const RunSummary given = run(platform, source, dest, placed, false), relabelled = run(platform, source, dest, asked, false);
  ASSERT_EQ(relabelled.verified, std::optional<bool>(true));
  EXPECT_EQ(relabelled.bytes_kept, given.bytes_kept);
  const WorkPrices prices = sim::machine_model_from_platform(platform_path(platform), 8).prices;
  ASSERT_GT(prices.seconds_for(counted), 0);
  EXPECT_NEAR(relabelled.phases.index - given.phases.index, prices.seconds_for(counted), 1e-12);
  EXPECT_NEAR(relabelled.phases.total - given.phases.total, prices.seconds_for(counted), 1e-9);
}

// The node's memory is priced alike by the simulator and by `auto`'s prediction: ranks with the same
// work pack at once, and share the node's memory as the prediction takes them to (node_memory.xml:
// one host of 4 cores, a rank copies at most 6 GB/s beyond 4 MiB, all ranks together 15).
TEST(SimulatedRedistribution, PackingSharesTheNodesMemoryAsPredicted) {
  const std::string file = std::string(REDIST_TEST_DATA) + "/platforms/node_memory.xml";
  for (const Index ranks : {1, 2, 4}) {
    // 4-element (32-byte) pieces in source storage: every message to another rank is packed.
    const Layout source = BlockCyclic(Index{8} << 20, 16, ranks), dest = BlockCyclic(Index{8} << 20, 4, ranks);
    RedistributeOptions options;
    options.elem_bytes = 8;
    options.indexing = "prylli";
    options.schedule = "async";
    sim::SimulationOptions sim;
    sim.platform_file = file;
    sim.ranks = static_cast<int>(ranks);
    sim.rank_hosts.assign(static_cast<std::size_t>(ranks), "node-0");
    sim.phantom = true;
    const RunSummary simulated = summarize_ranks(sim::simulate(sim, [&](Transport& transport) {
      return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
    }));
    const MachineModel model = sim::machine_model_from_platform(file, ranks, 1);
    ASSERT_TRUE(model.memory);
    const auto cs = candidates(source, dest, RankMap::shared(), {"prylli", "async", "none"});
    const Phases predicted = predict_all_ranks(source, dest, 8, RankMap::shared(), cs, model).at(0).phases;
    if (ranks == 1) {  // nothing to pack: the one rank copies its data once
      EXPECT_EQ(simulated.phases.pack, 0);
      EXPECT_EQ(predicted.pack, 0);
      continue;
    }
    // Within SimGrid's max-min solver precision (1e-5 of a share).
    EXPECT_NEAR(simulated.phases.pack / predicted.pack, 1, 1e-5) << ranks << " ranks";
    // 8 bytes an element, all but a rank's local part packed once (the local part is copied with the
    // unpacking): at 6 GB/s for 1 and 2 ranks, 3.75 for 4.
    const double bytes = 8.0 * static_cast<double>((Index{8} << 20) / ranks) * static_cast<double>(ranks - 1) / ranks;
    EXPECT_GT(predicted.pack, bytes / (ranks == 4 ? 3.75e9 : 6e9)) << ranks << " ranks";
  }
}

// With loop factors (node_memory_loops.xml: packs 1.5, unpacks 1.25 times the memory's time), the
// simulator and the prediction price each phase's copies by its loop alike, whatever the exchange:
// the packs take 1.5 times as long in the memory as without.
TEST(SimulatedRedistribution, EachLoopsFactorIsPricedAsPredicted) {
  const Index ranks = 2;
  const Layout source = BlockCyclic(Index{8} << 20, 16, ranks), dest = BlockCyclic(Index{8} << 20, 4, ranks);
  for (const char* schedule : {"async", "caterpillar"}) {
    std::map<std::string, Phases> simulated, predicted;
    for (const char* platform : {"node_memory.xml", "node_memory_loops.xml"}) {
      const std::string file = std::string(REDIST_TEST_DATA) + "/platforms/" + platform;
      RedistributeOptions options;
      options.elem_bytes = 8;
      options.indexing = "prylli";
      options.schedule = schedule;
      sim::SimulationOptions sim;
      sim.platform_file = file;
      sim.ranks = static_cast<int>(ranks);
      sim.rank_hosts.assign(static_cast<std::size_t>(ranks), "node-0");
      sim.phantom = true;
      simulated[platform] = summarize_ranks(sim::simulate(sim, [&](Transport& transport) {
                              return rank_report_to_json(redistribute_and_verify(transport, source, dest, options));
                            })).phases;
      const MachineModel model = sim::machine_model_from_platform(file, ranks, 1);
      const auto cs = candidates(source, dest, RankMap::shared(), {"prylli", schedule, "none"});
      predicted[platform] = predict_all_ranks(source, dest, 8, RankMap::shared(), cs, model).at(0).phases;
      EXPECT_NEAR(simulated[platform].pack / predicted[platform].pack, 1, 1e-5) << schedule << " on " << platform;
      EXPECT_NEAR(simulated[platform].unpack / predicted[platform].unpack, 1, 1e-3) << schedule << " on " << platform;
    }
    const MachineModel plain = sim::machine_model_from_platform(std::string(REDIST_TEST_DATA) + "/platforms/node_memory.xml", ranks, 1);
    // What the pack's loop adds is half the memory's time for the bytes it packs: the message to the
    // other rank, and under a schedule the one to itself too (the asynchronous exchange copies that
    // with its unpacking); the unpacks take longer too.
    const Phases& with = simulated["node_memory_loops.xml"];
    const Phases& without = simulated["node_memory.xml"];
    const double packed = 8.0 * static_cast<double>((Index{8} << 20) / ranks) * (std::string(schedule) == "async" ? 0.5 : 1.0);
    EXPECT_NEAR((with.pack - without.pack) / (0.5 * plain.memory->copy_seconds(packed, ranks)), 1, 1e-3) << schedule;
    EXPECT_GT(with.unpack, 1.01 * without.unpack) << schedule;
  }
}

// N not a multiple of the period lcm(P·r, Q·s), on every platform large enough.
TEST(SimulatedRedistribution, PartialLastSliceVerifies) {
  for (const auto& platform : kPlatforms) {
    if (platform.hosts < 6) continue;
    const Layout source = BlockCyclic(1000 + 7, 10, 5), dest = BlockCyclic(1007, 3, 6);
    RedistributeOptions options;
    options.elem_bytes = 4;
    const auto summary = run(platform, source, dest, options, false);
    EXPECT_EQ(summary.verified, std::optional<bool>(true)) << platform.file;
  }
}

// Every schedule moves real data on every platform, and its phantom twin takes exactly as long.
TEST(SimulatedRedistribution, PhantomRunsTakeExactlyAsLongAsRealOnes) {
  for (const auto& platform : kPlatforms) {
    for (const auto& schedule : kSchedules) {
      const Index P = std::min<Index>(platform.hosts, 6), Q = std::min<Index>(platform.hosts, 4);
      const Layout source = BlockCyclic(5000, 10, P), dest = BlockCyclic(5000, 2, Q);
      RedistributeOptions options;
      options.elem_bytes = 4;
      options.schedule = schedule;
      SCOPED_TRACE(std::string(platform.file) + " " + schedule);
      const auto real = run(platform, source, dest, options, false);
      const auto phantom = run(platform, source, dest, options, true);
      ASSERT_EQ(real.verified, std::optional<bool>(true));
      EXPECT_FALSE(phantom.verified.has_value());
      EXPECT_EQ(real.phases.index, phantom.phases.index);
      EXPECT_EQ(real.phases.pack, phantom.phases.pack);
      EXPECT_EQ(real.phases.comm, phantom.phases.comm);
      EXPECT_EQ(real.phases.unpack, phantom.phases.unpack);
      EXPECT_EQ(real.phases.total, phantom.phases.total);
      EXPECT_EQ(real.bytes, phantom.bytes);
    }
  }
}

// Paper 004's example 4 (table 10: CYCLIC(4) on 12 -> CYCLIC(3) on 8, L = 48) on the Paragon, the
// paper's procedure: 24 messages of which (0,0), (1,1) and (2,2) stay on their rank (shared grid),
// so 21 travel; every buffer is unpacked after the timed steps, so `comm` no longer holds the
// unpacking the steps did before, and the data still all arrives. Its caterpillar also sends 19
// empty messages: the 8 pairs of each of the 6 steps with data (table 19) are 48, less step a's 8
// that sit on one rank, less the 21 that carry data.
TEST(SimulatedRedistribution, PaperProcedureUnpacksAfterTheTimedSteps) {
  const Layout source = BlockCyclic(48 * 1000, 4, 12), dest = BlockCyclic(48 * 1000, 3, 8);
  for (const std::string schedule : {"caterpillar", "stepwise", "greedy"}) {
    RedistributeOptions options;
    options.schedule = schedule;
    const RunSummary on_arrival = run(kPlatforms[1], source, dest, options, false);
    options.step_procedure = StepProcedure::Paper004;
    const RunSummary after = run(kPlatforms[1], source, dest, options, false);
    EXPECT_TRUE(after.verified.value_or(false)) << schedule;
    EXPECT_EQ(after.messages, schedule == "caterpillar" ? 40 : 21) << schedule;
    EXPECT_EQ(after.bytes, on_arrival.bytes) << schedule;
    EXPECT_LT(after.phases.comm, on_arrival.phases.comm) << schedule;
    EXPECT_GT(after.phases.unpack, 0) << schedule;
  }
}

TEST(SimulatedRedistribution, MoreRanksThanHostsIsAnError) {
  const Layout source = BlockCyclic(100, 1, 17), dest = BlockCyclic(100, 1, 3);
  try {
    run(kPlatforms[3], source, dest, RedistributeOptions{}, false);  // 16 hosts
    FAIL() << "17 ranks on 16 hosts accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace redist

namespace redist {
namespace {

// Ranks beyond the cores priced alike by the simulator and by `auto`'s prediction, from the curves a
// platform declares by ranks per core (two_cores_by_level.xml: 2 cores, 1 ms slices; copies 1.5 times
// as long below 2 ranks per core, twice from 2; all-to-all 10 MB/s below 2, 25 MB/s from 2): the same
// copy on every rank, and a ring of messages, on 3 and 4 ranks.
TEST(SimulatedRedistribution, RanksBeyondTheCoresArePricedAsPredicted) {
  const std::string file = std::string(REDIST_TEST_DATA) + "/platforms/two_cores_by_level.xml";
  constexpr Index kBytes = 200'000;
  for (const Index ranks : {3, 4}) {
    sim::SimulationOptions sim;
    sim.platform_file = file;
    sim.ranks = static_cast<int>(ranks);
    sim.rank_hosts.assign(static_cast<std::size_t>(ranks), "node-0");
    sim.phantom = true;
    const Work copy(WorkKind::ByteCopied, 1'000'000);
    const auto last_end = [](const std::vector<std::string>& ends) {
      double last = 0;
      for (const std::string& end : ends) last = std::max(last, std::stod(end));
      return last;
    };
    const double copied = last_end(sim::simulate(sim, [&](Transport& t) {
      t.charge(copy);
      return std::to_string(t.now());
    }));
    const double ring = last_end(sim::simulate(sim, [&](Transport& t) {
      std::vector<Request> requests = {t.irecv((t.rank() + t.size() - 1) % t.size(), nullptr, kBytes, 0),
                                       t.isend((t.rank() + 1) % t.size(), nullptr, kBytes, 0)};
      t.wait_all(requests);
      return std::to_string(t.now());
    }));
    const auto model = sim::machine_model_from_platform(file, ranks, 1).run_by(ranks);
    ASSERT_TRUE(model) << ranks;
    const std::vector<double> each(static_cast<std::size_t>(ranks), model->run_seconds_for(copy, 1));
    EXPECT_NEAR(copied / model->busiest_host(each), 1, 1e-9) << ranks << " ranks";
    std::vector<RankMessage> messages;
    for (Index r = 0; r < ranks; ++r) messages.push_back({r, (r + 1) % ranks, kBytes});
    // The simulated copies interleave in 1 ms turns where the prediction sums a core's: within 1%.
    EXPECT_NEAR(ring / concurrent_messages_seconds(messages, *model), 1, 0.01) << ranks << " ranks";
  }
}

}  // namespace
}  // namespace redist
