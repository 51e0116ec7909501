// An error is one line on standard error: scripts and mpirun's merged output read it as one record.
// A file name may hold a newline or a terminal escape, and a value quoted from an input may be
// megabytes long; both reach the message through the names and values it quotes.
#pragma once

#include <string>
#include <string_view>

namespace redist::os {

/// `message` as one printable line: control characters (a newline, a carriage return, an escape,
/// DEL) written as C escapes ("\n", "\x1b"), and a message longer than `max_chars` cut in its
/// middle ("...[N characters left out]..."), keeping its start (what failed) and its end (why).
std::string as_error_line(std::string_view message, std::size_t max_chars = 2000);

}  // namespace redist::os
