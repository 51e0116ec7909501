// The indexing methods a test iterates: the whole registry (redist/indexing/indexing_methods.hpp),
// never a list of names. Every test program that iterates it also registers a stand-in method,
// "dummy" (every_indexing_method.cpp), and checks at the end that each test that asked for every
// method did run the dummy: a new registry entry reaches every method-iterating test by itself.
#pragma once

#include <vector>

#include "redist/indexing/indexing_methods.hpp"

namespace redist::test {

/// Every registered method, the dummy included; notes that the running test iterates them.
const std::vector<IndexingMethod>& every_indexing_method();

/// The name of the test-only stand-in method.
inline constexpr const char* kDummyMethod = "dummy";

}  // namespace redist::test
