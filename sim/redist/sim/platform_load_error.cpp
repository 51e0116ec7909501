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
  std::string reason = at.suffix().str();
  // SimGrid's parser names an element left open, one out of place and one it does not know alike,
  // by the close tag it expected instead: "Unexpected character `<': `</zone>' expected."
  static const std::regex kUnexpectedElement(R"(^Unexpected character `<': `</([A-Za-z_]+)>' expected\.$)");
  if (std::smatch element; std::regex_match(reason, element, kUnexpectedElement)) {
    const std::string open = "<" + element[1].str() + ">";
    reason += " (" + open + " is left open, or holds an element that " + open + " cannot hold or SimGrid does not know)";
  }
  return "platform " + file + ":" + at[1].str() + ": " + reason;
}

}  // namespace redist::sim
