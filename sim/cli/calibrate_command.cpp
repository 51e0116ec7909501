// `redist calibrate --out FILE [--max-bytes B] [--cores C] [--passes K] [--redist-mpi PATH] [--mpirun CMD]`:
// measures this machine under mpirun — MPI ping-pong from 1 byte to 16 MB, an all-to-all of one
// rank per core and one of two ranks per core (`redist-mpi exchange`), and the plans, packing and
// unpacking of the indexing methods timed by `redist-mpi localwork` against their counted work (one
// rank per core, all at once, as a redistribution's ranks share the node's memory), and copies of 4
// KiB to 64 MiB by 1, 2, 4 ... all ranks at once (the node's memory model), all in the MPI
// program whose runs the platform predicts — fits them by least squares (Eigen) and writes a
// SimGrid platform: one host of C cores (its ranks share them in proportion to their work, as the
// OS shares a node's cores among oversubscribed MPI processes at best), its messages over one
// shared link with the fitted latency and the first all-to-all's bandwidth (the second's when the
// ranks outnumber the cores: sim/redist/sim/oversubscribed_bandwidth.hpp), piecewise latency and
// bandwidth factors by message size where one line does not fit the ping-pong's curve
// (sim/redist/sim/network_factors.hpp), and the fitted prices of local work. Every fitted value and
// residual is printed and kept in the file as a comment.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "redist/predict/machine_model_json.hpp"
#include "redist/sim/machine_model_from_platform.hpp"
#include "redist/sim/network_factors.hpp"
#include "redist/sim/oversubscribed_bandwidth.hpp"
#include "least_squares.hpp"
#include "local_work_measurements.hpp"
#include "mpi_launch.hpp"
#include "options.hpp"
#include "redist/core/atomic_file.hpp"

