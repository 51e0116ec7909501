#include "redist/reports/schema_table.hpp"

#include <fmt/format.h>

namespace redist {
namespace {

// Table cells: '|' would end the cell and '*' start emphasis.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '*') out += '\\';
    out += c;
  }
  return out;
}

std::string default_cell(const ParameterSpec& p) {
  if (p.required && !p.required_unless.empty()) return "required unless " + p.required_unless;
  if (p.required && !p.required_with.empty()) return "required with " + p.required_with;
  if (p.required) return "required";
  if (p.default_value.is_null()) return "—";
  return p.default_value.is_string() ? p.default_value.get<std::string>() : p.default_value.dump();
}

std::string names_listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "`" : ", `") + name + "`";
  return out;
}

std::string section(const ExperimentSpec& e) {
  std::string out = fmt::format("### `{}`\n\n{}. ", e.name, e.summary);
  out += e.command.empty() ? "No command runs it alone; scenarios do.\n\n"
                           : fmt::format("`redist {}` runs one; a parameter without a flag is for scenarios only.\n\n", e.command);
  out += "| parameter | values | default | flag | meaning |\n|---|---|---|---|---|\n";
  for (const ParameterSpec& p : e.parameters) {
    const std::string flag = e.command.empty() || !p.on_command_line ? "—" : "`" + flag_name(p.name) + "`";
    out += fmt::format("| {} | {} | {} | {} | {} |\n", p.required && p.required_unless.empty() && p.required_with.empty() ? "**" + p.name + "**" : p.name, cell(p.accepted()),
                       cell(default_cell(p)), flag, cell(p.meaning));
  }
  std::vector<std::string> phases;
  for (const Phase phase : e.phases) phases.emplace_back(phase_names().name_of(phase));
  out += "\nPhases: " + (phases.empty() ? std::string("none") : names_listed(phases)) +
         (e.quantities.empty() ? "" : "; quantities: " + names_listed(e.quantities));
  return out + ". " + e.notes + ".\n";
}

}  // namespace

std::string schema_markdown(const std::vector<ExperimentSpec>& experiments) {
  std::string out;
  for (const ExperimentSpec& e : experiments) out += (out.empty() ? "" : "\n") + section(e);
  return out;
}

}  // namespace redist
