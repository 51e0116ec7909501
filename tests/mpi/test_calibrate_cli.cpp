// `redist calibrate` and `redist validate` (they run redist-mpi under mpirun): a calibration writes
// a platform the simulator loads, with its fits kept in the file; validation reports a ratio per
// case and the error figures over them; bad arguments give one error line.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../run_command.hpp"
#include "redist/core/piecewise_curve.hpp"
#include "redist/sim/engine.hpp"
#include "../temp_dir.hpp"

namespace redist::test {
namespace {

const std::string kEnv =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
    "ASAN_OPTIONS=detect_leaks=0 ";  // Open MPI keeps what MPI_Init allocates

std::string redist(const std::string& args) { return kEnv + "timeout 300 " REDIST_BIN " " + args; }

TEST(Calibrate, WritesAPlatformTheSimulatorRunsAndValidateComparesWithIt) {
  // The calibrated platform and the machine model calibrate writes beside it (machine.model.json).
  const TempDir dir("redist-calibrated");
  const auto platform = dir / "machine.xml";
  const auto calibrated = run_command(redist("calibrate --max-bytes 65536 --seconds-per-size 0.002 --cores 2 --passes 2 --out " +
                                             platform.string()));
  ASSERT_EQ(calibrated.status, 0) << calibrated.err;
  EXPECT_NE(calibrated.out.find("piece from 0 B: latency"), std::string::npos) << calibrated.out;
  const std::string xml = slurp(platform);
  // One host with the machine's cores, its ranks' messages over the memory link.
  for (const char* part : {"cost.byte_copied", "cost.run_copied", "cost.index_op", "<host id=\"node-0\" speed=\"1Gf\" core=\"2\">",
                           "residual", "<link id=\"memory\"", "<route src=\"node-0\" dst=\"node-0\"",
                           "<prop id=\"redist.latency_factors\" value=\"0:1", "<prop id=\"redist.bandwidth_factors\" value=\"0:",
                           "<prop id=\"memory.copy_bandwidth\" value=\"0:", "<prop id=\"memory.node_bandwidth\" value=\"0:"}) {
    EXPECT_NE(xml.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(xml.find("node-1"), std::string::npos);
  // Its machine model, for `auto`: the one host, its two cores, the memory link to itself.
  auto model_path = platform;
  model_path.replace_extension(".model.json");
  const auto model = nlohmann::json::parse(slurp(model_path));
  EXPECT_EQ(model.at("hosts"), 1);
  EXPECT_EQ(model.at("cores"), 2);
  ASSERT_EQ(model.at("routes").size(), 1u);
  EXPECT_EQ(model.at("links").size(), 1u);
  EXPECT_EQ(model.at("links")[0].at("shared"), true);
  EXPECT_TRUE(model.contains("memory"));  // the node's memory, measured by 1 and 2 ranks copying at once
  std::filesystem::remove(model_path);
  const auto simulated = run_command(redist("simulate --platform " + platform.string() +
                                            " --hosts 1 -P 2 -r 3 -Q 2 -s 6 -N 10000 --indexing krr --json"));
  ASSERT_EQ(simulated.status, 0) << simulated.err;
  EXPECT_EQ(nlohmann::json::parse(simulated.out).at("verified"), true);

  const auto validated = run_command(redist("validate --quick --repeat 1 --json --platform " + platform.string()));
  ASSERT_EQ(validated.status, 0) << validated.err;
  const auto json = nlohmann::json::parse(validated.out);
  // Four 1-D cases, one 2-D benchmark pair, and pdgemr2d on it.
  ASSERT_EQ(json.at("cases").size(), 6u);
  int optimistic = 0;
  for (const auto& c : json.at("cases")) {
    EXPECT_GT(c.at("measured").get<double>(), 0);
    EXPECT_GT(c.at("simulated").get<double>(), 0);
    EXPECT_DOUBLE_EQ(c.at("ratio").get<double>(), c.at("simulated").get<double>() / c.at("measured").get<double>());
    optimistic += c.at("ratio").get<double>() < 1;
  }
  EXPECT_NE(json.at("cases")[3].at("case").get<std::string>().find("relabel exact"), std::string::npos);
  EXPECT_NE(json.at("cases")[4].at("case").get<std::string>().find("256x256 2x2 64x64"), std::string::npos);
  EXPECT_NE(json.at("cases")[5].at("case").get<std::string>().find("pdgemr2d"), std::string::npos);
  const auto& sets = json.at("misses").at("by_set");
  EXPECT_EQ(sets.at("1-D").at("cases"), 4);
  EXPECT_EQ(sets.at("2-D").at("cases"), 1);
  EXPECT_EQ(sets.at("pdgemr2d").at("cases"), 1);
  EXPECT_EQ(sets.at("within cores").at("cases").get<int>() + sets.at("beyond cores").at("cases").get<int>(), 6);
  EXPECT_EQ(json.at("cores"), 2);
  EXPECT_GE(json.at("median_relative_error").get<double>(), 0);
  EXPECT_GE(json.at("p90_relative_error").get<double>(), json.at("median_relative_error").get<double>());
  EXPECT_EQ(json.at("optimistic_cases").get<int>(), optimistic);
  EXPECT_EQ(json.at("worst_cases").size(), 5u);
  for (const auto& c : json.at("cases")) {  // the phases of the run whose total counted
    for (const char* side : {"measured", "simulated"}) {
      const auto& phases = c.at(std::string(side) + "_phases");
      EXPECT_EQ(phases.at("total"), c.at(side));
      // A run's total is its slowest rank's: no phase of any rank is longer.
      for (const char* phase : {"index", "pack", "comm", "unpack"}) EXPECT_LE(phases.at(phase), phases.at("total"));
    }
  }
}

// --passes: every ping-pong size, exchange and local-work row at its fastest pass, the passes one
// after another, each measuring everything once (so a slow spell of the machine falls on one pass of
// every measurement, not on all the passes of some). The stand-in for
// mpirun answers the first pass of each with times twice (ping-pong: latency and per-byte time twice)
// those of the later ones, exact lines: the fits give the second pass's 1 us + 1 ns/B, 1 ns per index op and
// 0.1 ns per byte copied.
TEST(Calibrate, PassesKeepTheFastestOfEachMeasurement) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-calibrate-passes");
  const fs::path launcher = dir / "mpirun", calls = dir / "calls";
  std::ofstream(launcher) << "#!/bin/sh\ncalls=" << calls.string() << R"(
case "$*" in *--busy*) kind=busy;; *--shared-core*) kind=sharedcore$2;; *pingpong*) kind=pingpong;; *exchange*) kind=exchange$2;;
  *sharedcopy*) kind=sharedcopy$2;;
  *) kind=localwork; echo "$2" >> $calls.localwork-ranks;; esac
