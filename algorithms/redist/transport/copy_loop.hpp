// The loops that copy a rank's data, which a node's memory model prices apart (node_memory.hpp).
#pragma once

#include <cstddef>

namespace redist {

/// Which loop copies: a pack (out of local storage: the messages, a local part), an unpack of one
/// message (out of a message that has arrived, into local storage), or an unpack of several at once
/// in one sweep of local storage (unpack_messages, unpack_and_copy: each destination line filled for
/// all of them while it is in cache, at more work a piece than one message's loop).
enum class CopyLoop { Pack, Unpack, UnpackSweep };

/// The loop that unpacks `swept` messages (and copies) in one call: a sweep from two on.
constexpr CopyLoop unpack_loop(std::size_t swept) { return swept >= 2 ? CopyLoop::UnpackSweep : CopyLoop::Unpack; }

}  // namespace redist
