#include "redist/calibration/local_work_measurements.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "redist/calibration/least_squares.hpp"

namespace redist::calibration {
namespace {

double count(const nlohmann::json& work, WorkKind kind) {
  const auto it = work.find(std::string(price_property(kind)));
  return it == work.end() ? 0.0 : it->get<double>();
}

std::optional<CopyLoop> copy_loop(const nlohmann::json& row) {
  if (!row.contains("direction")) return std::nullopt;
  const std::string direction = row.at("direction").get<std::string>();
  if (direction == "pack") return CopyLoop::Pack;
  if (direction == "unpack") return CopyLoop::Unpack;
  if (direction == "sweep") return CopyLoop::UnpackSweep;
  throw std::runtime_error("copy row of direction '" + direction + "' (pack, unpack or sweep)");
}

// The runs and records, and where the rows say which loop copied, each loop's factor on the memory's
// copies of its bytes (all ranks copied at once): the rows' seconds as pack factor × the memory's
// seconds of a pack's bytes, unpack factor × an unpack's, sweep factor × a sweep's (where rows
// timed sweeps: else the unpack's stands for it), and a price per run and per record, fitted again
// without the rows missed by more than a quarter and three times the median miss (pieces a leading
// dimension apart, whose cache lines the bytes do not count), as the index prices are. Rows that do
// not say (measured before they did), or a loop whose factor fits to nothing: the memory's seconds
// as they are (factors 1), the runs and records on what they leave.
void fit_copy_loops(LocalWork& out) {
  const auto is = [&out](std::optional<CopyLoop> loop) {
    return std::any_of(out.copies.begin(), out.copies.end(), [loop](const CopyMeasurement& c) { return c.loop == loop; });
  };
  std::vector<double> seconds;
  for (const CopyMeasurement& c : out.copies) seconds.push_back(c.seconds);
  if (is(CopyLoop::Pack) && is(CopyLoop::Unpack) && !is(std::nullopt)) {
    const std::vector<CopyLoop> loops = is(CopyLoop::UnpackSweep)
                                            ? std::vector{CopyLoop::Pack, CopyLoop::Unpack, CopyLoop::UnpackSweep}
                                            : std::vector{CopyLoop::Pack, CopyLoop::Unpack};
    std::vector<std::vector<double>> columns;
    for (const CopyMeasurement& c : out.copies) {
      const double memory = out.memory->copy_seconds(c.bytes, out.ranks, CopyLoop::Pack, c.touched_on_node(out.ranks));
      std::vector<double> row;
      for (const CopyLoop loop : loops) row.push_back(c.loop == loop ? memory : 0.0);
      row.push_back(c.runs);
      row.push_back(c.records);
      columns.push_back(std::move(row));
    }
    std::vector<std::size_t> left_out;
    const std::vector<double> fitted = fit_prices_staged_trimmed(columns, seconds, {}, &left_out);
    if (std::all_of(fitted.begin(), fitted.begin() + static_cast<std::ptrdiff_t>(loops.size()), [](double f) { return f > 0; })) {
      for (const std::size_t row : left_out) out.copies[row].left_out = true;
      out.memory->pack_factor = fitted[0];
      out.memory->unpack_factor = fitted[1];
      if (loops.size() == 3) out.memory->sweep_factor = fitted[2];
      out.run_copied = fitted[loops.size()];
      out.record_copied = fitted[loops.size() + 1];
      return;
    }
  }
  std::vector<std::vector<double>> loops;
  std::vector<double> copied;
  for (const CopyMeasurement& c : out.copies) {
    loops.push_back({c.runs, c.records});
    copied.push_back(out.memory->copy_seconds(c.bytes, out.ranks, CopyLoop::Pack, c.touched_on_node(out.ranks)));
  }
  const std::vector<double> loop_prices = fit_prices(loops, seconds, copied);
  out.run_copied = loop_prices[0];
  out.record_copied = loop_prices[1];
}

}  // namespace

nlohmann::json fastest_rows(const std::vector<nlohmann::json>& passes) {
  if (passes.empty()) throw std::runtime_error("no local work measured");
  nlohmann::json out = passes.front();
  for (const char* part : {"index", "copies", "pdgemr2d"}) {
    if (part == std::string("pdgemr2d") && !out.contains(part)) continue;  // measured before pdgemr2d was
    auto& rows = out.at(part);
    for (const auto& pass : passes) {
      const auto& other = pass.at(part);
      if (other.size() != rows.size()) throw std::runtime_error("local work passes measured different rows");
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (other[i].at("work") != rows[i].at("work")) throw std::runtime_error("local work passes measured different rows");
        rows[i]["seconds"] = std::min(rows[i].at("seconds").get<double>(), other[i].at("seconds").get<double>());
      }
    }
  }
  if (out.contains("first_touch")) {  // each write at its fastest pass
    auto& touch = out.at("first_touch");
    for (const auto& pass : passes) {
      const auto& other = pass.at("first_touch");
      if (other.at("bytes") != touch.at("bytes")) throw std::runtime_error("local work passes measured different first touches");
      for (const char* write : {"fresh", "warm"}) {
        touch[write] = std::min(touch.at(write).get<double>(), other.at(write).get<double>());
      }
    }
  }
  if (!out.contains("copy_bandwidth")) return out;
  auto& rows = out.at("copy_bandwidth");
  for (const auto& pass : passes) {
    const auto& other = pass.at("copy_bandwidth");
    if (other.size() != rows.size()) throw std::runtime_error("local work passes measured different copies");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (other[i].at("ranks") != rows[i].at("ranks") || other[i].at("bytes") != rows[i].at("bytes")) {
        throw std::runtime_error("local work passes measured different copies");
      }
      for (const char* data : {"warm", "cold"}) {
        rows[i][data] = std::max(rows[i].at(data).get<double>(), other[i].at(data).get<double>());
      }
    }
  }
  return out;
}

