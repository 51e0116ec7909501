// The tags of a platform file's text, read without SimGrid: for what SimGrid's own parser would
// answer with an abort (platform_check.hpp) and for rewriting values where they stand (the
// calibration's platform values). A hand-written scan: it runs before every simulation, where
// libstdc++'s std::regex took most of the set-up on a platform of hundreds of hosts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace redist::sim {

struct XmlAttribute {
  std::string name;
  std::string value;
  std::size_t offset = 0;  ///< where the value's first character stands in the text
};

/// One tag: <name ...>, <name .../> or </name>.
struct XmlTag {
  std::string name;
  std::size_t begin = 0, end = 0;  ///< [begin, end) of the whole tag
  bool closing = false, self_closing = false;
  /// Its attributes as written, up to the first one not written name="value" or name='value'
  /// (SimGrid's parser then names the fault).
  std::vector<XmlAttribute> attributes;

  /// The attribute named `wanted`, or null.
  const XmlAttribute* attribute(std::string_view wanted) const;
};

/// Every tag of `text`, in order; comments, <?...?> and <!...> are skipped, and so is a tag never
/// closed by '>' (the text ends there).
std::vector<XmlTag> platform_tags(const std::string& text);

}  // namespace redist::sim