echo $kind >> $calls.sequence
n=$(cat $calls.$kind 2>/dev/null || echo 0); echo $((n + 1)) > $calls.$kind
case $kind$n in
  pingpong0) echo '{"bytes": [1, 64, 1024, 65536, 1048576],
                    "seconds": [2.000002e-6, 2.128e-6, 4.048e-6, 1.33072e-4, 2.099152e-3]}';;
  pingpong*) echo '{"bytes": [1, 64, 1024, 65536, 1048576],
                    "seconds": [1.000001e-6, 1.064e-6, 2.024e-6, 6.6536e-5, 1.049576e-3]}';;
  busy0) echo '{"round_trip": 0.008}';;
  busy*) echo '{"round_trip": 0.004}';;
  sharedcore*0) echo '{"round_trip": 1}';;
  sharedcore*) echo "{\"round_trip\": $(cat $calls.roundtrip$2)}";;
  exchange20) echo '{"ranks": 2, "bytes": 4194304, "seconds": 1, "bandwidth": 2.5e8}';;
  exchange2*) echo "{\"ranks\": 2, \"bytes\": 4194304, \"seconds\": 1, \"bandwidth\": $(cat $calls.bandwidth)}";;
  exchange*0) echo "{\"ranks\": $2, \"bytes\": 65536, \"seconds\": 1, \"bandwidth\": 2.5e6}";;
  exchange*) echo "{\"ranks\": $2, \"bytes\": 65536, \"seconds\": 1, \"bandwidth\": $(awk "BEGIN { print $(cat $calls.bandwidth) / $2 }")}";;
  sharedcopy*0) echo "{\"ranks\": $2, \"bytes\": 4194304, \"seconds\": 1}";;
  sharedcopy*) echo "{\"ranks\": $2, \"bytes\": 4194304, \"seconds\": $(cat $calls.copy$2)}";;
  localwork0) echo '{"index": [{"work": {"cost.index_op": 1000}, "seconds": 2e-6}],
                     "copies": [{"work": {"cost.byte_copied": 10000}, "seconds": 2e-6}]}';;
  *) echo '{"index": [{"work": {"cost.index_op": 1000}, "seconds": 1e-6}],
            "copies": [{"work": {"cost.byte_copied": 10000}, "seconds": 1e-6}]}';;
