// Reads the nodes of one YAML file and reports every mistake as "file:line: reason", thrown as
// `Error`: shared by the scenario loader and the fit specification reader.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace redist {

template <class Error>
class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& reason) const {
    const int line = at.Mark().line;
    throw Error(file_ + (line >= 0 ? ":" + std::to_string(line + 1) : "") + ": " + reason);
  }

  void require_map(const YAML::Node& node, const std::string& what) const {
    if (!node.IsMap()) fail(node, what + " must be a mapping of keys to values");
  }

  /// Every key of `map` is one of `allowed`; `where` names the mapping in the error.
  void require_keys(const YAML::Node& map, const std::vector<std::string>& allowed, const std::string& where) const {
    for (const auto& item : map) {
      const auto key = item.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(item.first, "unknown key '" + key + "' in " + where + " (expected one of: " + list + ")");
      }
    }
  }

  std::string text(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, "'" + key + "' must be a single value");
    return node.as<std::string>();
  }

  std::string required_text(const YAML::Node& map, const std::string& key) const {
    const YAML::Node node = map[key];
    if (!node) fail(map, "missing required key '" + key + "'");
    const auto value = text(node, key);
    if (value.empty()) fail(node, "'" + key + "' must not be empty");
    return value;
  }

 private:
  std::string file_;
};

}  // namespace redist
