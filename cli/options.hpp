// Option helpers shared by the subcommands.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "redist/experiments/experiment_schema.hpp"
#include "redist/experiments/payload.hpp"
#include "redist/core/memory_budget.hpp"

namespace redist::cli {

/// Rejects values that are not whole numbers fitting in 64 bits (CLI11 would saturate them).
inline CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::int64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec == std::errc::result_out_of_range) return text + " does not fit in a 64-bit integer";
        if (ec != std::errc() || ptr != end) return text + " is not a whole number";
        return {};
      },
      "INT64");
}

/// Rejects zero and negative values with one plain line (CLI::PositiveNumber's message names a
/// range up to the largest double).
inline CLI::Validator positive() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || ptr != end) return text + " is not a number";
        if (!(value > 0)) return "must be positive, got " + text;
        return {};
      },
      "POSITIVE");
}

/// `--max-memory BYTES`: the memory a run may use instead of MemAvailable (runs estimated to need
/// more are refused before they allocate; see memory_budget.hpp).
inline void add_max_memory_option(CLI::App* app) {
  app->add_option_function<std::uint64_t>(
         "--max-memory", [](const std::uint64_t& bytes) { set_memory_limit(bytes); },
         "bytes a run may use (default: MemAvailable of /proc/meminfo)")
      ->check(positive());
}

/// `--payload real|phantom|auto` (default kDefaultPayload, as in scenarios) and its shorthand
/// `--phantom`; `payload` must outlive the parse.
inline void add_payload_options(CLI::App* app, Payload& payload) {
  const auto& names = payload_names();
  auto* option = app->add_option_function<std::string>(
                        "--payload", [&payload](const std::string& name) { payload = payload_names().from_name(name); },
                        "real (moved and verified), phantom (sizes only, for sizes that do not fit in memory) or auto "
                        "(phantom above 64 MiB per array)")
                     ->check(CLI::IsMember(names_of(names)))
                     ->default_str(std::string(names.name_of(kDefaultPayload)));
  app->add_flag_callback("--phantom", [&payload] { payload = Payload::Phantom; }, "the same as --payload phantom")
      ->excludes(option);
}

}  // namespace redist::cli