esac
)";
  fs::permissions(launcher, fs::perms::owner_all);
  const auto platform = dir / "machine.xml";
  // Packing at once, after the first pass: 1 ms at one rank per core; at 3, 4, 6 and 8 ranks (two,
  // two, three and four turns on the busiest core) 1.5, 2, 2 and 3 times what turns give.
  const std::vector<std::pair<int, double>> copies = {{2, 1e-3}, {3, 3e-3}, {4, 4e-3}, {6, 6e-3}, {8, 12e-3}};
  for (const auto& [ranks, seconds] : copies) std::ofstream(calls.string() + ".copy" + std::to_string(ranks)) << seconds << "\n";
  // Two ranks sharing a core, after the first pass: round trips of 2 x (switch + the 8-byte message's
  // one-way time, 1.008 us on the ping-pong's fastest pass) with switches of 5, 10, 20 and 30 us.
  const std::vector<std::pair<int, double>> switches = {{3, 5e-6}, {4, 10e-6}, {6, 20e-6}, {8, 30e-6}};
  for (const auto& [ranks, seconds] : switches) {
    std::ofstream(calls.string() + ".roundtrip" + std::to_string(ranks)) << 2 * (seconds + 1.008e-6) << "\n";
  }
  const std::vector<const char*> kinds = {".pingpong",    ".busy",        ".exchange2",   ".exchange3",   ".exchange4",
                                          ".exchange6",   ".exchange8",   ".sharedcopy2", ".sharedcopy3", ".sharedcopy4",
                                          ".sharedcopy6", ".sharedcopy8", ".sharedcore3", ".sharedcore4",
                                          ".sharedcore6", ".sharedcore8", ".localwork"};
  // The later exchanges move 4 GB/s together (above the ping-pong's 1 GB/s), then 0.5 GB/s (below):
  // the link's bandwidth either way; beyond the cores, n ranks move 1/n of it.
  for (const double exchanged : {4e9, 5e8}) {
    for (const char* kind : kinds) fs::remove(calls.string() + kind);
    fs::remove(calls.string() + ".localwork-ranks");
    fs::remove(calls.string() + ".sequence");
    std::ofstream(calls.string() + ".bandwidth") << exchanged << "\n";
    const auto run = run_command(redist("calibrate --passes 3 --cores 2 --mpirun " + launcher.string() + " --out " +
                                        platform.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    for (const char* kind : kinds) EXPECT_EQ(slurp(calls.string() + kind), "3\n") << kind;
    EXPECT_EQ(slurp(calls.string() + ".localwork-ranks"), "2\n2\n2\n");  // one rank per core
    // Pass after pass, each measuring everything once, in the same order.
    const std::string one_pass =
        "pingpong\nexchange2\nexchange3\nexchange4\nexchange6\nexchange8\nbusy\nsharedcore3\nsharedcore4\n"
        "sharedcore6\nsharedcore8\nsharedcopy2\nsharedcopy3\nsharedcopy4\nsharedcopy6\nsharedcopy8\nlocalwork\n";
    EXPECT_EQ(slurp(calls.string() + ".sequence"), one_pass + one_pass + one_pass);
    const std::string xml = slurp(platform);
    // The first pass alone would give twice these (the link half as fast).
    const auto value = [&](const std::string& before, std::size_t from = 0) {
      const std::size_t at = xml.find(before, from);
      return at == std::string::npos ? -1.0 : std::stod(xml.substr(at + before.size()));
    };
    // The link has the exchange's fastest pass; the message-size curve (hockney.r_inf its end) stays
    // the ping-pong's.
    const std::size_t link = xml.find("<link id=\"memory\"");
    EXPECT_NEAR(value("bandwidth=\"", link) / exchanged, 1, 0.01) << xml;
    // Beyond the cores, by ranks per core from 0 (3 ranks), 2, 3 and 4: 1/n of it, each level from its
    // own fastest pass; the copy slowdowns likewise.
    const auto curve = [&](const std::string& property, std::size_t from) {
      const std::string before = "<prop id=\"" + property + "\" value=\"";
      const std::size_t at = xml.find(before, from);
      if (at == std::string::npos) return PiecewiseCurve();
      const std::size_t start = at + before.size();
      return PiecewiseCurve::parse(xml.substr(start, xml.find('"', start) - start), false);
    };
    const PiecewiseCurve bandwidths = curve("redist.oversubscribed_bandwidths", link);
    EXPECT_EQ(bandwidths.starts(), (std::vector<double>{0, 2, 3, 4})) << xml;
    const std::vector<int> levels = {3, 4, 6, 8};
    for (std::size_t k = 0; k < levels.size() && k < bandwidths.values().size(); ++k) {
      EXPECT_NEAR(bandwidths.values()[k] / (exchanged / levels[k]), 1, 1e-5) << levels[k] << " ranks";
    }
    const PiecewiseCurve slowdowns = curve("redist.copy_slowdown", 0);
    EXPECT_EQ(slowdowns.starts(), (std::vector<double>{0, 2, 3, 4})) << xml;
    const std::vector<double> expected = {1.5, 2, 2, 3};
    ASSERT_EQ(slowdowns.values().size(), expected.size()) << xml;
    for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(slowdowns.values()[k], expected[k], 1e-9) << k;
    const PiecewiseCurve switch_costs = curve("redist.switch_cost", 0);
    EXPECT_EQ(switch_costs.starts(), (std::vector<double>{0, 2, 3, 4})) << xml;
    ASSERT_EQ(switch_costs.values().size(), switches.size()) << xml;
    for (std::size_t k = 0; k < switches.size(); ++k) EXPECT_NEAR(switch_costs.values()[k] / switches[k].second, 1, 1e-3) << k;
    EXPECT_NEAR(value("<prop id=\"hockney.r_inf\" value=\"") / 1e9, 1, 0.01) << xml;
    // Two cores: a round trip beside computing ranks is one time slice.
    EXPECT_NEAR(value("<prop id=\"cpu.time_slice\" value=\"") / 0.004, 1, 1e-6) << xml;
    EXPECT_NEAR(value("latency=\"", link) / 1e-6, 1, 0.01) << xml;
    EXPECT_NEAR(value("<prop id=\"cost.index_op\" value=\"") / 1e-9, 1, 1e-6);
    EXPECT_NEAR(value("<prop id=\"cost.byte_copied\" value=\"") / 1e-10, 1, 1e-6);
  }
}

// The node's memory: calibrate models the copies it measured with 1, 2 and all 4 ranks copying at
// once (a stand-in for mpirun reports them, each bandwidth one rank's), and the simulator, on the
// platform it writes, copies at those bandwidths within 15%: k ranks copying W bytes each at once.
TEST(Calibrate, SimulatedCopiesOfOneTwoAndAllRanksMatchTheMeasuredBandwidth) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-calibrate-memory");
  const fs::path launcher = dir / "mpirun";
  struct Row {
    int ranks;
    double bytes, cold;
  };
  const std::vector<Row> rows = {{1, 4096, 30e9},   {2, 4096, 29e9},   {4, 4096, 28e9},
                                 {1, 1 << 20, 12e9}, {2, 1 << 20, 11.5e9}, {4, 1 << 20, 10e9},
                                 {1, 64 << 20, 8e9}, {2, 64 << 20, 7.5e9}, {4, 64 << 20, 5e9}};
  nlohmann::json copies = nlohmann::json::array();
  // Warm copies (caches holding the data) 3 times as fast: the model takes the cold ones.
  for (const Row& r : rows) copies.push_back({{"ranks", r.ranks}, {"bytes", r.bytes}, {"warm", 3 * r.cold}, {"cold", r.cold}});
  std::ofstream(launcher) << "#!/bin/sh\ncase \"$*\" in\n"
                          << "  *--busy*) echo '{\"round_trip\": 0.004}';;\n"
                          << "  *--shared-core*) echo '{\"round_trip\": 2e-5}';;\n"
                          << "  *pingpong*) echo '{\"bytes\": [1, 64, 1024, 65536, 1048576], \"seconds\": [1.000001e-6, "
                             "1.064e-6, 2.024e-6, 6.6536e-5, 1.049576e-3]}';;\n"
                          << "  *exchange*) echo '{\"ranks\": 4, \"bytes\": 4194304, \"seconds\": 1, \"bandwidth\": 1e9}';;\n"
                          << "  *sharedcopy*) echo '{\"ranks\": 4, \"bytes\": 4194304, \"seconds\": 1e-3}';;\n"
                          << "  *) echo '{\"index\": [{\"work\": {\"cost.index_op\": 1000}, \"seconds\": 1e-6}], "
                             "\"copies\": [{\"work\": {\"cost.byte_copied\": 10000, \"cost.run_copied\": 10}, \"seconds\": 2e-6}], "
                          << "\"copy_bandwidth\": " << copies.dump() << "}';;\nesac\n";
  fs::permissions(launcher, fs::perms::owner_all);
  const auto platform = dir / "machine.xml";
  const auto run = run_command(redist("calibrate --passes 1 --cores 4 --mpirun " + launcher.string() + " --out " + platform.string()));
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("copy bandwidth, bytes per second a rank"), std::string::npos) << run.out;
  const std::string xml = slurp(platform);
  ASSERT_NE(xml.find("<prop id=\"memory.copy_bandwidth\" value=\"0:3e+10;1048576:1.2e+10;67108864:8e+09\"/>"),
            std::string::npos) << xml;
  auto model_path = platform;
  model_path.replace_extension(".model.json");
  EXPECT_TRUE(nlohmann::json::parse(slurp(model_path)).contains("memory"));
  for (const Row& r : rows) {
    sim::SimulationOptions options;
    options.platform_file = platform.string();
    options.ranks = r.ranks;
    options.rank_hosts.assign(static_cast<std::size_t>(r.ranks), "node-0");
    options.phantom = true;
    const auto out = sim::simulate(options, [&](Transport& t) {
      t.charge(Work(WorkKind::ByteCopied, static_cast<Index>(r.bytes)));
      return std::to_string(r.bytes / t.now());
    });
    for (const std::string& bandwidth : out) {
      EXPECT_NEAR(std::stod(bandwidth) / r.cold, 1, 0.15) << r.ranks << " ranks, " << r.bytes << " bytes";
    }
  }
}

