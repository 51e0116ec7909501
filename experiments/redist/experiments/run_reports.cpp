#include "redist/experiments/run_reports.hpp"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "redist/experiments/phase.hpp"
#include "redist/reports/redistribution_json.hpp"

namespace redist::sim {
namespace {

// A platform is named by its file's stem: platforms/cm5.xml -> cm5.
std::string platform_name(const std::string& path) { return std::filesystem::path(path).stem().string(); }

std::string block_text(const nlohmann::json& block) { return block.is_string() ? block.get<std::string>() : block.dump(); }

nlohmann::ordered_json fortran_order(const std::vector<Index>& by_dimension) {
  return nlohmann::ordered_json(std::vector<Index>(by_dimension.rbegin(), by_dimension.rend()));
}

// The indexing and schedule a run used: a submatrix copy's are the drop-in's.
std::pair<std::string, std::string> method_of(const ParameterValues& v, const std::optional<MatrixCopy>& copy) {
  if (v.given("method") && v.text("method") == "pdgemr2d") return {"pdgemr2d", "pdgemr2d"};
  if (copy && !copy->whole()) return {"submatrix", "async"};
  return {v.text("indexing"), v.text("schedule")};
}

}  // namespace

std::string redistribution_run_text(const std::string& platform, const ParameterValues& v, const ExperimentResult& run) {
  std::ostringstream out;
  const std::optional<MatrixCopy> copy = redistribute_matrix_copy(v);
  if (copy) {
    out << fmt::format("{}: {}, elements of {} bytes\n", platform_name(platform), matrix_copy_text(*copy),
                       v.integer("elem_bytes"));
  } else {
    out << fmt::format("{}: CYCLIC({}) on {} -> CYCLIC({}) on {}, N = {} elements of {} bytes\n",
                       platform_name(platform), v.integer("r"), v.integer("P"), v.integer("s"), v.integer("Q"),
                       v.integer("N"), v.integer("elem_bytes"));
  }
  const auto [indexing, schedule] = method_of(v, copy);
  out << fmt::format("indexing {}, schedule {}, {} processor sets{}\n", indexing, schedule, v.text("placement"),
                     run.phantom ? ", phantom payload" : "");
  if (v.integer("repeat") > 1) {
    out << fmt::format("one plan executed {} times: index is the plan, the other phases the mean execution\n",
                       v.integer("repeat"));
  }
  out << phases_text(run.phases, redistribution_phases());
  out << fmt::format("messages {}, bytes {}, verified {}\n", run.messages, run.bytes,
                     run.verified ? (*run.verified ? "yes" : "NO") : "n/a (phantom)");
  if (v.text("relabel") != "none") {
    out << fmt::format("relabelled ({}): bytes kept on their rank {} (unrelabelled {})\n", v.text("relabel"),
                       run.quantities.at("bytes_kept"), run.quantities.at("bytes_kept_unrelabelled"));
  }
  return out.str();
}

nlohmann::ordered_json redistribution_run_json(const std::string& platform, const ParameterValues& v,
                                               const ExperimentResult& run) {
  const std::optional<MatrixCopy> copy = redistribute_matrix_copy(v);
  const auto [indexing, schedule] = method_of(v, copy);
  const auto json_of = [&](Index P, Index Q, nlohmann::ordered_json layouts, Index N) {
    return redistribution_json({platform_name(platform), std::nullopt, P, Q, std::move(layouts), N, run.phases,
                                run.messages, run.bytes, run.verified, v.integer("elem_bytes"), indexing, schedule,
                                v.text("placement"), run.phantom});
  };
  auto json = copy ? json_of(copy->from.processes(), copy->to.processes(), matrix_copy_json(*copy),
                             copy->from.rows * copy->from.cols)
                   : json_of(v.integer("P"), v.integer("Q"), {{"r", v.integer("r")}, {"s", v.integer("s")}}, v.integer("N"));
  if (v.integer("repeat") > 1) json["repeat"] = v.integer("repeat");  // one plan, executed this many times
  if (v.text("relabel") != "none") {
    json["relabel"] = {{"method", v.text("relabel")},
                       {"bytes_kept", run.quantities.at("bytes_kept")},
                       {"bytes_kept_unrelabelled", run.quantities.at("bytes_kept_unrelabelled")}};
  }
  return json;
}

std::string sra_run_text(const std::string& platform_file, const ParameterValues& v, const ExperimentResult& result) {
  const std::string platform = platform_name(platform_file);
  const auto& phases = find_experiment("sra").spec.phases;
  std::ostringstream out;
  out << fmt::format("{}: {} symmetric {}x{} matrix, BC({}) -> BC({}) {}-wise over {} processors, {} bytes per element\n",
                     platform, v.text("method"), v.integer("n"), v.integer("n"), block_text(v.value("x")),
                     block_text(v.value("y")), v.text("orientation"), v.integer("P"), v.integer("elem_bytes"));
  out << phases_text(result.phases, phases);
  out << fmt::format("messages {}, bytes {}, verified {}\n", result.messages, result.bytes,
                     result.verified ? (*result.verified ? "yes" : "NO") : "n/a (phantom)");
  return out.str();
}

nlohmann::ordered_json sra_run_json(const std::string& platform_file, const ParameterValues& v,
                                    const ExperimentResult& result) {
  const std::string platform = platform_name(platform_file);
  const auto& phases = find_experiment("sra").spec.phases;
  nlohmann::ordered_json json = {{"platform", platform}, {"n", v.value("n")}, {"P", v.integer("P")},
                                 {"x", v.value("x")}, {"y", v.value("y")}, {"method", v.text("method")},
                                 {"orientation", v.text("orientation")}, {"elem_bytes", v.integer("elem_bytes")},
                                 {"phases", phases_json(result.phases, phases)},
                                 {"messages", result.messages}, {"bytes", result.bytes}};
  json["verified"] = result.verified ? nlohmann::ordered_json(*result.verified) : nlohmann::ordered_json(nullptr);
  json["phantom"] = result.phantom;
  json["quantities"] = result.quantities;
  return json;
}

std::string pack_run_text(const std::string& platform_file, const PackRunConfig& c, const std::string& mask, Index density,
                          const ParameterValues& v, const PackRunResult& run) {
  const std::string platform = platform_name(platform_file);
  const auto& r = run.experiment;
  const auto& reported = find_experiment("pack").spec.phases;
  std::ostringstream out;
  out << fmt::format("{}: {} of a ({}) array on a ({}) grid, block ({}), {} mask{}, scheme {}, "
                     "prefix-reduction-sum {}{}\n",
                     platform, c.unpack ? "UNPACK" : "PACK", fmt::join(std::vector<Index>(c.extents.rbegin(), c.extents.rend()), " x "),
                     fmt::join(std::vector<Index>(c.procs.rbegin(), c.procs.rend()), " x "),
                     fmt::join(std::vector<Index>(c.blocks.rbegin(), c.blocks.rend()), " x "), mask,
                     mask == "random" ? fmt::format(" ({}%)", density) : "", v.text("scheme"), v.text("prs"),
                     c.redistribution == pack::Preredistribution::None
                         ? ""
                         : ", after redistribution of " + v.text("redistribution") + " data to BLOCK");
  out << fmt::format("Size = {} true elements\n", run.size) << phases_text(r.phases, reported);
  out << fmt::format("messages {}, bytes {}, verified {}\n", r.messages, r.bytes, r.verified.value_or(false) ? "yes" : "NO");
  return out.str();
}

nlohmann::ordered_json pack_run_json(const std::string& platform_file, const PackRunConfig& c, const std::string& mask,
                                     Index density, const ParameterValues& v, const PackRunResult& run) {
  const std::string platform = platform_name(platform_file);
  const auto& r = run.experiment;
  const auto& reported = find_experiment("pack").spec.phases;
  nlohmann::ordered_json json = {{"operation", c.unpack ? "unpack" : "pack"},
                                 {"platform", platform},
                                 {"shape", fortran_order(c.extents)},
                                 {"grid", fortran_order(c.procs)},
                                 {"block", fortran_order(c.blocks)},
                                 {"mask", mask},
                                 {"density", mask == "random" ? nlohmann::ordered_json(density) : nlohmann::ordered_json(nullptr)},
                                 {"scheme", v.text("scheme")},
                                 {"prs", v.text("prs")},
                                 {"redistribution", v.text("redistribution")},
                                 {"size", run.size}};
  json["phases"] = phases_json(r.phases, reported);
  json["messages"] = r.messages;
  json["bytes"] = r.bytes;
  json["verified"] = r.verified.value_or(false);
  return json;
}

}  // namespace redist::sim