LocalWork local_work_from_json(const nlohmann::json& json) {
  LocalWork out;
  if (json.contains("first_touch")) {
    const auto& t = json.at("first_touch");
    out.first_touch = LocalWork::FirstTouchMeasurement{t.at("bytes").get<double>(), t.at("fresh").get<double>(),
                                                       t.at("warm").get<double>()};
    if (!(out.first_touch->bytes > 0)) throw std::runtime_error("first-touch measurement of no bytes");
    out.byte_faulted = std::max(0.0, (out.first_touch->fresh - out.first_touch->warm) / out.first_touch->bytes);
  }
  for (const auto& row : json.at("index")) {
    IndexMeasurement m;
    for (const WorkKind kind : kIndexKinds) m.counts.push_back(count(row.at("work"), kind));
    m.seconds = row.at("seconds").get<double>();
    out.index.push_back(m);
  }
  std::vector<std::vector<double>> counts;
  std::vector<double> seconds;
  for (const auto& row : json.at("copies")) {
    const auto& work = row.at("work");
    CopyMeasurement c{count(work, WorkKind::ByteCopied), count(work, WorkKind::RunCopied),
                      count(work, WorkKind::RecordCopied), row.at("seconds").get<double>(), copy_loop(row)};
    c.touched = row.value("touched", 0.0);
    out.copies.push_back(c);
    counts.push_back({c.bytes, c.runs, c.records});
    seconds.push_back(c.seconds);
  }
  const std::vector<double> prices = fit_prices(counts, seconds);
  out.byte_copied = prices[0];
  out.run_copied = prices[1];
  out.record_copied = prices[2];
  // pdgemr2d's element-by-element copies: what their bytes, runs and records leave, per element.
  const auto fit_elements = [&out, &json] {
    if (!json.contains("pdgemr2d")) return;
    std::vector<std::vector<double>> elements;
    std::vector<double> taken, known;
    for (const auto& row : json.at("pdgemr2d")) {
      const auto& work = row.at("work");
      const LocalWork::ElementCopyMeasurement m{count(work, WorkKind::ElementCopied), count(work, WorkKind::ByteCopied),
                                                count(work, WorkKind::RunCopied), count(work, WorkKind::RecordCopied),
                                                row.at("seconds").get<double>(), row.value("touched", 0.0)};
      out.pdgemr2d.push_back(m);
      elements.push_back({m.elements});
      taken.push_back(m.seconds);
      // Its three copies (pack, buffer to buffer, unpack) each a third of the bytes, one after another.
      const double bytes =
          out.memory ? 3 * out.memory->copy_seconds(m.bytes / 3, out.ranks, CopyLoop::Pack, m.touched_on_node(out.ranks))
                     : m.bytes * out.byte_copied;
      known.push_back(bytes + m.runs * out.run_copied + m.records * out.record_copied);
    }
    if (!elements.empty()) out.element_copied = fit_prices(elements, taken, known)[0];
  };
  if (!json.contains("copy_bandwidth")) {  // measured before the memory was modelled
    fit_elements();
    return out;
  }
  // Copies timed as repeated calls run them (rows that say what they touched) are priced by the
  // warm copies; those timed with the caches emptied first, by the cold ones.
  out.warm_copies =
      std::all_of(out.copies.begin(), out.copies.end(), [](const CopyMeasurement& c) { return c.touched > 0; });
  std::vector<CopyBandwidthMeasurement> modelled;
  for (const auto& row : json.at("copy_bandwidth")) {
    const CopyBandwidthRow r{row.at("ranks").get<Index>(), row.at("bytes").get<double>(), row.at("warm").get<double>(),
                             row.at("cold").get<double>()};
    out.copy_bandwidth.push_back(r);
    modelled.push_back({r.ranks, r.bytes, out.warm_copies ? r.warm : r.cold});
    out.ranks = std::max(out.ranks, r.ranks);
  }
  out.memory = NodeMemory::from_measurements(modelled);
  fit_copy_loops(out);
  fit_elements();
  return out;
}

}  // namespace redist::calibration