// --rounds: every case is measured once per pass over the list and its fastest run counts. The
// stand-in for mpirun reports 2 s for the first pass's runs and 1 s after.
TEST(Validate, EachCaseCountsItsFastestRound) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-validate-rounds");
  const fs::path launcher = dir / "mpirun";
  std::ofstream(launcher) << "#!/bin/sh\ncalls=$(cat " << (dir / "calls").string() << " 2>/dev/null || echo 0)\n"
                          << "echo $((calls + 1)) > " << (dir / "calls").string() << "\n"
                          << "if [ $calls -lt 14 ]; then t=2.0; else t=1.0; fi\n"
                          << "echo \"{\\\"verified\\\": true, \\\"phases\\\": {\\\"index\\\": 0, \\\"pack\\\": 0, "
                             "\\\"comm\\\": 0, \\\"unpack\\\": 0, \\\"total\\\": $t}}\"\n";
  fs::permissions(launcher, fs::perms::owner_all);
  for (const int rounds : {1, 2}) {
    fs::remove(dir / "calls");
    const auto run = run_command(redist("validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --random 0 --json "
                                        "--pairs-side 0 --random-2d 0 --within-cores 0 --rounds " +
                                        std::to_string(rounds) + " --mpirun " + launcher.string()));
    ASSERT_EQ(run.status, 0) << run.err;
    const auto json = nlohmann::json::parse(run.out);
    ASSERT_EQ(json.at("cases").size(), 14u);
    EXPECT_EQ(json.at("rounds"), rounds);
    for (const auto& c : json.at("cases")) {
      EXPECT_EQ(c.at("measured").get<double>(), rounds == 1 ? 2.0 : 1.0);
      EXPECT_EQ(c.at("round_totals"), rounds == 1 ? nlohmann::json({2.0}) : nlohmann::json({2.0, 1.0}));
    }
    // The noise figure: every case's slower pass took twice its faster; none with one pass.
    if (rounds == 1) {
      EXPECT_TRUE(json.at("round_spread_median").is_null());
    } else {
      EXPECT_DOUBLE_EQ(json.at("round_spread_median").get<double>(), 1.0);
      EXPECT_DOUBLE_EQ(json.at("round_spread_p90").get<double>(), 1.0);
    }
  }
}

