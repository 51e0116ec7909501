#include "redist/calibration/calibrated_platform.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "redist/calibration/validation_summary.hpp"
#include "redist/sim/core_turns.hpp"
#include "redist/sim/network_factors.hpp"
#include "redist/transport/ranks_per_core.hpp"

namespace redist::calibration {
namespace {

// SimGrid's piecewise factor syntax: "size:factor;size:factor" (a size applies from there up).
std::string factors(const PiecewiseFit& fit, const std::function<double(const LineFit&)>& factor) {
  std::string out;
  for (std::size_t k = 0; k < fit.pieces.size(); ++k) {
    out += fmt::format("{}{}:{:.6g}", k ? ";" : "", fit.starts[k], factor(fit.pieces[k]));
  }
  return out;
}

}  // namespace

std::string calibration_report(const NetworkMeasurements& n, const LocalWork& w, const std::vector<double>& prices,
                               const std::vector<SharedCopy>& shared_copies, Index cores) {
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
  for (const Exchange& e : n.oversubscribed) {
    text << fmt::format("all-to-all of {} ranks ({:.3g} per core), {} B per pair: {:.4g} B/s together (its bandwidth "
                        "at that many ranks per core)\n",
                        e.ranks, ranks_per_core(e.ranks, cores), e.bytes, e.bandwidth);
  }
  if (!shared_copies.empty()) {
    text << "building a plan and packing at once (each rank the same plan, its arrays as its previous repetition\n"
            "left them), first start to last end; slowdowns over what taking turns gives (the busiest core's ranks\n"
            "one after another at the first row's time): copies, and the other work\n"
            "  ranks  per core  bytes each   packing      slowdown  building     slowdown\n";
    const PiecewiseCurve copies = copy_slowdown_curve(shared_copies, cores), work = work_slowdown_curve(shared_copies, cores);
    for (const SharedCopy& c : shared_copies) {
      const double level = ranks_per_core(c.ranks, cores);
      const auto slowdown = [level](const PiecewiseCurve& curve) {
        return level <= 1 ? std::string("(ref.)") : curve.empty() ? std::string("-") : fmt::format("{:.3f}", curve.at(level));
      };
      text << fmt::format("  {:<5}  {:<8.3g}  {:<11}  {:.4e}   {:<8}  {:.4e}   {}\n", c.ranks, level, c.bytes, c.seconds,
                          slowdown(copies), c.index_seconds, slowdown(work));
    }
  }
  text << fmt::format("time slice: {:.4g} s (median round trip of two ranks each beside a computing rank on its "
                      "core)\n",
                      n.time_slice);
  if (!n.shared_core.empty()) {
    text << "two ranks sharing a core ping-ponging 8 bytes, the others waiting (median round trip); switch cost:\n"
            "  half of it less the 8-byte one-way time of ranks on their own cores\n"
            "  ranks  per core  round trip   switch cost\n";
    const PiecewiseCurve switches = switch_cost_curve(n, cores);
    for (const SharedCoreRoundTrip& r : n.shared_core) {
      const double level = ranks_per_core(r.ranks, cores);
      text << fmt::format("  {:<5}  {:<8.3g}  {:.4e}   {:.4e}\n", r.ranks, level, r.round_trip, switches.at(level));
    }
  }
  text << fmt::format("copies (least squares over packing and unpacking the methods' plans, {}):\n"
                      "{:.4g} s/byte ({:.3g} GB/s), {:.4g} s per run, {:.4g} s per record\n",
                      w.warm_copies ? "each the fastest of repeated copies" : "caches emptied before each",
                      w.byte_copied, w.byte_copied > 0 ? 1e-9 / w.byte_copied : 0.0, w.run_copied, w.record_copied);
  if (w.memory) {
    text << fmt::format("(with the memory modelled, the fitted column prices the bytes at its bandwidths below, times\n"
                        "the loop's factor: packs {:.3g}, unpacks {:.3g}, unpacks of every message in one sweep {:.3g})\n",
                        w.memory->pack_factor, w.memory->unpack_factor, w.memory->loop_factor(CopyLoop::UnpackSweep));
  }
  text << "  copy run  bytes       runs       records    measured     fitted       residual\n";
  std::map<CopyLoop, std::vector<double>> copy_misses;  // by the loop the rows timed
  for (std::size_t i = 0; i < w.copies.size(); ++i) {
    const CopyMeasurement& c = w.copies[i];
    const double bytes =
        w.memory ? w.memory->copy_seconds(c.bytes, w.ranks, c.loop.value_or(CopyLoop::Pack), c.touched_on_node(w.ranks))
                 : c.bytes * w.byte_copied;
    const double fitted = bytes + c.runs * w.run_copied + c.records * w.record_copied;
    const double residual = (fitted - c.seconds) / c.seconds;
    text << fmt::format("  {:<8}  {:<10}  {:<9}  {:<9}  {:.4e}   {:.4e}   {:+.1f}%{}\n", i, c.bytes, c.runs, c.records,
                        c.seconds, fitted, 100 * residual, c.left_out ? "  (left out)" : "");
    if (c.left_out) continue;  // the medians are of the rows the prices were fitted on
    if (c.loop) copy_misses[*c.loop].push_back(residual);
  }
  if (copy_misses.contains(CopyLoop::Pack) && copy_misses.contains(CopyLoop::Unpack)) {
    // Where the medians part, the loops' factors do not tell the loops apart.
    text << fmt::format("  median residual: packs {:+.1f}%, unpacks {:+.1f}%", 100 * median(copy_misses[CopyLoop::Pack]),
                        100 * median(copy_misses[CopyLoop::Unpack]));
    if (copy_misses.contains(CopyLoop::UnpackSweep)) {
      text << fmt::format(", sweeps {:+.1f}%", 100 * median(copy_misses[CopyLoop::UnpackSweep]));
    }
    text << "\n";
  }
  if (w.memory) {
    text << fmt::format("copy bandwidth, bytes per second a rank, k ranks copying W bytes each at once (the\n"
                        "node's memory, the {} copies: one rank's bandwidth c(W), all ranks' together M(W), each of k\n"
                        "ranks modelled at min(c(W), M(W) / k), read at W = half of what a call touches where that is\n"
                        "more than its copy); runs and records fitted on what the memory's copies leave of the rows above:\n",
                        w.warm_copies ? "warm (repeated)" : "cold (caches emptied first)");
    text << "  k     W           warm         cold         modelled     residual\n";
    for (const CopyBandwidthRow& r : w.copy_bandwidth) {
      const double modelled = w.memory->rank_bandwidth(r.bytes, r.ranks);
      const double target = w.warm_copies ? r.warm : r.cold;
      text << fmt::format("  {:<4}  {:<10}  {:.4e}   {:.4e}   {:.4e}   {:+.1f}%\n", r.ranks, r.bytes, r.warm, r.cold,
                          modelled, 100 * (modelled - target) / target);
    }
  }
  if (!w.pdgemr2d.empty()) {
    text << fmt::format("ScaLAPACK's pdgemr2d alone on each rank (packing, buffer to buffer, unpacking, element by element):\n"
                        "  cost.element_copied = {:.4g} s an element beyond its bytes, runs and records\n"
                        "  elements    measured\n", w.element_copied);
    for (const auto& r : w.pdgemr2d) text << fmt::format("  {:<10}  {:.4e}\n", r.elements, r.seconds);
  }
  if (w.first_touch) {
    text << fmt::format("memory written for the first time (mapped, written and unmapped) against written again, every\n"
                        "rank at once: {:.4e} s and {:.4e} s for {} bytes: cost.byte_faulted = {:.4g} s a byte\n",
                        w.first_touch->fresh, w.first_touch->warm, w.first_touch->bytes, w.byte_faulted);
  }
  text << "index work prices (least squares over the methods' counted work; ElementScanned fitted on the\n"
          "naive scan's runs after the others, on the table and intersection methods' runs; a run missed by\n"
          "more than a quarter and three times the median miss left out, and the rest fitted again):\n";
  for (std::size_t k = 0; k < kIndexKinds.size(); ++k) {
    text << fmt::format("  {} = {:.4g} s\n", price_property(kIndexKinds[k]), prices[k]);
  }
  text << "  method run  measured     fitted       residual\n";
  for (std::size_t i = 0; i < w.index.size(); ++i) {
    double fitted = 0;
    for (std::size_t k = 0; k < prices.size(); ++k) fitted += prices[k] * w.index[i].counts[k];
    text << fmt::format("  {:<10}  {:.4e}   {:.4e}   {:+.1f}%{}\n", i, w.index[i].seconds, fitted,
                        100 * (fitted - w.index[i].seconds) / w.index[i].seconds,
                        w.index[i].left_out ? "  (left out)" : "");
  }
  return text.str();
}

std::string calibrated_platform_xml(Index cores, const NetworkMeasurements& n, const LocalWork& w,
                                    const std::vector<double>& prices, const std::vector<SharedCopy>& shared_copies,
                                    const std::string& report) {
  const double base_latency = n.latency, base_bandwidth = n.bandwidth;
  // A later piece's line may cross zero below its sizes: its latency is then none, not negative.
  const auto latency_factor = [&](const LineFit& p) { return std::max(0.0, p.intercept / base_latency); };
  const auto bandwidth_factor = [&](const LineFit& p) { return p.slope > 0 ? (1 / p.slope) / base_bandwidth : 1e3; };
  std::ostringstream xml;
  xml << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- Written by `redist calibrate` for the machine it ran on: one host with its cores, which the\n"
      << "     ranks share as the launcher binds MPI processes to them, however many. Fits and residuals:\n"
      << report << "-->\n<platform version=\"4.1\">\n  <config>\n"
      << "    <prop id=\"network/model\" value=\"CM02\"/>\n"
      << "    <prop id=\"network/crosstraffic\" value=\"0\"/>\n"
      << "    <prop id=\"network/TCP-gamma\" value=\"4194304\"/>\n"
      << "  </config>\n  <zone id=\"machine\" routing=\"Full\">\n"
      << "    <!-- The fit's pieces as factors by message size (SimGrid 3.32's network/latency-factor and\n"
      << "         bandwidth-factor configs take one number: redist installs these as the network model's\n"
      << "         factor callbacks), relative to its first piece's latency and last piece's bandwidth; the link\n"
      << "         has that latency, and the bandwidth of all ranks exchanging at once. -->\n"
      << fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", kLatencyFactorsProperty, factors(n.fit, latency_factor))
      << fmt::format("    <prop id=\"{}\" value=\"{}\"/>\n", kBandwidthFactorsProperty,
                     factors(n.fit, bandwidth_factor));
  xml << fmt::format("    <host id=\"node-0\" speed=\"1Gf\" core=\"{}\">\n", cores);
  std::vector<std::pair<WorkKind, double>> costs = {{WorkKind::ByteCopied, w.byte_copied},
                                                    {WorkKind::RunCopied, w.run_copied},
                                                    {WorkKind::RecordCopied, w.record_copied},
                                                    {WorkKind::ElementCopied, w.element_copied},
                                                    {WorkKind::ByteFaulted, w.byte_faulted}};
  for (std::size_t k = 0; k < kIndexKinds.size(); ++k) costs.emplace_back(kIndexKinds[k], prices[k]);
  for (const auto& [kind, price] : costs) {
    xml << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/>\n", price_property(kind), price);
  }
  xml << fmt::format("      <prop id=\"{}\" value=\"0\"/> <!-- inside the measured latency -->\n", kSendOverheadProperty)
      << fmt::format("      <prop id=\"{}\" value=\"0\"/>\n", kRecvOverheadProperty)
      << fmt::format("      <prop id=\"hockney.t0\" value=\"{:.6g}\"/>\n", n.fit.at(1))
      << fmt::format("      <prop id=\"hockney.r_inf\" value=\"{:.6g}\"/>\n", base_bandwidth)
      << "      <prop id=\"memory.node\" value=\"0\"/> <!-- one node: its ranks share memory -->\n"
      << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/> <!-- more ranks than cores: each keeps to a core, "
                     "its core's ranks in turn -->\n",
                     kTimeSliceProperty, n.time_slice);
  if (const PiecewiseCurve switches = switch_cost_curve(n, cores); !switches.empty()) {
    xml << fmt::format("      <prop id=\"{}\" value=\"{}\"/> <!-- by ranks per core: seconds a core loses passing "
                       "from one rank to another -->\n",
                       kSwitchCostProperty, switches.text());
  }
  if (const PiecewiseCurve slowdowns = copy_slowdown_curve(shared_copies, cores); !slowdowns.empty()) {
    xml << fmt::format("      <prop id=\"{}\" value=\"{}\"/> <!-- by ranks per core: copies beyond taking turns -->\n",
                       kCopySlowdownProperty, slowdowns.text());
  }
  if (const PiecewiseCurve slowdowns = work_slowdown_curve(shared_copies, cores); !slowdowns.empty()) {
    xml << fmt::format("      <prop id=\"{}\" value=\"{}\"/> <!-- by ranks per core: other work beyond taking turns -->\n",
                       kWorkSlowdownProperty, slowdowns.text());
  }
  if (w.memory) {
    xml << "      <!-- Copies by the bytes copied at once: one rank's bandwidth, and the node memory's that the\n"
        << "           ranks copying at once share (redist/transport/node_memory.hpp); bytes per second. -->\n"
        << fmt::format("      <prop id=\"{}\" value=\"{}\"/>\n", kCopyBandwidthProperty, w.memory->copy_bandwidth.text())
        << fmt::format("      <prop id=\"{}\" value=\"{}\"/>\n", kNodeBandwidthProperty, w.memory->node_bandwidth.text());
    if (w.memory->pack_factor != 1 || w.memory->unpack_factor != 1 || w.memory->sweep_factor) {
      xml << "      <!-- A pack's and an unpack's loop (one message, and every message in one sweep): memory\n"
          << "           time over a plain copy's of the same bytes. -->\n"
          << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/>\n", kPackFactorProperty, w.memory->pack_factor)
          << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/>\n", kUnpackFactorProperty, w.memory->unpack_factor);
      if (w.memory->sweep_factor) {
        xml << fmt::format("      <prop id=\"{}\" value=\"{:.6g}\"/>\n", kSweepFactorProperty, *w.memory->sweep_factor);
      }
    }
  }
  xml << "    </host>\n";
  xml << fmt::format("    <link id=\"memory\" bandwidth=\"{:.6g}Bps\" latency=\"{:.6g}s\">\n", n.exchange.bandwidth,
                     base_latency);
  if (const PiecewiseCurve oversubscribed = oversubscribed_bandwidth_curve(n.oversubscribed, cores); !oversubscribed.empty()) {
    xml << fmt::format("      <prop id=\"{}\" value=\"{}\"/> <!-- by ranks per core beyond the cores: a message's"
                       " receiver copies it, at this / cores -->\n",
                       kOversubscribedBandwidthsProperty, oversubscribed.text());
  }
  xml << "    </link>\n";
  // Messages between the node's ranks cross its memory, one link they share (SimGrid's loopback, a
  // fat pipe, would give each message all of it).
  xml << "    <route src=\"node-0\" dst=\"node-0\" symmetrical=\"NO\"><link_ctn id=\"memory\"/></route>\n";
  xml << "  </zone>\n</platform>\n";
  return xml.str();
}

std::string machine_model_file(const std::string& platform) {
  std::filesystem::path path(platform);
  if (path.extension() == ".xml") path.replace_extension();
  return path.string() + ".model.json";
}

}  // namespace redist::calibration
