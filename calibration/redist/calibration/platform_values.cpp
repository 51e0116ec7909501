#include "redist/calibration/platform_values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "redist/sim/platform_tags.hpp"

namespace redist::calibration {
namespace {

// A number followed by one of `units` (suffix -> factor), e.g. "35MBps" -> 3.5e7.
double with_unit(const std::string& text, const std::vector<std::pair<std::string, double>>& units,
                 const std::string& what) {
  double number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || !std::isfinite(number)) throw std::invalid_argument(what + " '" + text + "' is not a number");
  const std::string suffix(end, text.data() + text.size());
  for (const auto& [unit, factor] : units) {
    if (suffix == unit) return number * factor;
  }
  throw std::invalid_argument(what + " '" + text + "' has a unit the fit does not know ('" + suffix + "')");
}

const std::vector<std::pair<std::string, double>> kBandwidthUnits = {
    {"Bps", 1},       {"kBps", 1e3},           {"KBps", 1e3},          {"MBps", 1e6},
    {"GBps", 1e9},    {"TBps", 1e12},          {"KiBps", 1024.0},      {"MiBps", 1048576.0},
    {"GiBps", 1073741824.0}, {"bps", 0.125},   {"kbps", 125.0},        {"Mbps", 125e3},
    {"Gbps", 125e6}};
const std::vector<std::pair<std::string, double>> kLatencyUnits = {
    {"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
const std::vector<std::pair<std::string, double>> kSpeedUnits = {
    {"f", 1}, {"kf", 1e3}, {"Mf", 1e6}, {"Gf", 1e9}, {"Tf", 1e12}};
const std::vector<std::pair<std::string, double>> kPlainNumber = {{"", 1}};

// How a value is written back: SI, with the unit SimGrid needs.
std::string written(PlatformTarget::Kind kind, double value) {
  switch (kind) {
    case PlatformTarget::Kind::HostProperty: return fmt::format("{:.9g}", value);
    case PlatformTarget::Kind::HostSpeed: return fmt::format("{:.9g}f", value);
    case PlatformTarget::Kind::LinkBandwidth: return fmt::format("{:.9g}Bps", value);
    case PlatformTarget::Kind::LinkLatency: return fmt::format("{:.9g}s", value);
  }
  return "";
}

std::vector<ValueSite> host_sites(const std::vector<sim::XmlTag>& all, const PlatformTarget& t) {
  std::vector<ValueSite> out;
  std::string host;  // the open <host>, if any
  for (const sim::XmlTag& tag : all) {
    if (tag.name != "host" && tag.name != "prop") continue;
    if (tag.name == "host" && tag.closing) {
      host.clear();
      continue;
    }
    if (tag.name == "host") {
      const auto id = tag.attribute("id");
      if (!id) throw std::invalid_argument("a <host> has no id");
      if (!tag.self_closing) host = id->value;
      if (t.kind == PlatformTarget::Kind::HostSpeed) {
        const auto speed = tag.attribute("speed");
        if (!speed) throw std::invalid_argument("host " + id->value + " has no speed");
        out.push_back({speed->offset, speed->value.size(), tag.end, id->value,
                       with_unit(speed->value, kSpeedUnits, "host " + id->value + " speed")});
      }
      continue;
    }
    if (t.kind != PlatformTarget::Kind::HostProperty || host.empty()) continue;
    const auto id = tag.attribute("id");
    if (!id || id->value != t.key) continue;
    const auto value = tag.attribute("value");
    if (!value) throw std::invalid_argument("host " + host + " property " + t.key + " has no value");
    out.push_back({value->offset, value->value.size(), tag.end, host,
                   with_unit(value->value, kPlainNumber, "host " + host + " property " + t.key)});
  }
  return out;
}

std::vector<ValueSite> link_sites(const std::vector<sim::XmlTag>& all, const PlatformTarget& t) {
  std::regex pattern;
  try {
    pattern = std::regex(t.key);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument("'" + t.key + "' is not a regular expression: " + e.what());
  }
  const bool bandwidth = t.kind == PlatformTarget::Kind::LinkBandwidth;
  const std::string name = bandwidth ? "bandwidth" : "latency";
  std::vector<ValueSite> out;
  for (const sim::XmlTag& tag : all) {
    if (tag.name != "link" || tag.closing) continue;
    const auto id = tag.attribute("id");
    if (!id || !std::regex_match(id->value, pattern)) continue;
    const auto value = tag.attribute(name);
    if (!value) {
      if (bandwidth) throw std::invalid_argument("link " + id->value + " has no bandwidth");
      continue;  // SimGrid's default latency is 0: nothing to scale
    }
    out.push_back({value->offset, value->value.size(), tag.end, id->value,
                   with_unit(value->value, bandwidth ? kBandwidthUnits : kLatencyUnits, "link " + id->value + " " + name)});
  }
  return out;
}

// "--" may not appear inside an XML comment.
std::string comment_safe(std::string text) {
  for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at)) text.replace(at, 2, "- -");
  return text;
}

}  // namespace