namespace redist::cli {
namespace {

struct CalibrateOptions {
  std::string out;
  Index max_bytes = Index{16} << 20;
  double seconds_per_size = 0.05;
  Index cores = std::max<Index>(1, std::thread::hardware_concurrency());
  int passes = 5;
  MpiLauncher launcher;
};

// An all-to-all of `ranks` ranks, `bytes` per pair: what they moved per second together.
struct Exchange {
  Index ranks = 0, bytes = 0;
  double bandwidth = 0;
};

struct Network {
  std::vector<Index> bytes;
  std::vector<double> seconds;
  PiecewiseFit fit;
  double latency = 0;    // of the link: the first piece's intercept
  double bandwidth = 0;  // the last piece's: one message alone, the factor curve's reference
  Exchange exchange;        // one rank per core, all at once: the link's capacity
  Exchange oversubscribed;  // two ranks per core: the link's when ranks outnumber cores
  std::vector<Index> dropped_bytes;  // outliers left out of the fit
  std::vector<double> dropped_seconds;
};

// SimGrid's piecewise factor syntax: "size:factor;size:factor" (a size applies from there up).
std::string factors(const PiecewiseFit& fit, const std::function<double(const LineFit&)>& factor) {
  std::string out;
  for (std::size_t k = 0; k < fit.pieces.size(); ++k) {
    out += fmt::format("{}{}:{:.6g}", k ? ";" : "", fit.starts[k], factor(fit.pieces[k]));
  }
  return out;
}

// Each size at its fastest of the passes.
Network measure_network(const CalibrateOptions& o) {
  Network n;
  for (int pass = 0; pass < o.passes; ++pass) {
    const auto json = nlohmann::json::parse(o.launcher.run(
        2, fmt::format("pingpong --max-bytes {} --seconds-per-size {} --json", o.max_bytes, o.seconds_per_size)));
    const auto bytes = json.at("bytes").get<std::vector<Index>>();
    const auto seconds = json.at("seconds").get<std::vector<double>>();
    if (pass == 0) {
      n.bytes = bytes;
      n.seconds = seconds;
    }
    if (bytes != n.bytes || seconds.size() != n.seconds.size()) {
      throw std::runtime_error("ping-pong passes measured different sizes");
    }
    for (std::size_t i = 0; i < seconds.size(); ++i) n.seconds[i] = std::min(n.seconds[i], seconds[i]);
  }
  // On a shared machine a size may be measured while another process holds the core: a point more
  // than twice as slow as both its neighbours (its one neighbour at an end) is such a spike; it is
  // dropped (and listed) before the fit.
  Network kept;
  for (std::size_t i = 0; i < n.bytes.size(); ++i) {
    const double before = i > 0 ? n.seconds[i - 1] : n.seconds[i + 1];
    const double after = i + 1 < n.bytes.size() ? n.seconds[i + 1] : n.seconds[i - 1];
    const bool spike = n.seconds[i] > 2 * std::max(before, after);
    (spike ? n.dropped_bytes : kept.bytes).push_back(n.bytes[i]);
    (spike ? n.dropped_seconds : kept.seconds).push_back(n.seconds[i]);
  }
  n.bytes = kept.bytes;
  n.seconds = kept.seconds;
  n.fit = fit_piecewise(n.bytes, n.seconds, 3);
  n.latency = n.fit.pieces.front().intercept > 0 ? n.fit.pieces.front().intercept : n.seconds.front();
  const double slope = n.fit.pieces.back().slope;
  n.bandwidth = slope > 0 ? 1 / slope : n.bytes.back() / n.seconds.back();
  return n;
}

// Every rank sending to every other at once (`redist-mpi exchange`), the fastest pass kept: what the
// node's memory moves for concurrent messages, as a redistribution sends them. Two ranks' ping-pong
// (one message at a time, its buffer in cache) measured it 0.5-1.5 times that on this VM from one
// calibration to the next. Messages of 256 MiB / ranks², within 64 KiB-4 MiB (the ranks' buffers,
// twice ranks² messages: 512 MiB in all up to 64 ranks, 2 GiB at 128).
Exchange measure_exchange(const CalibrateOptions& o, Index ranks) {
  Exchange e{ranks, std::clamp<Index>((Index{256} << 20) / (ranks * ranks), Index{64} << 10, Index{4} << 20), 0};
  for (int pass = 0; pass < o.passes; ++pass) {
    const auto json = nlohmann::json::parse(
        o.launcher.run(static_cast<int>(ranks), fmt::format("exchange --bytes {} --json", e.bytes)));
    e.bandwidth = std::max(e.bandwidth, json.at("bandwidth").get<double>());
  }
  return e;
}

// With one rank per core, the link's bandwidth. With two, what it carries when ranks outnumber
// cores: processes sharing a core copy their messages in turns (on this 2-core VM, 28 Nov 2026, the
// comm phase of validate's 3-8-rank runs took 2-4 times the simulated one at the one-per-core figure).
void measure_exchanges(const CalibrateOptions& o, Network& n) {
  const Index ranks = std::max<Index>(2, o.cores);
  n.exchange = measure_exchange(o, ranks);
  n.oversubscribed = measure_exchange(o, 2 * ranks);
}

std::string fit_report(const Network& n, const LocalWork& w, const std::vector<double>& prices) {
  std::ostringstream text;
  text << fmt::format("MPI ping-pong, one-way seconds (fit: {} piece(s)):\n", n.fit.pieces.size());
  for (std::size_t k = 0; k < n.fit.pieces.size(); ++k) {
    const auto& p = n.fit.pieces[k];
    text << fmt::format("  piece from {} B: latency {:.4g} s, bandwidth {:.4g} B/s\n", n.fit.starts[k], p.intercept,
                        p.slope > 0 ? 1 / p.slope : 0.0);
  }
  text << "  bytes       measured     fitted       residual\n";
  const auto residuals = n.fit.relative_residuals(n.bytes, n.seconds);
  for (std::size_t i = 0; i < n.bytes.size(); ++i) {
    text << fmt::format("  {:<10}  {:.4e}   {:.4e}   {:+.1f}%\n", n.bytes[i], n.seconds[i], n.fit.at(n.bytes[i]),
                        100 * residuals[i]);
  }
  for (std::size_t i = 0; i < n.dropped_bytes.size(); ++i) {
    text << fmt::format("  {:<10}  {:.4e}   (dropped: over twice both neighbours, the core was busy elsewhere)\n",
                        n.dropped_bytes[i], n.dropped_seconds[i]);
  }
  text << fmt::format("all-to-all of {} ranks, {} B per pair: {:.4g} B/s together (the link's bandwidth)\n",
                      n.exchange.ranks, n.exchange.bytes, n.exchange.bandwidth);
  text << fmt::format("all-to-all of {} ranks, {} B per pair: {:.4g} B/s together (its bandwidth when ranks "
                      "outnumber cores)\n",
                      n.oversubscribed.ranks, n.oversubscribed.bytes, n.oversubscribed.bandwidth);
  text << fmt::format("copies (least squares over packing and unpacking the methods' plans, caches emptied\n"
                      "before each): {:.4g} s/byte ({:.3g} GB/s), {:.4g} s per run, {:.4g} s per record\n",
                      w.byte_copied, w.byte_copied > 0 ? 1e-9 / w.byte_copied : 0.0, w.run_copied, w.record_copied);
  text << "  copy run  bytes       runs       records    measured     fitted       residual\n";
  for (std::size_t i = 0; i < w.copies.size(); ++i) {
    const CopyMeasurement& c = w.copies[i];
    const double fitted = c.bytes * w.byte_copied + c.runs * w.run_copied + c.records * w.record_copied;
    text << fmt::format("  {:<8}  {:<10}  {:<9}  {:<9}  {:.4e}   {:.4e}   {:+.1f}%\n", i, c.bytes, c.runs, c.records,
                        c.seconds, fitted, 100 * (fitted - c.seconds) / c.seconds);
  }
  if (w.memory) {
    text << fmt::format("copy bandwidth, bytes per second a rank, k ranks copying W bytes each at once (the\n"
                        "node's memory: one rank's warm bandwidth c(W), all ranks' together M(W), each of k\n"
                        "ranks modelled at min(c(W), M(W) / k)); runs and records fitted on what the memory's\n"
                        "copies leave of the rows above:\n");
    text << "  k     W           warm         cold         modelled     residual\n";
    for (const CopyBandwidthRow& r : w.copy_bandwidth) {
      const double modelled = w.memory->rank_bandwidth(r.bytes, r.ranks);
      text << fmt::format("  {:<4}  {:<10}  {:.4e}   {:.4e}   {:.4e}   {:+.1f}%\n", r.ranks, r.bytes, r.warm, r.cold,
                          modelled, 100 * (modelled - r.warm) / r.warm);
    }
  }
  text << "index work prices (least squares over the methods' counted work; ElementScanned fitted on the\n"
          "naive scan's runs after the others, on the table and intersection methods' runs):\n";
  for (std::size_t k = 0; k < kIndexKinds.size(); ++k) {
    text << fmt::format("  {} = {:.4g} s\n", price_property(kIndexKinds[k]), prices[k]);
  }
  text << "  method run  measured     fitted       residual\n";
  for (std::size_t i = 0; i < w.index.size(); ++i) {
    double fitted = 0;
    for (std::size_t k = 0; k < prices.size(); ++k) fitted += prices[k] * w.index[i].counts[k];
    text << fmt::format("  {:<10}  {:.4e}   {:.4e}   {:+.1f}%\n", i, w.index[i].seconds, fitted,
                        100 * (fitted - w.index[i].seconds) / w.index[i].seconds);
  }
  return text.str();
}

std::string platform_xml(const CalibrateOptions& o, const Network& n, const LocalWork& w,
                         const std::vector<double>& prices, const std::string& report) {
  const double base_latency = n.latency, base_bandwidth = n.bandwidth;
  // A later piece's line may cross zero below its sizes: its latency is then none, not negative.
  const auto latency_factor = [&](const LineFit& p) { return std::max(0.0, p.intercept / base_latency); };
  const auto bandwidth_factor = [&](const LineFit& p) { return p.slope > 0 ? (1 / p.slope) / base_bandwidth : 1e3; };
  std::ostringstream xml;
  xml << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- Written by `redist calibrate` for the machine it ran on: one host with its cores, which the\n"
      << "     ranks share as the OS shares them among MPI processes, however many. Fits and residuals:\n"
      << report << "-->\n<platform version=\"4.1\">\n  <config>\n"
      << "    <prop id=\"network/model\" value=\"CM02\"/>\n"
      << "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n"
      << "    <prop id=\"network/TCP-gamma\" value=\"4194304\"/>\n"
      << "  </config>\n  <zone id=\"machine\" routing=\"Full\">\n"
      << "    <!-- The fit's pieces as factors by message size (SimGrid 3.32's network/latency-factor and\n"
      << "         bandwidth-factor configs take one number: redist installs these as the network model's\n"
      << "         factor callbacks), relative to its first piece's latency and last piece's bandwidth; the link\n"
      << "         has that latency, and the bandwidth of all ranks exchanging at once. -->\n"
      << fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", sim::kLatencyFactorsProperty, factors(n.fit, latency_factor))
      << fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", sim::kBandwidthFactorsProperty,
                     factors(n.fit, bandwidth_factor));
  xml << fmt::format("    <host id=\"node-0\" speed=\"1Gf\" core=\"{}\">\n", o.cores);
  std::vector<std::pair<WorkKind, double>> costs = {{WorkKind::ByteCopied, w.byte_copied},
                                                    {WorkKind::RunCopied, w.run_copied},
                                                    {WorkKind::RecordCopied, w.record_copied}};
  for (std::size_t k = 0; k < kIndexKinds.size(); ++k) costs.emplace_back(kIndexKinds[k], prices[k]);
  for (const auto& [kind, price] : costs) {
    xml << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/>\n", price_property(kind), price);
  }
  xml << fmt::format("      <prop id=\"{}\" value=\"0\"/> <!-- inside the measured latency -->\n", kSendOverheadProperty)
      << fmt::format("      <prop id=\"{}\" value=\"0\"/>\n", kRecvOverheadProperty)
      << fmt::format("      <prop id=\"hockney.t0\" value=\"{:.6g}\"/>\n", n.fit.at(1))
      << fmt::format("      <prop id=\"hockney.r_inf\" value=\"{:.6g}\"/>\n", base_bandwidth)
      << "      <prop id=\"memory.node\" value=\"0\"/> <!-- one node: its ranks share memory -->\n";
  if (w.memory) {
    xml << "      <!-- Copies by the bytes copied at once: one rank's bandwidth, and the node memory's that the\n"
        << "           ranks copying at once share (redist/transport/node_memory.hpp); bytes per second. -->\n"
        << fmt::format("      <prop id=\"{}\" value=\"{}\"/>\n", kCopyBandwidthProperty, w.memory->copy_bandwidth.text())
        << fmt::format("      <prop id=\"{}\" value=\"{}\"/>\n", kNodeBandwidthProperty, w.memory->node_bandwidth.text());
  }
  xml << "    </host>\n";
  xml << fmt::format("    <link id=\"memory\" bandwidth=\"{:.6g}Bps\" latency=\"{:.6g}s\">\n", n.exchange.bandwidth,
                     base_latency)
      << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/> <!-- when ranks outnumber cores -->\n",
                     sim::kOversubscribedBandwidthProperty, n.oversubscribed.bandwidth)
      << "    </link>\n";
  // Messages between the node's ranks cross its memory, one link they share (SimGrid's loopback, a
  // fat pipe, would give each message all of it).
  xml << "    <route src=\"node-0\" dst=\"node-0\" symmetrical=\"NO\"><link_ctn id=\"memory\"/></route>\n";
  xml << "  </zone>\n</platform>\n";
  return xml.str();
}

