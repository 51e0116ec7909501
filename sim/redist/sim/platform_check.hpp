// Values SimGrid would misread, refused before any actor runs: a bandwidth of 0, negative or NaN
// is treated as unconstrained, an infinite latency shows up as a deadlock, a missing route crashes
// the simulation. The checks read the loaded platform through S4U, so units ("1Gbps", "50us",
// "266Mf") are SimGrid's own.
#pragma once

#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

namespace redist::sim {

/// Throws std::runtime_error("platform FILE: link|host 'ID' ...") naming the first element at fault:
/// a link whose bandwidth is not finite and > 0 or whose latency is not finite and >= 0, a host whose
/// speed is not finite and > 0, two of `used` hosts (distinct) with no route between them, or a host
/// `used` more than once (several ranks on it) with no route to itself. Every link and host of the
/// platform is checked, routes only between the hosts a run uses.
void check_platform(const simgrid::s4u::Engine& engine, const std::string& file,
                    const std::vector<simgrid::s4u::Host*>& used);

/// Attributes SimGrid reads without a clear message, checked in the file's text before SimGrid loads
/// it: the `core` count of every <host> and <cluster> must be a whole number from 1 to 2^31 - 1
/// (SimGrid shows a backtrace for 0 and only `stoi` for 99999999999). Throws std::runtime_error
/// "platform FILE: host 'ID' has core="X" (it must be a whole number from 1 to 2147483647)". An
/// <include file="F"> (SimGrid 3.32 aborts on it: removed in v3.18) is refused with "platform FILE:
/// <include file="F"> is not supported (...)", so no element is loaded unchecked. A file without a
/// <platform> element, or without the <!DOCTYPE platform ...> SimGrid's parser needs before it, and a
/// <zone> whose routing SimGrid does not know (it aborts the process) are refused, each with its
/// reason. Comments are skipped.
void check_platform_text(const std::string& file);

}  // namespace redist::sim