// --measured: an earlier --json output's cases simulated again, on the same or another platform,
// against its measurements, mpirun never started (a launcher that cannot run); a file whose cases are
// not the ones these options give is refused with one line.
TEST(Validate, MeasuredReSimulatesAnEarlierOutputsCasesWithoutRunningThem) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-validate-measured");
  const fs::path launcher = dir / "mpirun", measured = dir / "measured.json", edited = dir / "edited.json";
  std::ofstream(launcher) << "#!/bin/sh\necho '{\"verified\": true, \"phases\": {\"index\": 0.25, \"pack\": 0.5, \"comm\": 0.125, "
                              "\"unpack\": 0.125, \"total\": 1.0}}'\n";
  fs::permissions(launcher, fs::perms::owner_all);
  const std::string options = " --random 2 --pairs-side 0 --random-2d 0 --within-cores 0 --json";
  const auto validate = [&](const char* platform, const std::string& more) {
    return run_command(redist(std::string("validate --platform " REDIST_SOURCE_DIR "/platforms/") + platform + more));
  };
  const auto first = validate("sp2.xml", options + " --rounds 2 --mpirun " + launcher.string());
  ASSERT_EQ(first.status, 0) << first.err;
  std::ofstream(measured) << first.out;
  const std::string nowhere = " --mpirun " + (dir / "no-mpirun").string() + " --measured ";
  const auto again = validate("sp2.xml", options + nowhere + measured.string());
  ASSERT_EQ(again.status, 0) << again.err;
  const auto before = nlohmann::json::parse(first.out), after = nlohmann::json::parse(again.out);
  ASSERT_EQ(after.at("cases").size(), 16u);
  EXPECT_EQ(after.at("cases"), before.at("cases"));  // the same measurements, simulated alike
  EXPECT_EQ(after.at("rounds"), 2);
  EXPECT_EQ(after.at("round_spread_median"), before.at("round_spread_median"));
  // Another platform: the file's measurements, that platform's simulation.
  const auto paragon = validate("paragon.xml", options + nowhere + measured.string());
  ASSERT_EQ(paragon.status, 0) << paragon.err;
  const auto other = nlohmann::json::parse(paragon.out);
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(other.at("cases")[i].at("measured_phases"), before.at("cases")[i].at("measured_phases"));
  }
  EXPECT_NE(other.at("cases")[0].at("simulated"), before.at("cases")[0].at("simulated"));
  // Other cases than the file's: refused, by count and by label.
  const auto more = validate("sp2.xml", " --random 3 --pairs-side 0 --random-2d 0 --within-cores 0" + nowhere + measured.string());
  expect_one_error_line(more);
  EXPECT_NE(more.err.find("holds 16 cases, this validate runs 17"), std::string::npos) << more.err;
  nlohmann::json changed = before;
  changed["cases"][0]["case"] = "P=1 r=1 Q=1 s=1 N=1 naive/async";
  std::ofstream(edited) << changed.dump();
  const auto relabelled = validate("sp2.xml", options + nowhere + edited.string());
  expect_one_error_line(relabelled);
  EXPECT_NE(relabelled.err.find("case 1 is 'P=1 r=1 Q=1 s=1 N=1 naive/async'"), std::string::npos) << relabelled.err;
}