// PLATFORM.xml -> PLATFORM.model.json (any other name: NAME.model.json).
std::string model_file(const std::string& platform) {
  std::filesystem::path path(platform);
  if (path.extension() == ".xml") path.replace_extension();
  return path.string() + ".model.json";
}

int run_calibrate(const CalibrateOptions& o) {
  core::PendingFile platform(o.out);  // an unwritable --out fails now, not after the measurements
  Network network = measure_network(o);
  measure_exchanges(o, network);
  std::vector<nlohmann::json> passes;
  for (int pass = 0; pass < o.passes; ++pass) {
    passes.push_back(nlohmann::json::parse(o.launcher.run(static_cast<int>(o.cores), "localwork --json")));
  }
  const LocalWork work = local_work_from_json(fastest_rows(passes));
  std::vector<std::vector<double>> counts;
  std::vector<double> seconds;
  for (const auto& m : work.index) {
    counts.push_back(m.counts);
    seconds.push_back(m.seconds);
  }
  // ElementScanned comes only with the naive scan, always beside two IndexOp: priced second.
  const std::size_t scanned = static_cast<std::size_t>(
      std::find(kIndexKinds.begin(), kIndexKinds.end(), WorkKind::ElementScanned) - kIndexKinds.begin());
  const auto prices = fit_prices_staged(counts, seconds, {scanned});
  const std::string report = fit_report(network, work, prices);
  const std::string xml = platform_xml(o, network, work, prices, report);
  platform.write(xml);
  platform.publish();
  // The model `auto` predicts on in MPI programs, for any number of ranks (all on the one host).
  const std::string model_path = model_file(o.out);
  core::PendingFile model(model_path);
  model.write(machine_model_to_json(sim::machine_model_from_platform(o.out, 1, 1)) + "\n");
  model.publish();
  std::cout << report << "platform written to " << o.out << ", its machine model to " << model_path << "\n";
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<CalibrateOptions>();
  auto* app = root.add_subcommand("calibrate", "Measure this machine under mpirun and write a SimGrid platform for it");
  app->add_option("--out", o->out, "platform XML to write")->required();
  app->add_option("--max-bytes", o->max_bytes, "largest ping-pong message")
      ->check(whole_number())
      ->check(CLI::Range(Index{64}, Index{1} << 30))
      ->capture_default_str();
  app->add_option("--seconds-per-size", o->seconds_per_size, "measuring time per message size")
      ->check(CLI::Range(0.0001, 10.0))
      ->capture_default_str();
  app->add_option("--cores", o->cores, "cores of the platform's host (the ranks share them)")
      ->check(whole_number())
      ->check(CLI::Range(Index{1}, Index{4096}))
      ->capture_default_str();
  app->add_option("--passes", o->passes,
                  "measuring passes, each ping-pong size and local-work row kept at its fastest (a shared "
                  "machine's slow spells spoil a pass, not the calibration)")
      ->check(CLI::Range(1, 20))
      ->capture_default_str();
  app->add_option("--redist-mpi", o->launcher.redist_mpi, "redist-mpi program (default: the one built with redist)");
  app->add_option("--mpirun", o->launcher.mpirun, "MPI launcher command")->capture_default_str();
  commands.push_back({app, [o] { return run_calibrate(*o); }});
}

}  // namespace redist::cli
