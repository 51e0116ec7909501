// Numbers on a command line read one way in every command of redist and redist-mpi. CLI11 reads
// whole numbers as C's strtoll does with base 0 ("010" is 8, "0x10" is 16) and an unsigned "-5" as
// 2^64 - 5; it takes "nan" for a number. Here a whole number is decimal digits, with a sign only
// where the option may be negative, and a number is finite.
#pragma once

#include <charconv>
#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

namespace redist::command_line {

/// "" when `text` is a decimal whole number (its leading zeros removed in place), else the problem.
inline std::string decimal_whole_number(std::string& text, bool may_be_negative) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::size_t first = negative ? 1 : 0;
  const bool digits = text.size() > first && text.find_first_not_of("0123456789", first) == std::string::npos;
  if (!digits || (negative && !may_be_negative)) {
    return text + " is not a " + (may_be_negative ? "" : "non-negative ") + "whole number in decimal digits";
  }
  const std::size_t significant = std::min(text.find_first_not_of('0', first), text.size() - 1);
  text = (negative ? "-" : "") + text.substr(significant);
  return {};
}

/// "" when `text` is a finite number, else the problem.
inline std::string finite_number(const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return text + " is not a finite number";
  return {};
}

/// Gives every numeric option of `app` and its subcommands these rules (call once all are added).
inline void read_numbers_strictly(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    // The value's type, before the validators' descriptions ("INT:INT in [1 - 256]").
    std::string type = option->get_type_name();
    type = type.substr(0, type.find(':'));
    if (type == "INT" || type == "UINT") {
      const bool may_be_negative = type == "INT";
      option->transform(CLI::Validator(
          [may_be_negative](std::string& text) { return decimal_whole_number(text, may_be_negative); }, type));
    } else if (type == "FLOAT") {
      option->check(CLI::Validator([](std::string& text) { return finite_number(text); }, type));
    }
  }
  for (CLI::App* sub : app.get_subcommands({})) read_numbers_strictly(*sub);
}

}  // namespace redist::command_line
