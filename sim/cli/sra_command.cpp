// `redist sra --platform F -n N -P P -x X -y Y [--method tr|sra] [--orientation row|column]
// [--elem-bytes B] [--phantom] [--json]`: one redistribution of a symmetric n×n matrix (paper 002)
// simulated on a platform, with the phases the paper reports (comp, comm, total).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "command.hpp"
#include "redist/core/atomic_file.hpp"
#include "options.hpp"
#include "redist/analysis/phase.hpp"
#include "redist/sim/experiments.hpp"

namespace redist::cli {
namespace {

struct SraOptions {
  std::string platform;
  Index n = 0, P = 0;
  std::string x, y;  // whole numbers, block or cyclic
  std::string method = "sra";
  std::string orientation = "row";
  Index elem_bytes = 4;
  bool phantom = false;
  bool json = false;
  std::string trace;
};

// "block" and "cyclic" stay names; anything else must be a whole number (the experiment checks > 0).
nlohmann::json block_parameter(const std::string& text, const char* option) {
  if (text == "block" || text == "cyclic") return text;
  std::string copy = text;
  const std::string error = whole_number()(copy);
  if (!error.empty()) throw std::invalid_argument(std::string(option) + ": " + error + " (nor block or cyclic)");
  return std::stoll(text);
}

std::string block_text(const nlohmann::json& block) { return block.is_string() ? block.get<std::string>() : block.dump(); }

int run_sra(const SraOptions& o) {
  Params params = {{"n", o.n}, {"P", o.P}, {"x", block_parameter(o.x, "-x")}, {"y", block_parameter(o.y, "-y")},
                   {"method", o.method}, {"orientation", o.orientation}, {"elem_bytes", o.elem_bytes}};
  const auto& experiment = sim::find_experiment("sra");
  for (const auto& [name, value] : params.items()) experiment.spec.check_value(name, value);
  if (!std::filesystem::is_regular_file(o.platform)) throw std::invalid_argument("no platform file '" + o.platform + "'");
  // SimGrid writes the trace under a temporary name, published once the run succeeded.
  std::optional<core::PendingFile> trace;
  if (!o.trace.empty()) trace.emplace(o.trace);
  const auto result = experiment.run(o.platform, params, o.phantom ? sim::Payload::Phantom : sim::Payload::Auto,
                                     trace ? trace->path().string() : "");
  if (trace) trace->publish();
  const std::string platform = std::filesystem::path(o.platform).stem().string();
  if (o.json) {
    nlohmann::ordered_json json = {{"platform", platform}, {"n", o.n}, {"P", o.P}, {"x", params["x"]},
                                   {"y", params["y"]}, {"method", o.method}, {"orientation", o.orientation},
                                   {"elem_bytes", o.elem_bytes}, {"phases", phases_json(result.phases, experiment.spec.phases)}, {"messages", result.messages},
                                   {"bytes", result.bytes}};
    json["verified"] = result.verified ? nlohmann::ordered_json(*result.verified) : nlohmann::ordered_json(nullptr);
    json["phantom"] = result.phantom;
    json["quantities"] = result.quantities;
    std::cout << json.dump() << '\n';
    return 0;
  }
  std::cout << fmt::format("{}: {} symmetric {}x{} matrix, BC({}) -> BC({}) {}-wise over {} processors, {} bytes per element\n",
                           platform, o.method, o.n, o.n, block_text(params["x"]), block_text(params["y"]), o.orientation, o.P,
                           o.elem_bytes);
  std::cout << phases_text(result.phases, experiment.spec.phases);
  std::cout << fmt::format("messages {}, bytes {}, verified {}\n", result.messages, result.bytes,
                           result.verified ? (*result.verified ? "yes" : "NO") : "n/a (phantom)");
  return 0;
}

}  // namespace

void add_sra_command(CLI::App& root, Commands& commands) {
  auto o = std::make_shared<SraOptions>();
  auto* app = root.add_subcommand("sra", "Simulate one symmetric matrix redistribution BC(x,*) -> BC(y,*) by TR or SRA (paper 002)");
  app->add_option("--platform", o->platform, "SimGrid platform file (platforms/*.xml)")->required();
  app->add_option("-n", o->n, "matrix order (n x n)")->required()->check(whole_number());
  app->add_option("-P", o->P, "processors")->required()->check(whole_number());
  app->add_option("-x", o->x, "source block size: a whole number, block or cyclic")->required();
  app->add_option("-y", o->y, "destination block size: a whole number, block or cyclic")->required();
  app->add_option("--method", o->method, "tr (traditional) or sra")->check(CLI::IsMember({"tr", "sra"}))->capture_default_str();
  app->add_option("--orientation", o->orientation, "row: BC(x,*) -> BC(y,*); column: BC(*,x) -> BC(*,y)")
      ->check(CLI::IsMember({"row", "column"}))
      ->capture_default_str();
  app->add_option("--elem-bytes", o->elem_bytes, "bytes per element (4: single precision)")
      ->check(whole_number())
      ->capture_default_str();
  app->add_flag("--phantom", o->phantom, "payload sizes only, no bytes (default: phantom above 64 MiB of matrix)");
  app->add_option("--trace", o->trace, "write SimGrid's Paje trace to this file");
  app->add_flag("--json", o->json, "print the phases as JSON");
  add_max_memory_option(app);
  commands.push_back({app, [o] { return run_sra(*o); }});
}

}  // namespace redist::cli
