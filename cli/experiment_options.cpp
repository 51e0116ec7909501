#include "experiment_options.hpp"

#include <algorithm>

#include "options.hpp"

namespace redist::cli {
namespace {

std::string help(const ParameterSpec& p) {
  return p.meaning + " (" + p.accepted() + ")";
}

std::string default_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace

std::shared_ptr<ExperimentOptions> ExperimentOptions::add(CLI::App* app, const ExperimentSpec& spec,
                                                          const std::vector<std::string>& left_out) {
  std::shared_ptr<ExperimentOptions> options(new ExperimentOptions(spec));
  for (const ParameterSpec& p : spec.parameters) {
    if (!p.on_command_line || std::find(left_out.begin(), left_out.end(), p.name) != left_out.end()) continue;
    auto* option = app->add_option_function<std::string>(
        flag_name(p.name), [given = &options->given_, name = p.name](const std::string& text) { (*given)[name] = text; },
        help(p));
    if (p.required && p.required_unless.empty() && p.required_with.empty()) option->required();
    if (!p.default_value.is_null()) option->default_str(default_text(p.default_value));
    // Out-of-range numbers get CLI11's line naming the flag (a schema would see them as names).
    if (p.min && p.names.empty() && p.pair == 0) option->check(whole_number());
  }
  return options;
}

ParameterValues ExperimentOptions::values() const {
  Params params = Params::object();
  for (const auto& [name, text] : given_) {
    params[name] = parameter_value(text);
    try {
      spec_.check_value(name, params[name]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(flag_name(name) + ": " + e.what());
    }
  }
  return {spec_, params};
}

}  // namespace redist::cli
