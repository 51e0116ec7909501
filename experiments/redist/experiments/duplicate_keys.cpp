#include "redist/experiments/duplicate_keys.hpp"

#include <map>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

namespace redist {
namespace {

// Follows the nesting of the event stream; in a mapping, entries alternate key, value.
class KeyCollector : public YAML::EventHandler {
 public:
  std::optional<DuplicateKey> found;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { node(nullptr, {}); }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { node(nullptr, {}); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string& value) override {
    node(&value, mark);
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(nullptr, {});
    frames_.push_back({false, true, {}});
  }
  void OnSequenceEnd() override { frames_.pop_back(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(nullptr, {});
    frames_.push_back({true, true, {}});
  }
  void OnMapEnd() override { frames_.pop_back(); }

 private:
  struct Frame {
    bool map;
    bool expect_key;
    std::map<std::string, int> key_lines;  // key -> 1-based line
  };

  // A node starts inside the innermost collection: in a mapping it is a key or a value in turn.
  // Only scalar keys are compared (complex keys are refused later by the schema).
  void node(const std::string* scalar, const YAML::Mark& mark) {
    if (frames_.empty() || !frames_.back().map) return;
    Frame& frame = frames_.back();
    const bool is_key = frame.expect_key;
    frame.expect_key = !frame.expect_key;
    if (!is_key || scalar == nullptr || found) return;
    const int line = mark.line + 1;
    const auto [it, inserted] = frame.key_lines.emplace(*scalar, line);
    if (!inserted) found = DuplicateKey{*scalar, it->second, line};
  }

  std::vector<Frame> frames_;
};

}  // namespace

std::optional<DuplicateKey> find_duplicate_key(std::istream& in) {
  YAML::Parser parser(in);
  KeyCollector collector;
  while (!collector.found && parser.HandleNextDocument(collector)) {
  }
  return collector.found;
}

}  // namespace redist
