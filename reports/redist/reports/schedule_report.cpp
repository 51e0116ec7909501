#include "redist/reports/schedule_report.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "redist/reports/plot_script.hpp"
#include "redist/os/atomic_file.hpp"

namespace redist {
namespace {

constexpr Index kNoStep = -1;

// steps[p·Q + q]: the step of message (p, q), or kNoStep.
std::vector<Index> step_of_pairs(const Schedule& schedule) {
  std::vector<Index> steps(static_cast<std::size_t>(schedule.P * schedule.Q), kNoStep);
  for (std::size_t k = 0; k < schedule.steps.size(); ++k) {
    for (const auto& m : schedule.steps[k].messages) {
      steps[static_cast<std::size_t>(m.src * schedule.Q + m.dst)] = static_cast<Index>(k);
    }
  }
  return steps;
}

std::string step_rows(const Schedule& schedule) {
  const auto steps = step_of_pairs(schedule);
  std::size_t width = std::max(step_label(std::max<Index>(0, schedule.step_count() - 1)).size(),
                               std::to_string(schedule.Q - 1).size()) + 1;
  width = std::max<std::size_t>(width, 2);
  std::string out = fmt::format("{:<13}", "Sender/Recv.");
  for (Index q = 0; q < schedule.Q; ++q) out += fmt::format("{:>{}}", q, width);
  out += '\n';
  for (Index p = 0; p < schedule.P; ++p) {
    out += fmt::format("{:<13}", p);
    for (Index q = 0; q < schedule.Q; ++q) {
      const Index k = steps[static_cast<std::size_t>(p * schedule.Q + q)];
      out += fmt::format("{:>{}}", k == kNoStep ? "-" : step_label(k), width);
    }
    out += '\n';
  }
  return out;
}

std::string cost_rows(const Schedule& schedule) {
  std::size_t width = 2;
  for (Index k = 0; k < schedule.step_count(); ++k) {
    width = std::max({width, step_label(k).size() + 1, std::to_string(schedule.steps[static_cast<std::size_t>(k)].cost()).size() + 1});
  }
  std::string steps = fmt::format("{:<13}", "Step"), costs = fmt::format("{:<13}", "Cost");
  for (Index k = 0; k < schedule.step_count(); ++k) {
    steps += fmt::format("{:>{}}", step_label(k), width);
    costs += fmt::format("{:>{}}", schedule.steps[static_cast<std::size_t>(k)].cost(), width);
  }
  const std::size_t total_width = std::max<std::size_t>(6, std::to_string(schedule.total_cost()).size() + 1);
  return steps + fmt::format("{:>{}}", "Total", total_width) + '\n' + costs +
         fmt::format("{:>{}}", schedule.total_cost(), total_width) + '\n';
}

}  // namespace

std::string step_label(Index step) {
  std::string label;
  for (Index n = step + 1; n > 0; n = (n - 1) / 26) label.insert(label.begin(), static_cast<char>('a' + (n - 1) % 26));
  return label;
}

std::string schedule_table(const Schedule& schedule, const std::string& title) {
  return title + "\n\n" + step_rows(schedule) + '\n' + cost_rows(schedule);
}

nlohmann::ordered_json schedule_json(const Schedule& schedule) {
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& step : schedule.steps) {
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    for (const auto& m : step.messages) messages.push_back({{"src", m.src}, {"dst", m.dst}, {"length", m.length}});
    steps.push_back({{"cost", step.cost()}, {"messages", std::move(messages)}});
  }
  return {{"NS", schedule.step_count()}, {"TC", schedule.total_cost()}, {"steps", std::move(steps)}};
}

std::string schedule_title(Strategy strategy, const Redistribution& redist, const Schedule& schedule) {
  std::string name(name_of(strategy));
  name[0] = static_cast<char>(std::toupper(name[0]));
  return fmt::format("{} schedule for P = {}, Q = {}, r = {}, s = {}: NS = {} steps, TC = {}", name, redist.P,
                     redist.Q, redist.r, redist.s, schedule.step_count(), schedule.total_cost());
}

void plot_schedule(const Schedule& schedule, const std::string& title, const std::filesystem::path& png,
                   const std::filesystem::path& script) {
  // The script's input, a temporary beside the image (mkstemp's own name in the user's folder):
  // never a fixed name in a shared folder, which another user could hold or link elsewhere.
  os::PendingFile json(png.string() + ".steps.json");
  json.write(schedule_json(schedule).dump());
  os::PendingFile image(png);
  run_plot_script(script,
                  {json.path().string(), image.path().string(), "--P", std::to_string(schedule.P), "--Q",
                   std::to_string(schedule.Q), "--title", title},
                  image.path());
  image.publish();
}

}  // namespace redist