// --measured with the seeded 2-D cases: their submatrix copies (and pdgemr2d's twins of them) are
// drawn again from the seed, simulated again as the same copies, and a file naming another
// submatrix in a case is refused.
TEST(Validate, MeasuredReSimulatesTheSubmatrixCopiesItWasGiven) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-validate-measured-submatrix");
  const fs::path launcher = dir / "mpirun", measured = dir / "measured.json", edited = dir / "edited.json";
  std::ofstream(launcher) << "#!/bin/sh\necho '{\"verified\": true, \"phases\": {\"index\": 0.25, \"pack\": 0.25, \"comm\": 0.25, "
                              "\"unpack\": 0.25, \"total\": 1.0}, \"pdgemr2d\": {\"seconds\": 1.0, \"verified\": true, "
                              "\"identical\": true}}'\n";
  fs::permissions(launcher, fs::perms::owner_all);
  const std::string options = "validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --random 0 --pairs-side 0 "
                              "--random-2d 3 --within-cores 0 --seed 18 --json --mpirun ";
  const auto first = run_command(redist(options + launcher.string()));
  ASSERT_EQ(first.status, 0) << first.err;
  std::ofstream(measured) << first.out;
  const std::string nowhere = (dir / "no-mpirun").string() + " --measured ";
  const auto again = run_command(redist(options + nowhere + measured.string()));
  ASSERT_EQ(again.status, 0) << again.err;
  const auto before = nlohmann::json::parse(first.out), after = nlohmann::json::parse(again.out);
  EXPECT_EQ(after.at("cases"), before.at("cases"));
  std::size_t submatrix = 0;
  for (std::size_t i = 0; i < before.at("cases").size(); ++i) {
    if (before.at("cases")[i].contains("matrix") && before.at("cases")[i].at("matrix").contains("sub")) submatrix = i;
  }
  ASSERT_GT(submatrix, 0u) << first.out;
  const auto& copy = before.at("cases")[submatrix].at("matrix");
  const std::string sub = std::to_string(copy.at("sub")[0].get<int>()) + "x" + std::to_string(copy.at("sub")[1].get<int>());
  EXPECT_NE(before.at("cases")[submatrix].at("case").get<std::string>().find(" sub " + sub + " at "), std::string::npos);
  nlohmann::json changed = before;
  std::string label = changed["cases"][submatrix]["case"].get<std::string>();
  label.replace(label.find(" sub "), 5, " sub 1");
  changed["cases"][submatrix]["case"] = label;
  std::ofstream(edited) << changed.dump();
  const auto other_submatrix = run_command(redist(options + nowhere + edited.string()));
  expect_one_error_line(other_submatrix);
  EXPECT_NE(other_submatrix.err.find("case " + std::to_string(submatrix + 1) + " is '" + label + "'"), std::string::npos)
      << other_submatrix.err;
}

