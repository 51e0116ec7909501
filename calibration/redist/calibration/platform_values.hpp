// The values of a SimGrid platform file that `redist fit` may change: a host property of every host,
// every host's speed, or the bandwidth or latency of the links whose id matches a regular
// expression. Edits keep the rest of the file byte for byte (platform files are generated, and
// their comments say where each value comes from).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace redist::calibration {

/// What a fitted value sets in a platform file.
struct PlatformTarget {
  enum class Kind { HostProperty, HostSpeed, LinkBandwidth, LinkLatency };
  Kind kind = Kind::HostProperty;
  std::string key;  ///< the property name (HostProperty) or the link-id regex (Link*); empty for HostSpeed

  /// "host property cost.index_op", "link bandwidth of /port-.*/", ...
  std::string describe() const;
};

/// One place in the file where a target's value is written, with that value in SI units
/// (seconds, bytes/s, flop/s).
struct ValueSite {
  std::size_t offset = 0;  ///< of the value's text
  std::size_t length = 0;
  std::size_t element_end = 0;  ///< just after the element holding it (where a comment can go)
  std::string owner;  ///< the host or link id
  double value = 0;
};

class PlatformFile {
 public:
  /// Throws std::runtime_error when the file cannot be read.
  static PlatformFile read(const std::string& path);
  explicit PlatformFile(std::string text) : text_(std::move(text)) {}

  /// Every site of a target, in file order. Throws std::invalid_argument when there is none, or a
  /// value cannot be read (units SimGrid does not know, several power states).
  std::vector<ValueSite> sites(const PlatformTarget& target) const;

  /// The target's value: the first site's. The fit moves it; every site is scaled by the same factor
  /// (value / first site's value), so links or hosts that differ keep their derived ratios; when the
  /// first site holds 0, every site is set to `value`.
  double value(const PlatformTarget& target) const { return sites(target).front().value; }

  /// A copy with `targets[k]` set to `values[k]`, and `comments[k]` (if not empty) written as an XML
  /// comment right after the first site's element; `header` (if not empty) as a comment before
  /// <platform>. Targets must not share a site.
  std::string with_values(const std::vector<PlatformTarget>& targets, const std::vector<double>& values,
                          const std::vector<std::string>& comments = {}, const std::string& header = "") const;

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace redist::calibration