std::string PlatformTarget::describe() const {
  switch (kind) {
    case Kind::HostProperty: return "host property " + key;
    case Kind::HostSpeed: return "host speed";
    case Kind::LinkBandwidth: return "bandwidth of links /" + key + "/";
    case Kind::LinkLatency: return "latency of links /" + key + "/";
  }
  return "";
}

PlatformFile PlatformFile::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read platform file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return PlatformFile(text.str());
}

std::vector<ValueSite> PlatformFile::sites(const PlatformTarget& target) const {
  const auto all = sim::platform_tags(text_);
  auto out = target.kind == PlatformTarget::Kind::HostProperty || target.kind == PlatformTarget::Kind::HostSpeed
                 ? host_sites(all, target)
                 : link_sites(all, target);
  if (out.empty()) {
    throw std::invalid_argument(target.kind == PlatformTarget::Kind::HostProperty ? "no host has property '" + target.key + "'"
                                : target.kind == PlatformTarget::Kind::HostSpeed  ? "the platform has no host"
                                                                                  : "no link id matches '" + target.key + "'");
  }
  return out;
}

std::string PlatformFile::with_values(const std::vector<PlatformTarget>& targets, const std::vector<double>& values,
                                      const std::vector<std::string>& comments, const std::string& header) const {
  // (offset, length, replacement), applied from the end so that earlier offsets stay valid.
  std::vector<std::tuple<std::size_t, std::size_t, std::string>> edits;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const auto all = sites(targets[k]);
    const double first = all.front().value;
    for (const auto& site : all) {
      const double value = first == 0 ? values[k] : site.value * (values[k] / first);
      edits.emplace_back(site.offset, site.length, written(targets[k].kind, value));
    }
    if (k < comments.size() && !comments[k].empty()) {
      edits.emplace_back(all.front().element_end, 0, " <!-- " + comment_safe(comments[k]) + " -->");
    }
  }
  if (!header.empty()) {
    const std::size_t at = text_.find("<platform");
    if (at == std::string::npos) throw std::invalid_argument("the platform file has no <platform> element");
    edits.emplace_back(at, 0, "<!--\n" + comment_safe(header) + "-->\n");
  }
  std::sort(edits.begin(), edits.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b) : std::get<1>(a) < std::get<1>(b);
  });
  for (std::size_t k = 1; k < edits.size(); ++k) {
    if (std::get<1>(edits[k]) > 0 && std::get<0>(edits[k]) + std::get<1>(edits[k]) > std::get<0>(edits[k - 1]) &&
        std::get<1>(edits[k - 1]) > 0) {
      throw std::invalid_argument("two fitted values set the same platform value");
    }
  }
  std::string text = text_;
  for (const auto& [offset, length, replacement] : edits) text.replace(offset, length, replacement);
  return text;
}

}  // namespace redist::calibration