// The random cases, simulated for real, against a launcher standing in for mpirun that reports
// every run as 1 s: the same seed gives the same cases, and --max-p90 sets the exit status.
TEST(Validate, RandomCasesAreReproducibleAndTheP90IsABound) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-fake-mpirun");
  const fs::path launcher = dir / "mpirun";
  std::ofstream(launcher) << "#!/bin/sh\necho '{\"verified\": true, \"phases\": {\"index\": 0.25, \"pack\": 0.25, \"comm\": 0.25, "
                              "\"unpack\": 0.25, \"total\": 1.0}, \"pdgemr2d\": {\"seconds\": 1.0, \"verified\": true, "
                              "\"identical\": true}}'\n";
  fs::permissions(launcher, fs::perms::owner_all);
  const auto run = [&](int seed, const std::string& bounds) {
    return run_command(redist("validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --mpirun " +
                              launcher.string() + " --random 6 --pairs-side 64 --random-2d 4 --within-cores 4 --json --seed " +
                              std::to_string(seed) + bounds));
  };
  const auto first = run(7, " --max-error 100 --max-p90 100");
  ASSERT_EQ(first.status, 0) << first.err;
  const auto json = nlohmann::json::parse(first.out);
  // 14 hand-picked and 6 random 1-D cases, the 12 benchmark pairs and 4 random 2-D ones, pdgemr2d on
  // each column-major one of those, and 4 within the cores.
  std::map<std::string, std::size_t> in_set;
  for (const auto& c : json.at("cases")) ++in_set[c.at("set").get<std::string>()];
  EXPECT_EQ(in_set["1-D"], 14u + 6u + 2u);
  EXPECT_EQ(in_set["2-D"], 12u + 4u + 2u);
  EXPECT_GE(in_set["pdgemr2d"], 12u);
  EXPECT_EQ(json.at("cases").size(), in_set["1-D"] + in_set["2-D"] + in_set["pdgemr2d"]);
  EXPECT_EQ(json.at("misses").at("by_set").at("pdgemr2d").at("cases"), in_set["pdgemr2d"]);
  EXPECT_EQ(json.at("seed"), 7);
  EXPECT_EQ(json.at("random_cases"), 6);
  // A 2-D case's row carries its copy (the submatrix copies': MeasuredReSimulatesTheSubmatrixCopiesItWasGiven).
  for (const auto& c : json.at("cases")) EXPECT_EQ(c.contains("matrix"), c.at("set") != "1-D") << c.at("case");
  const auto again = run(7, " --max-p90 0");
  EXPECT_EQ(again.status, 1) << again.err;  // some case's simulated time differs from 1 s
  const auto second = nlohmann::json::parse(again.out);
  for (std::size_t i = 0; i < json.at("cases").size(); ++i) {
    EXPECT_EQ(second.at("cases")[i].at("case"), json.at("cases")[i].at("case"));
    EXPECT_EQ(second.at("cases")[i].at("simulated"), json.at("cases")[i].at("simulated"));
  }
  const auto other = nlohmann::json::parse(run(8, "").out);
  EXPECT_NE(other.at("cases")[14].at("case"), json.at("cases")[14].at("case"));
}

