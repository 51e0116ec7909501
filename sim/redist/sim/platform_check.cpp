#include "redist/sim/platform_check.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "redist/os/input_file.hpp"
#include "redist/sim/platform_tags.hpp"
#include "redist/transport/platform_properties.hpp"

namespace redist::sim {
namespace {

// "%g": 0, -1e+07, 5e-05, nan, inf.
std::string figure(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

[[noreturn]] void refuse(const std::string& file, const std::string& what) {
  throw std::runtime_error("platform " + file + ": " + what);
}

void check_link(const simgrid::s4u::Link& link, const std::string& file) {
  const double bandwidth = link.get_bandwidth(), latency = link.get_latency();
  if (!std::isfinite(bandwidth) || bandwidth <= 0) {
    refuse(file, "link '" + link.get_name() + "' has bandwidth " + figure(bandwidth) + " B/s (it must be finite and > 0)");
  }
  if (!std::isfinite(latency) || latency < 0) {
    refuse(file, "link '" + link.get_name() + "' has latency " + figure(latency) + " s (it must be finite and >= 0)");
  }
}

std::string lower_case(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

void check_host(const simgrid::s4u::Host& host, const std::string& file) {
  const double speed = host.get_speed();
  if (!std::isfinite(speed) || speed <= 0) {
    refuse(file, "host '" + host.get_name() + "' has speed " + figure(speed) + " flop/s (it must be finite and > 0)");
  }
}

// The properties of one element against the table of platform properties: a name in one of its
// namespaces must be one of its rows and, on a host or a link, declared on the element that row
// names (a zone is checked for names only: SimGrid gives a <cluster>'s properties to its hosts and
// may keep them on its zone too). Other names (SimGrid's, another tool's) pass. Names are checked in
// order, so the one refused does not depend on hashing.
void check_properties(const std::unordered_map<std::string, std::string>* properties,
                      std::optional<PropertyHolder> holder, const std::string& element, const std::string& file) {
  if (properties == nullptr) return;
  std::vector<std::string> names;
  for (const auto& [name, value] : *properties) {
    if (in_property_namespace(name)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const PlatformProperty* known = find_platform_property(name);
    if (known == nullptr) {
      refuse(file, element + " has property '" + name +
                       "', which redist does not know (`redist platform-properties` lists those it reads)");
    }
    if (holder && known->holder != *holder) {
      refuse(file, element + " has property '" + name + "', which redist reads on a " +
                       std::string(property_holder_name(known->holder)) + " only");
    }
  }
}

void check_zone_properties(const simgrid::s4u::NetZone& zone, const std::string& file) {
  check_properties(zone.get_properties(), std::nullopt, "zone '" + zone.get_name() + "'", file);
  for (const auto* child : zone.get_children()) check_zone_properties(*child, file);
}

// True when `from` has a route to `to`. Never called on a pair whose route may be missing in the
// calling process: see check_routes.
bool has_route(const simgrid::s4u::Host& from, const simgrid::s4u::Host& to) {
  std::vector<simgrid::s4u::Link*> links;
  double latency = 0;
  try {
    from.route_to(&to, links, &latency);
  } catch (const std::exception&) {
    return false;
  }
  return !links.empty();
}

// Probes every ordered pair of `hosts` in a child process. SimGrid 3.32 dereferences the missing
// route of a Full zone (signal 11) instead of reporting it, so a child that `announces` writes each
// pair on a pipe before asking for it: if it dies, the last pair announced is the one without a
// route. Returns the pair at fault (k = from · n + to), or nothing when every route exists. The
// child also seals the platform, which the parent leaves to run() as before.
std::optional<std::uint64_t> first_pair_without_route(const simgrid::s4u::Engine& engine,
                                                      const std::vector<simgrid::s4u::Host*>& hosts,
                                                      const std::vector<bool>& shared, bool announce,
                                                      const std::string& file) {
  const std::uint64_t n = hosts.size();
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("platform " + file + ": cannot check routes: pipe failed");
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("platform " + file + ": cannot check routes: fork failed");
  if (child == 0) {
    ::close(fds[0]);
    ::signal(SIGSEGV, SIG_DFL);
    if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, 2);  // SimGrid's crash report
    engine.seal_platform();  // Floyd zones compute their routes when sealed (run() seals in the parent)
    for (std::uint64_t k = 0; k < n * n; ++k) {
      if (k / n == k % n && !shared[k / n]) continue;  // a host alone on itself sends itself nothing
      if (announce && ::write(fds[1], &k, sizeof k) != sizeof k) ::_exit(3);
      if (!has_route(*hosts[k / n], *hosts[k % n])) {
        if (!announce && ::write(fds[1], &k, sizeof k) != sizeof k) ::_exit(3);
        ::_exit(2);
      }
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::optional<std::uint64_t> last;
  std::uint64_t k = 0;
  for (ssize_t got; (got = ::read(fds[0], &k, sizeof k)) != 0;) {
    if (got == sizeof k) last = k;
    else if (got < 0 && errno != EINTR) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  return last.value_or(n * n);  // n · n: died before naming a pair
}

// One system call per pair costs more than the probe itself at thousands of hosts (16.8 million
// pairs at 4096), so the pairs are first probed silently; only a crash probes them again, one
// announced pair at a time, to name the pair at fault.
// A host that holds several ranks sends itself their messages: its route to itself (the loopback
// SimGrid adds to some zones, or a <route> from it to it) is probed as the others are. Without one,
// SimGrid 3.32 crashes on a Full zone (signal 11) and stops a Floyd zone with a "No route" line of
// its own, in the middle of the run.
void check_routes(const simgrid::s4u::Engine& engine, const std::vector<simgrid::s4u::Host*>& hosts,
                  const std::vector<bool>& shared, const std::string& file) {
  const std::uint64_t n = hosts.size();
  if (n < 2 && std::find(shared.begin(), shared.end(), true) == shared.end()) return;
  auto pair = first_pair_without_route(engine, hosts, shared, false, file);
  if (pair == n * n) pair = first_pair_without_route(engine, hosts, shared, true, file);
  if (!pair) return;
  if (*pair == n * n) refuse(file, "the route check died before probing any pair");
  const std::string& from = hosts[*pair / n]->get_name();
  if (*pair / n == *pair % n) {
    refuse(file, "no route from host '" + from + "' to itself, which the ranks it holds need to send each other " +
                     "messages (give its zone a loopback, or place one rank per host)");
  }
  refuse(file, "no route from host '" + from + "' to host '" + hosts[*pair % n]->get_name() + "'");
}

}  // namespace

void check_platform_text(const std::string& file) {
  std::error_code missing;
  if (!std::filesystem::exists(file, missing)) return;  // SimGrid names a file it cannot find
  // A device (/dev/zero), a FIFO or a file of gigabytes is refused before it is read.
  std::string text = os::read_input_file(file, os::kMaxPlatformBytes, "platform");
  // Comments hold no elements: a commented-out <host core="0"> or <include> is not refused.
  // Their newlines stay, so that a position in `text` is on the file's line.
  for (auto open = text.find("<!--"); open != std::string::npos; open = text.find("<!--", open)) {
    const auto close = text.find("-->", open + 4);
    if (close == std::string::npos) {
      refuse(file, "the comment opened on line " + std::to_string(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open), '\n') + 1) +
                       " is never closed (is the file cut short?)");
    }
    const auto newlines = std::count(text.begin() + static_cast<std::ptrdiff_t>(open), text.begin() + static_cast<std::ptrdiff_t>(close), '\n');
    text.replace(open, close + 3 - open, static_cast<std::size_t>(newlines), '\n');
  }
  // SimGrid 3.32 reads no <include>: it aborts ("<include> tag was removed in SimGrid v3.18"), so
  // what the included file holds is never loaded, and never checked here. Refused with one line.
  const std::vector<XmlTag> tags = platform_tags(text);
  const auto value_of = [](const XmlTag& tag, std::string_view name) -> std::optional<std::string> {
    const XmlAttribute* a = tag.attribute(name);
    return a != nullptr ? std::optional(a->value) : std::nullopt;
  };
  for (const XmlTag& include : tags) {
    if (include.name != "include" || include.closing) continue;
    const auto named = value_of(include, "file");
    refuse(file, "<include file=\"" + named.value_or("") +
                     "\"> is not supported (SimGrid removed <include> in v3.18): put the elements of " +
                     (named ? *named : std::string("the included file")) + " into this file");
  }
  // SimGrid's parser reads no element before the document type: without it, or without a root
  // <platform> at all (an empty file, JSON, YAML), it says "Unexpected character `<' in prolog".
  const auto root = text.find("<platform");
  if (root == std::string::npos) {
    refuse(file, "no <platform> element (a SimGrid platform is an XML file whose root element is <platform>)");
  }
  if (text.rfind("<!DOCTYPE platform", root) == std::string::npos) {
    refuse(file, "no <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> before <platform> (SimGrid reads "
                 "no platform without it)");
  }
  // SimGrid 3.32 aborts the whole process on a zone routing it does not know ("Not a valid model!").
  static const std::vector<std::string> kRoutings = {"full", "floyd", "dijkstra", "dijkstracache", "none", "vivaldi",
                                                     "cluster", "wifi"};
  for (const XmlTag& zone : tags) {
    if ((zone.name != "zone" && zone.name != "AS") || zone.closing) continue;
    const auto routing = value_of(zone, "routing");
    if (routing && std::find(kRoutings.begin(), kRoutings.end(), lower_case(*routing)) == kRoutings.end()) {
      refuse(file, "zone '" + value_of(zone, "id").value_or("?") + "' has routing=\"" + *routing +
                       "\" (SimGrid knows Full, Floyd, Dijkstra, DijkstraCache, None, Vivaldi, Cluster and Wifi)");
    }
  }
  for (const XmlTag& tag : tags) {
    if ((tag.name != "host" && tag.name != "cluster") || tag.closing) continue;
    const auto core = value_of(tag, "core");
    if (!core) continue;
    const bool digits = !core->empty() && core->size() <= 10 && core->find_first_not_of("0123456789") == std::string::npos;
    const long long value = digits ? std::stoll(*core) : 0;
    if (value < 1 || value > 2147483647) {
      refuse(file, tag.name + " '" + value_of(tag, "id").value_or("?") + "' has core=\"" + *core +
                       "\" (it must be a whole number from 1 to 2147483647)");
    }
  }
}

void check_platform(const simgrid::s4u::Engine& engine, const std::string& file,
                    const std::vector<simgrid::s4u::Host*>& used) {
  for (const auto* link : engine.get_all_links()) {
    check_link(*link, file);
    check_properties(link->get_properties(), PropertyHolder::Link, "link '" + link->get_name() + "'", file);
  }
  for (const auto* host : engine.get_all_hosts()) {
    check_host(*host, file);
    check_properties(host->get_properties(), PropertyHolder::Host, "host '" + host->get_name() + "'", file);
  }
  check_zone_properties(*engine.get_netzone_root(), file);
  std::vector<simgrid::s4u::Host*> hosts = used;
  std::sort(hosts.begin(), hosts.end(), [](const auto* a, const auto* b) { return a->get_name() < b->get_name(); });
  std::vector<bool> shared;  // of each distinct host, in that order: whether it holds more than one rank
  for (std::size_t i = 0, j = 0; i < hosts.size(); i = j) {
    while (j < hosts.size() && hosts[j] == hosts[i]) ++j;
    shared.push_back(j - i > 1);
  }
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  check_routes(engine, hosts, shared, file);
}

}  // namespace redist::sim
