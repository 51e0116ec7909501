// SimGrid's own words for a platform it cannot load, as one redist line: SimGrid names the file
// and the line twice ("Parse error at F:33: Invalid XML (XML input line 33, state 141): Bad
// attribute ..."), with its parser's state number; the reader needs the file, the line and the reason.
#pragma once

#include <string>

namespace redist::sim {

/// "platform FILE:LINE: REASON" from SimGrid's "Parse error at FILE:LINE: [Invalid XML (XML input
/// line LINE, state S): ]REASON", with the causes where SimGrid names an element left open or unknown
/// only by the close tag it expected; any other message `what` as "platform FILE: what".
std::string platform_load_error(const std::string& file, const std::string& what);

}  // namespace redist::sim
