// Reads the nodes of one YAML file and reports every mistake as "file:line: reason", thrown as
// `Error`: shared by the scenario loader and the fit specification reader.
#pragma once

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "redist/experiments/duplicate_keys.hpp"
#include "redist/os/input_file.hpp"
#include "redist/os/utf8.hpp"

namespace redist {

// yaml-cpp's limit on nesting (its DepthGuard), which ends a parse with DeepRecursion.
inline constexpr int kYamlDepthLimit = 500;

template <class Error>
class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}

  /// The file's document, a mapping without repeated keys; `kind` names the file in errors ("a
  /// scenario must be a YAML mapping"). Syntax errors give their line.
  YAML::Node load(const std::string& kind) const {
    if (!std::filesystem::exists(file_)) throw Error(file_ + ": no such " + kind + " file");
    // Read once, bounded: a device, a FIFO or a file of gigabytes is refused before it is read.
    std::string bytes;
    try {
      bytes = os::read_input_file(file_, os::kMaxYamlBytes, "YAML");
    } catch (const std::invalid_argument& e) {
      throw Error(file_ + ": " + std::string(e.what()).substr(std::string("YAML " + file_ + ": ").size()));
    }
    refuse_non_utf8(bytes);
    refuse_nul(bytes);
    YAML::Node root;
    try {
      root = YAML::Load(bytes);
    } catch (const YAML::DeepRecursion& e) {  // its own text says only "bad file"
      throw Error(file_ + ":" + std::to_string(e.mark.line + 1) + ": YAML nested more than " +
                  std::to_string(kYamlDepthLimit) + " levels deep (a " + kind + " needs a few)");
    } catch (const YAML::ParserException& e) {
      throw Error(file_ + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg +
                  syntax_hint(bytes, e.mark.line));
    } catch (const YAML::Exception& e) {
      throw Error(file_ + (e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1)) + ": cannot be read: " + e.msg);
    }
    refuse_duplicate_keys(bytes);
    if (root.IsNull()) throw Error(file_ + ": holds no YAML document, only blanks or comments (a " + kind + " must be a YAML mapping)");
    if (!root.IsMap()) throw Error(file_ + ": a " + kind + " must be a YAML mapping");
    return root;
  }

  /// A YAML file is UTF-8: a name with another byte would only fail in the JSON reports, after
  /// every run.
  void refuse_non_utf8(const std::string& bytes) const {
    const auto at = os::first_non_utf8_byte(bytes);
    if (!at) return;
    const auto line = std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(*at), '\n') + 1;
    const auto start = bytes.rfind('\n', *at) == std::string::npos ? 0 : bytes.rfind('\n', *at) + 1;
    const auto end = std::min(bytes.find('\n', *at), bytes.size());
    throw Error(file_ + ":" + std::to_string(line) + ": " + os::utf8_problem(std::string_view(bytes).substr(start, end - start)) +
                " (a YAML file must be UTF-8)");
  }

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
  // yaml-cpp reads a NUL byte as the end of its stream, then reports whatever that cut left
  // ("unknown escape character"); a YAML file is text, and holds none.
  void refuse_nul(const std::string& bytes) const {
    const auto at = bytes.find('\0');
    if (at == std::string::npos) return;
    const auto line = std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1;
    throw Error(file_ + ":" + std::to_string(line) + ": a NUL byte (0x00) at offset " + std::to_string(at) +
                " (a YAML file is text)");
  }

  // What yaml-cpp's message leaves out, for the two mistakes it names by their effect only: a tab
  // in a line's indentation ("illegal block entry", "illegal map value"), and a key longer than the
  // 1024 characters YAML allows a key on one line ("illegal map value").
  static std::string syntax_hint(const std::string& bytes, int line_index) {
    if (line_index < 0) return "";
    std::size_t start = 0;
    for (int k = 0; k < line_index && start != std::string::npos; ++k) {
      start = bytes.find('\n', start);
      if (start != std::string::npos) ++start;
    }
    if (start == std::string::npos || start >= bytes.size()) return "";
    const std::string_view line = std::string_view(bytes).substr(start, bytes.find('\n', start) - start);
    const auto text_starts = line.find_first_not_of(" \t");
    if (line.substr(0, text_starts).find('\t') != std::string_view::npos) {
      return " (this line is indented with a tab: YAML indents with spaces only)";
    }
    constexpr std::size_t kMaxImplicitKey = 1024;
    const auto colon = line.find(": ");
    if (colon != std::string_view::npos && colon > kMaxImplicitKey) {
      return " (this line's key is " + std::to_string(colon) + " characters long: YAML allows at most " +
             std::to_string(kMaxImplicitKey) + ")";
    }
    return "";
  }

  // Run after the document parsed: a syntax error is reported by the loader, with its line.
  void refuse_duplicate_keys(const std::string& bytes) const {
    std::istringstream stream(bytes);
    std::optional<DuplicateKey> duplicate;
    try {
      duplicate = find_duplicate_key(stream);
    } catch (const YAML::Exception& e) {
      throw Error(file_ + (e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1)) + ": cannot be read: " + e.msg);
    }
    if (duplicate) {
      throw Error(file_ + ":" + std::to_string(duplicate->second_line) + ": key '" + duplicate->key +
                  "' appears twice in one mapping (lines " + std::to_string(duplicate->first_line) + " and " +
                  std::to_string(duplicate->second_line) + ")");
    }
  }

  std::string file_;
};

}  // namespace redist