// Nothing lost: on a full disk `calibrate --out` exited 0 over a 0-byte platform. The disk is
// a file size limit (SIGXFSZ ignored, so writes fail with EFBIG); mpirun gets the limit lifted by a
// wrapper, since Open MPI sizes shared-memory files with ftruncate: only the output is "full". It
// runs twice as many ranks as cores (calibrate's second all-to-all), so it oversubscribes.
TEST(Calibrate, AFullDiskIsAnErrorAndKeepsTheOldPlatform) {
  namespace fs = std::filesystem;
  const TempDir dir("redist-calibrate-full");
  const fs::path platform = dir / "machine.xml";
  const std::string old_platform = "<platform>an earlier calibration</platform>\n";
  std::ofstream(platform) << old_platform;
  const fs::path mpirun = dir / "mpirun-without-limit";
  std::ofstream(mpirun) << "#!/bin/sh\nulimit -S -f unlimited\nexec mpirun --oversubscribe \"$@\"\n";
  fs::permissions(mpirun, fs::perms::owner_all);

  // dash counts -f in 512-byte blocks: 2 KiB, less than any calibrated platform (its fit report alone).
  const auto result = run_command("(trap '' XFSZ; ulimit -S -f 4; " +
                                  redist("calibrate --max-bytes 1024 --seconds-per-size 0.001 --cores 2 --passes 1 --mpirun " +
                                         mpirun.string() + " --out " + platform.string()) + ")");
  expect_one_error_line(result);
  EXPECT_NE(result.err.find("File too large"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(platform.string()), std::string::npos) << result.err;
  EXPECT_EQ(slurp(platform), old_platform);
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    EXPECT_TRUE(entry.path() == platform || entry.path() == mpirun) << "left behind: " << entry.path();
  }
}

TEST(Calibrate, BadArgumentsGiveOneErrorLine) {
  expect_one_error_line(run_command(redist("calibrate")));
  expect_one_error_line(run_command(redist("calibrate --out /tmp/x.xml --max-bytes 0")));
  expect_one_error_line(run_command(redist("calibrate --out /tmp/x.xml --cores -2")));
  expect_one_error_line(run_command(redist("calibrate --out /tmp/x.xml --passes 0")));
  expect_one_error_line(run_command(redist("calibrate --out /tmp/x.xml --passes 21")));
  expect_one_error_line(run_command(redist("validate --platform /nonexistent.xml")));
  expect_one_error_line(run_command(redist("validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --repeat 0")));
  expect_one_error_line(run_command(redist("validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --random -1")));
  expect_one_error_line(run_command(redist("validate --platform " REDIST_SOURCE_DIR "/platforms/sp2.xml --rounds 0")));
}

}  // namespace
}  // namespace redist::test
