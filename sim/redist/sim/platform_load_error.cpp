#include "redist/sim/platform_load_error.hpp"

#include <regex>

namespace redist::sim {

std::string platform_load_error(const std::string& file, const std::string& what) {
  const std::string prefix = "Parse error at " + file + ":";
  if (what.rfind(prefix, 0) != 0) return "platform " + file + ": " + what;
  static const std::regex kAt(R"(^(\d+): (?:Invalid XML \(XML input line \d+, state \d+\): )?)");
  const std::string rest = what.substr(prefix.size());
  std::smatch at;
  if (!std::regex_search(rest, at, kAt)) return "platform " + file + ": " + what;
  return "platform " + file + ":" + at[1].str() + ": " + at.suffix().str();
}

}  // namespace redist::sim
